import { FTS_COLUMNS, type FtsColumn } from '../store/fts.ts';
import { prepared, type DB } from '../store/open.ts';
import type { Candidate, ObjectKind, ViewKind } from '../types.ts';
import { ftsMatch, queryTerms } from './fts-query.ts';
import { readProse } from './prose-reading.ts';
import { pendingImports } from './query-reading.ts';
import type { Retriever } from './retriever.ts';
import { chooseTerms, SHORT_QUERY_TERMS, termStatistics } from './term-selection.ts';

/**
 * Field weights of the full-text index (`FTS_COLUMNS`): an object's name counts most, then its signature, its
 * docstring, its body, and least the lines elsewhere that use it; identifier parts count like those lines. Rows of
 * tests, examples and documentation (`aside`) count little unless the query asks for them.
 */
export const BM25_FIELD_WEIGHTS: Readonly<Record<FtsColumn, number>> = { name: 5, signature: 3, docstring: 2, body: 1, derived: 0.5, parts: 0.5, aside: 0.3 };
/** The `aside` weight when the query asks for tests, examples or documentation: like a docstring. */
export const BM25_ASIDE_ASKED = 2;

/** The `bm25()` weight arguments, in column order. */
export function bm25Weights(asksAside = false): number[] {
  return FTS_COLUMNS.map((c) => (c === 'aside' && asksAside ? BM25_ASIDE_ASKED : BM25_FIELD_WEIGHTS[c]));
}

/** The inner query of every view-level BM25 ranking: rowid and rank of the best `LIMIT ?` rows for `MATCH ?`. */
export function bm25Ranked(asksAside = false): string {
  return `SELECT rowid, bm25(views_fts, ${bm25Weights(asksAside).join(', ')}) AS rank FROM views_fts WHERE views_fts MATCH ? ORDER BY rank LIMIT ?`;
}

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

const rowsSql = (asksAside: boolean) =>
  `SELECT m.rowid AS viewId, m.rank, o.id AS objectId, fo.path AS fiber, fv.path AS path,
          o.qualified_name AS objectName, o.kind AS objectKind, v.kind AS viewKind, v.start_line AS startLine, v.end_line AS endLine
   FROM (${bm25Ranked(asksAside)}) m
   JOIN views v ON v.id = m.rowid
   JOIN objects o ON o.key = v.object
   JOIN files fo ON fo.id = o.file_id
   JOIN files fv ON fv.id = v.file_id
   ORDER BY m.rank, m.rowid`;

/** The FTS5 expression BM25 searches for a query: a short query's terms but its repository stop words, or a long query's most discriminative (`chooseTerms`). */
export function bm25Match(db: DB, query: string): string | null {
  const terms = queryTerms(query);
  const prose = readProse(query).mostlyProse;
  return ftsMatch(chooseTerms(terms, termStatistics(db), { prose, pending: prose || terms.length <= SHORT_QUERY_TERMS ? undefined : pendingImports(query) }));
}

/**
 * BM25 over view text (SQLite FTS5) with code-aware terms, fields weighted (`BM25_FIELD_WEIGHTS`).
 * @example bm25Retriever(db).retrieve('parse config file', 20)
 */
export function bm25Retriever(db: DB): Retriever {
  return {
    name: 'bm25',
    retrieve(query, k) {
      if (k <= 0) return [];
      const match = bm25Match(db, query);
      if (!match) return [];
      const asks = readProse(query).asks;
      const stmt = prepared(db, rowsSql(asks.tests || asks.docs));
      return (stmt.all(match, k) as Row[]).map(({ rank, ...r }) => ({ ...r, score: -rank, reason: 'bm25' }) satisfies Candidate);
    },
  };
}
