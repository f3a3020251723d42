/**
 * The store's side of `allot files` (the allocator's `FileSource`): indexed
 * paths, whole-file text read from disk and checked against the indexed hash
 * (so what is shown is byte-for-byte what is written), file-level retrieval and
 * the typed searches' look-ups.
 */
import { readRepoFile } from '../extract/extract-file.ts';
import { isDocPath, isTestPath } from '../paths.ts';
import {
  buildFileTermIndex, chunkBm25, fileBm25, literalLines, objectsNamed, queryTermWeights, usesOf, viewScoresByFile, weightedFtsQuery,
  type FileTermIndex,
} from '../retrieve/files.ts';
import type { DB } from './open.ts';
import { modelKey } from '../embed/types.ts';
import { nearestObjects, type QueryEmbedder } from '../retrieve/dense.ts';

export interface StoreFileContent {
  text: string;
  lineCount: number;
  /** Set when the text is not byte-exact (undecodable bytes replaced). */
  warning?: string;
}

export interface StoreFileUnavailable {
  reason: 'missing' | 'changed-since-indexing' | 'unreadable' | 'not-indexed';
  message: string;
}

/** Lines as the index counts them: `\r\n` and `\n` end a line; a final newline adds none. */
export function countLines(text: string): number {
  if (text === '') return 1;
  let n = 1;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) n++;
  return text.endsWith('\n') ? n - 1 : n;
}

/** Objects a dense query looks at before keeping the best per file. */
const DENSE_OBJECTS = 200;

/** Source files ranked for issues: neither tests nor documentation. */
const rankable = (p: string): boolean => !isTestPath(p) && !isDocPath(p);

/**
 * A FileSource over an open index. With `root`, file text comes from disk and is
 * shown only if its sha1 still equals the indexed hash (a changed or deleted
 * file is reported, never shown stale); without it, the indexed text is used.
 * Term statistics are built on first use and kept for the instance's life.
 * @example storeFileSource(db, '/work/repo').content('pkg/mod.py')
 */
export function storeFileSource(db: DB, root: string | null, opts: { dense?: QueryEmbedder } = {}) {
  let terms: FileTermIndex | undefined;
  const dense = opts.dense;
  const queryVectors = new Map<string, Float32Array>();
  const termIndex = () => (terms ??= buildFileTermIndex(db, rankable));
  const fileRow = db.prepare('SELECT id, hash, size, line_count AS lineCount FROM files WHERE path = ?');
  const textOf = db.prepare('SELECT text FROM file_texts WHERE file_id = ?').pluck();
  let pathList: string[] | undefined;
  let languages: Map<string, string> | undefined;

  return {
    paths(): string[] {
      return (pathList ??= db.prepare('SELECT path FROM files ORDER BY path').pluck().all() as string[]);
    },

    language(p: string): string | null {
      languages ??= new Map((db.prepare('SELECT path, language FROM files').all() as { path: string; language: string }[]).map((r) => [r.path, r.language]));
      return languages.get(p) ?? null;
    },

    content(p: string): StoreFileContent | StoreFileUnavailable {
      const row = fileRow.get(p) as { id: number; hash: string; size: number; lineCount: number } | undefined;
      if (!row) return { reason: 'not-indexed', message: `${p} is not in the index` };
      if (root === null) {
        const text = (textOf.get(row.id) as string | undefined) ?? '';
        return { text, lineCount: countLines(text) };
      }
      // The indexer's own reader: never through a link, never a FIFO or device, never outside the repository.
      const read = readRepoFile(root, p, row.size);
      if (read.status === 'skipped') {
        if (read.reason === 'vanished') return { reason: 'missing', message: `${p} was deleted since indexing (re-run allot index)` };
        if (read.reason === 'too-large' || read.reason === 'binary') return { reason: 'changed-since-indexing', message: `${p} changed on disk since indexing (re-run allot index)` };
        return { reason: 'unreadable', message: `${p} cannot be read: ${read.message}` };
      }
      const bytes = read.bytes;
      if (read.hash !== row.hash) {
        return { reason: 'changed-since-indexing', message: `${p} changed on disk since indexing (re-run allot index)` };
      }
      let text: string;
      let warning: string | undefined;
      try {
        text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
      } catch {
        text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
        warning = `${p}: invalid UTF-8, undecodable bytes shown as U+FFFD`;
      }
      return warning ? { text, lineCount: countLines(text), warning } : { text, lineCount: countLines(text) };
    },

    fileScores(query: string): Map<string, number> {
      return fileBm25(termIndex(), queryTermWeights(query));
    },

    ...(dense
      ? {
          async prepareDense(queries: string[]): Promise<void> {
            const todo = [...new Set(queries)].filter((q) => !queryVectors.has(q));
            if (!todo.length || dense.embedOne) return;
            (await dense.embed(todo)).forEach((v, i) => queryVectors.set(todo[i], v));
          },
          denseScores(query: string): Map<string, number> {
            const q = queryVectors.get(query) ?? dense.embedOne?.(query);
            const out = new Map<string, number>();
            if (!q) return out;
            for (const o of nearestObjects(db, modelKey(dense), q, DENSE_OBJECTS)) {
              if (rankable(o.path) && o.score > (out.get(o.path) ?? 0)) out.set(o.path, o.score);
            }
            return out;
          },
        }
      : {}),

    objectScores(query: string): Map<string, number> {
      const index = termIndex();
      return viewScoresByFile(db, weightedFtsQuery(queryTermWeights(query), index), rankable);
    },

    mentions(identifier: string): string[] {
      const index = termIndex();
      const term = identifier.toLowerCase();
      if (!index.df.has(term)) return [];
      return index.paths.filter((_, i) => index.tfs[i].has(term));
    },

    definitions(name: string) {
      return objectsNamed(db, name).map(({ id: _id, ...o }) => o);
    },

    callers(name: string) {
      return usesOf(db, name);
    },

    strings(text: string, limit?: number) {
      return literalLines(db, text, limit);
    },

    chunks(query: string) {
      return chunkBm25(db, queryTermWeights(query), rankable);
    },
  };
}
