/**
 * Term selection. The lines at a cursor or a whole issue hold hundreds of terms, and OR-ing them all makes FTS5 read
 * the postings of every common one (`self`, `return`, `x`) to rank by BM25. A long query keeps its most
 * discriminative terms instead: by idf, identifiers first, closest to where the query is headed, capped; and a term
 * in more rows than `DF_CAP` is left out while enough others remain, which caps the FTS5 work per query. A short
 * query keeps every term but the repository's own stop words (`corpusStopAt`), as long as two others remain.
 */
import { ftsDeleted, ftsStatistics } from '../store/fts.ts';
import { prepared, type DB } from '../store/open.ts';
import { getGeneration } from '../store/write.ts';
import { ftsMatch, type QueryTerm, type TermClass } from './fts-query.ts';

/** Queries with at most this many terms are searched whole: a person typed each of them. */
export const SHORT_QUERY_TERMS = 12;
/** Terms a long query keeps. */
export const LONG_QUERY_TERMS = 24;
/** Rows counted per term at most: a term in more rows is common (its document frequency is at least this). */
export const DF_CAP = 1000;
/** Common terms are left out of a long query as long as this many others remain. */
const MIN_RARE_TERMS = 6;
/** A short query's terms in the index left when its repository stop words go: at least this many, or none go. */
const MIN_SHORT_TERMS = 2;
/** A term in this share of the rows (and in `DF_CAP` rows at least) is one of the repository's stop words. */
const STOP_SHARE = 0.05;

/** From how many rows a term is one of the repository's stop words: it says little about any row holding it. */
export const corpusStopAt = (rows: number): number => Math.max(DF_CAP, Math.ceil(rows * STOP_SHARE));

/** How much each class of term counts, beside its idf: what the query writes as code counts most. */
const CLASS_WEIGHT: Record<TermClass, number> = { identifier: 1, joined: 1, word: 0.8, part: 0.5, number: 0.3 };

export interface TermStatistics {
  /** Rows of the full-text index. */
  rows: number;
  /** Rows holding the term (the FTS5 tokenizer applied, so stemmed), counted up to `limit` (default `DF_CAP`). */
  df(term: string, limit?: number): number;
}

/** How a long query is read for choosing its terms. */
export interface TermContext {
  /** A question in words: the title (the start) matters most. Otherwise code: the cursor (the end) does. */
  prose: boolean;
  /** Terms of code imports not used yet (`pendingImports`): as near the cursor as the last line. */
  pending?: ReadonlySet<string>;
}

/**
 * The terms to search, best first (a short query's in order, its repository stop words left out). A long query's
 * position counts too: in code, closeness to the end (the cursor), an import not used yet counting as the last line;
 * in prose, closeness to the start (the title).
 */
export function chooseTerms(terms: readonly QueryTerm[], stats: TermStatistics | null, context: TermContext, max = LONG_QUERY_TERMS): string[] {
  if (!stats) return terms.slice(0, Math.max(max, SHORT_QUERY_TERMS)).map((t) => t.term);
  if (terms.length <= SHORT_QUERY_TERMS) {
    const stop = corpusStopAt(stats.rows);
    const df = terms.map((t) => stats.df(t.term, stop));
    const rare = df.filter((n) => n > 0 && n < stop).length;
    return terms.filter((_, i) => rare < MIN_SHORT_TERMS || df[i] < stop).map((t) => t.term);
  }
  const scored = terms
    .map((t, i) => {
      const df = stats.df(t.term);
      const where = context.prose ? 1 - i / terms.length : context.pending?.has(t.term) ? 1 : t.recency;
      const idf = Math.log(1 + (stats.rows - df + 0.5) / (df + 0.5));
      return { t: t.term, df, score: idf * CLASS_WEIGHT[t.class] * (0.5 + 0.5 * where), i };
    })
    .filter((x) => x.df > 0);
  const rare = scored.filter((x) => x.df < DF_CAP);
  const pool = rare.length >= MIN_RARE_TERMS ? rare : scored;
  return pool.sort((a, b) => b.score - a.score || a.i - b.i).slice(0, max).map((x) => x.t);
}

/** A counted document frequency: exact when below the limit it was counted with, else a lower bound. */
interface Counted {
  n: number;
  limit: number;
  /** `ftsDeleted` before the count: the rows deleted since can only lower it by as many. */
  deleted: number;
  /** The index generation of the count: an exact count holds only there (a row added since may hold the term). */
  generation: number;
}
const caches = new WeakMap<DB, { generation: number; rows: number; deleted: number; df: Map<string, Counted> }>();
const MAX_CACHED = 100_000;
/**
 * Rows counted past the limit asked: a term that common stays "at least the limit" across index generations until
 * as many rows were deleted (an edit deletes a few), so the costliest counts, of the most common terms, are kept.
 */
const DF_SLACK = 256;

/**
 * Document frequencies from the index, remembered: the terms of one repository's queries repeat from query to query.
 * An exact count (below its limit) holds for its index generation; a count that reached its limit (a common term,
 * the costly count) holds as "at least the limit" across generations while fewer rows than its slack were deleted.
 */
export function termStatistics(db: DB): TermStatistics {
  const generation = getGeneration(db);
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = { generation: -1, rows: 0, deleted: 0, df: new Map() }));
  if (cache.generation !== generation) {
    // Read before the counts that use it (a later delete is then counted against them).
    const deleted = ftsDeleted(db);
    // Another index under the same connection's eyes (counts from nothing again): nothing held is known to hold.
    if (generation < cache.generation || deleted < cache.deleted) cache.df.clear();
    cache.deleted = deleted;
    cache.rows = ftsStatistics(db).rows;
    cache.generation = generation;
  }
  const c = cache;
  const count = prepared(db, 'SELECT count(*) FROM (SELECT rowid FROM views_fts WHERE views_fts MATCH ? LIMIT ?)', 'pluck');
  return {
    rows: c.rows,
    df(term, limit = DF_CAP) {
      let held = c.df.get(term);
      if (!held || !holds(held, limit, c)) {
        const deleted = c.deleted;
        held = { n: count.get(ftsMatch([term]), limit + DF_SLACK) as number, limit: limit + DF_SLACK, deleted, generation: c.generation };
        if (c.df.size >= MAX_CACHED) c.df.clear();
        c.df.set(term, held);
      }
      return Math.min(held.n - (c.deleted - held.deleted), limit);
    },
  };
}

// A count gives min(df, limit) now: an exact one in its own generation; a capped one (df >= n then) while n less the
// rows deleted since is still at least `limit`.
function holds(held: Counted, limit: number, now: { generation: number; deleted: number }): boolean {
  if (held.n < held.limit) return held.generation === now.generation;
  return held.n - (now.deleted - held.deleted) >= limit;
}
