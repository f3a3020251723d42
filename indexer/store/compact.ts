import type { DB } from './open.ts';

/** A run that leaves at least this share of the file's pages free compacts it. */
export const COMPACT_FREE_SHARE = 0.2;

/**
 * Gives back the pages a run left free or half full (`VACUUM`), after a first build (whose B-trees fill in random
 * key order and whose full-text merges free pages; SymPy's index shrinks by 7%) or a run that left a fifth of the
 * file free (a migration that copied tables, a large branch switch). Outside a transaction; the WAL that the copy
 * went through is truncated when no reader holds it. Returns whether it compacted.
 */
export function compactStore(db: DB, opts: { firstBuild: boolean }): boolean {
  const pages = db.pragma('page_count', { simple: true }) as number;
  const free = db.pragma('freelist_count', { simple: true }) as number;
  if (pages === 0 || (!opts.firstBuild && free < COMPACT_FREE_SHARE * pages)) return false;
  db.exec('VACUUM');
  db.pragma('wal_checkpoint(TRUNCATE)');
  return true;
}
