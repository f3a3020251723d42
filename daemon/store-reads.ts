/**
 * The store reads the daemon uses: the indexer's read API, plus one lookup it
 * lacks (a single file's row).
 * TODO(indexer): `indexedFileInfo` belongs in indexer/store/read.ts.
 */
import type { DB } from '../indexer/store/open.ts';
import type { Language } from '../indexer/types.ts';

export { fiberObjects, fileText, getObjects, objectReferences, objectViews, storeCounts } from '../indexer/store/read.ts';

/** One indexed file's row, or null when the path is not indexed. */
export function indexedFileInfo(db: DB, path: string): { path: string; language: Language; lineCount: number; size: number } | null {
  const row = db.prepare('SELECT path, language, line_count AS lineCount, size FROM files WHERE path = ?').get(path);
  return (row as { path: string; language: Language; lineCount: number; size: number } | undefined) ?? null;
}
