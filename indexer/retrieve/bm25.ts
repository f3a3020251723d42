import { prepared, type DB } from '../store/open.ts';
import type { Candidate, ObjectKind, ViewKind } from '../types.ts';
import { ftsQuery } from './fts-query.ts';
import type { Retriever } from './retriever.ts';

/** Column weights of the full-text index: object name, view text, identifier parts. */
export const BM25_WEIGHTS = [4.0, 1.0, 0.5] as const;

interface Row {
  viewId: number;
  rank: number;
  objectId: string;
  fiber: string;
  path: string;
  objectName: string;
  objectKind: ObjectKind;
  viewKind: ViewKind;
  startLine: number;
  endLine: number;
}

/**
 * BM25 over view text (SQLite FTS5) with code-aware terms.
 * @example bm25Retriever(db).retrieve('parse config file', 20)
 */
export function bm25Retriever(db: DB): Retriever {
  const stmt = prepared(
    db,
    `SELECT m.rowid AS viewId, m.rank, v.object_id AS objectId, fo.path AS fiber, fv.path AS path,
            o.qualified_name AS objectName, o.kind AS objectKind, v.kind AS viewKind, v.start_line AS startLine, v.end_line AS endLine
     FROM (SELECT rowid, bm25(views_fts, ${BM25_WEIGHTS.join(', ')}) AS rank FROM views_fts WHERE views_fts MATCH ? ORDER BY rank LIMIT ?) m
     JOIN views v ON v.id = m.rowid
     JOIN objects o ON o.id = v.object_id
     JOIN files fo ON fo.id = o.file_id
     JOIN files fv ON fv.id = v.file_id
     ORDER BY m.rank, m.rowid`,
  );
  return {
    name: 'bm25',
    retrieve(query, k) {
      const match = ftsQuery(query);
      if (!match || k <= 0) return [];
      return (stmt.all(match, k) as Row[]).map(({ rank, ...r }) => ({ ...r, score: -rank, reason: 'bm25' }) satisfies Candidate);
    },
  };
}
