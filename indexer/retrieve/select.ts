import { activeEmbedder } from '../embed/active.ts';
import type { DB } from '../store/open.ts';
import { bm25Retriever, namesModule } from './bm25.ts';
import { denseRetriever } from './dense.ts';
import { hybridRetriever, type Weighted } from './fusion.ts';
import type { Retriever } from './retriever.ts';
import { structuralRetriever, type StructuralOptions } from './structural.ts';
import { guessLanguage } from './query-reading.ts';
import { asksIn, readProse, SENTENCE_WORDS } from './prose-reading.ts';
import { literalRetriever } from './literal-evidence.ts';
import { isAsidePath, normalizePath } from '../paths.ts';
import { DEFAULT_RETRIEVER, type RetrieverName } from './names.ts';

/** How a query is retrieved: the retriever, and the file the query comes from (resolves its relative imports). */
export interface RetrievalOptions {
  retriever?: RetrieverName;
  path?: string;
  /** The cursor's line in `path`: the file's indexed lines before it are code already written (see `StructuralOptions.line`). */
  line?: number;
  /** The reciprocal-rank constant of `hybrid` (default 10): larger lets lower ranks of each list count more. */
  rrfK?: number;
}

export { DEFAULT_RETRIEVER, RETRIEVER_NAMES, type RetrieverName } from './names.ts';

/** A retriever that cannot answer here (dense retrieval with no vectors in the index). */
export class RetrievalError extends Error {
  override name = 'RetrievalError';
}

/**
 * The retriever behind a name: `bm25`, `structural`, `dense` (the index's
 * vectors, when an embedding pass made some), or `hybrid`: structural, BM25
 * and, for prose queries when the index has vectors, dense, fused by reciprocal
 * rank (structural weighted higher, since what it finds the query names).
 */
export async function retrieverFor(db: DB, name: RetrieverName = DEFAULT_RETRIEVER, opts: StructuralOptions & { rrfK?: number } = {}): Promise<Retriever> {
  const named = await namedRetriever(db, name, opts);
  return opts.path ? withoutFile(named, opts.path) : named;
}

async function namedRetriever(db: DB, name: RetrieverName, opts: StructuralOptions & { rrfK?: number }): Promise<Retriever> {
  if (name === 'bm25') return bm25Retriever(db);
  if (name === 'dense') {
    const dense = await activeEmbedder(db);
    if (!dense.on) throw new RetrievalError(dense.reason);
    return denseRetriever(db, dense.embedder);
  }
  const structural = await structuralRetriever(db, opts);
  if (name === 'structural') return structural;
  const dense = await activeEmbedder(db);
  return hybridOf(structural, bm25Retriever(db), dense.on ? denseRetriever(db, dense.embedder) : null, { rrfK: opts.rrfK, codeFile: opts.path, asks: asksOf(db), literals: literalRetriever(db) });
}

/**
 * `--path FILE`: the file the query comes from is where the cursor is, not evidence about it, so its own objects
 * are left out of every retriever's answer (BM25 and dense find the query's own lines first). Views of other
 * objects that lie in it (their call sites there) stay. Asks deeper while the file's objects crowd out the `k`.
 */
export function withoutFile(inner: Retriever, file: string): Retriever {
  const own = normalizePath(file);
  return {
    name: inner.name,
    prepare: async (query) => inner.prepare?.(query),
    retrieve(query, k) {
      for (let depth = k, round = 0; ; depth *= 2, round++) {
        const all = inner.retrieve(query, depth);
        const kept = all.filter((c) => c.fiber !== own);
        if (kept.length >= k || all.length < depth || round === 3) return kept.slice(0, k);
      }
    },
  };
}

/**
 * The default fusion, by what the query is (`queryKind`):
 * - code (the lines at a cursor): structural (weight 2) and BM25 (1, at a quarter of the depth);
 * - names (identifiers typed as such): structural (2), BM25 (1) and dense (1);
 * - prose (mostly plain words, or sentences about pasted code): BM25 leads (2), structural (1) and dense (1); a file's best objects are lifted by its
 *   evidence (`fileEvidence`), and BM25's best object stays among the first as many as there are lists (three, or two
 *   without vectors: only the other lists' best objects may outrank it); a plain word that happens to
 *   name an object counts little there (`Candidate.weak`).
 * Every query reports `Candidate.relevance` (each list's scores relative to its best), which the fill's relevance
 * stop reads instead of the reciprocal-rank score: prose and names queries from every list, a code query from
 * structure alone (an object only BM25 found adds no relevance there, and structure's scores do not move with
 * edits elsewhere).
 * Measured on cross-file tasks, whose queries are code, dense in the fusion never helped and cost up to 12.7 points
 * of Recall@4K; on issues, whose queries are prose, it showed gold files in significantly more of them
 * (EVALUATION.md, issue 7).
 * @example hybridOf(structural, bm25Retriever(db), null).retrieve('parse the config', 50)
 */
export function hybridOf(structural: Retriever, bm25: Retriever, dense: Retriever | null, opts: HybridOptions = {}): Retriever {
  const kind = (query: string) => queryKind(query, opts.codeFile);
  const asks = opts.asks ?? ((query: string) => readProse(query).asks);
  const byKind = new Map<QueryKind, Retriever>();
  const fused = (k: QueryKind): Retriever => {
    let r = byKind.get(k);
    if (r) return r;
    const side = (r: Retriever) => (k === 'code' ? r : withoutAsides(r, asks));
    const parts: Weighted[] = k === 'prose'
      ? [{ retriever: bm25, weight: 2 }, { retriever: side(structural), weight: 1 }]
      : [{ retriever: side(structural), weight: 2 }, { retriever: k === 'code' ? shallow(bm25) : bm25, weight: 1 }];
    if (dense && k !== 'code') parts.push({ retriever: side(dense), weight: 1 });
    // Prose only: a names query is often pasted code, whose every line would be searched for in every source file (~75 CPU-ms on SymPy).
    if (opts.literals && k === 'prose') parts.push({ retriever: opts.literals, weight: LITERAL_WEIGHT, optional: true });
    r = hybridRetriever(parts, 'hybrid', opts.rrfK, k === 'prose' ? { protectLeader: true, fileEvidence: true, relevance: true, question: true }
      : k === 'names' ? { relevance: true, question: true }
      // The lines at a cursor: the relevance of structure alone (what the code imports, calls and names), which an
      // edit of another file leaves as it was, so a kept answer stays valid (daemon/kept-answers.ts).
      : { relevance: true, relevanceFrom: [0] });
    byKind.set(k, r);
    return r;
  };
  return {
    name: 'hybrid',
    prepare: async (query) => fused(kind(query)).prepare?.(query),
    retrieve: (query, k) => fused(kind(query)).retrieve(query, k),
  };
}

export interface HybridOptions {
  rrfK?: number;
  /** Objects holding what a question or names quote literally (`literalRetriever`): a list of their own when found. */
  literals?: Retriever;
  codeFile?: string;
  /** What a query asks for (tests, docs) in this repository (`asksOf`); by default its words alone (`readProse`). */
  asks?: (query: string) => { tests: boolean; docs: boolean };
}

/**
 * What a quoted message, line or flag found in a few source files weighs in fusion: as much as the words' list leads
 * with (BM25 in a question), since it names where the text is written rather than where its words are.
 */
export const LITERAL_WEIGHT = 2;

/** What a query asks for in the index's repository: a word naming one of its modules asks for nothing (`asksIn`). */
export function asksOf(db: DB): (query: string) => { tests: boolean; docs: boolean } {
  return (query) => asksIn(readProse(query), (w) => namesModule(db, w));
}

/**
 * A question or names that do not ask for tests, examples or documentation: structure and vectors contribute no
 * object of those files to the fusion. They find tests because tests use the code the query names (reference-graph
 * neighbours), which says nothing of where the answer lives; BM25 still offers them, weighed down (`aside`).
 */
function withoutAsides(inner: Retriever, asks: (query: string) => { tests: boolean; docs: boolean }): Retriever {
  return {
    name: inner.name,
    prepare: async (query) => inner.prepare?.(query),
    retrieve(query, k) {
      const list = inner.retrieve(query, k);
      const a = asks(query);
      // Not asked deeper: fusion's depth comes from BM25 as well, and another walk of the graph costs a prose query.
      return a.tests || a.docs ? list : list.filter((c) => !isAsidePath(c.fiber));
    },
  };
}

/** What a query is, for fusion: the lines at a cursor, identifiers typed as such, or a question in words. */
export type QueryKind = 'code' | 'names' | 'prose';

/**
 * A query from a code file is code; otherwise one that is mostly plain words is prose (even when it quotes code), and
 * so is one that says something in sentences about the code it pastes (an issue with its fenced snippet or traceback); one
 * that reads as code is code, and the rest (identifiers typed as such) are names.
 * @example queryKind('how are cookies signed') // 'prose'
 */
export function queryKind(query: string, codeFile?: string): QueryKind {
  if (codeFile !== undefined) return 'code';
  const r = readProse(query);
  // Sentences about pasted code are a question, not the lines at a cursor nor names typed to be looked up: the
  // snippet names where the reporter's code goes (a call, a variable), the sentences what is wrong. Code not marked
  // as pasted (the lines at a cursor sent without their path, comments and docstrings and all) is read as before.
  if (r.mostlyProse || (r.question && r.words >= SENTENCE_WORDS)) return 'prose';
  return guessLanguage(query) !== null && r.words < SENTENCE_WORDS ? 'code' : 'names';
}

/**
 * On a code query BM25 is asked for a quarter of the depth (at least 10 views): its hits compete for the K slots,
 * while the heads the budget lists after them come from structure alone, and a full-depth BM25 list crowded
 * structural candidates out of the fused list (Recall@4K on cross-file tasks, SymPy / Django / rxjs: 76.0 / 96.7 /
 * 97.3% at full depth, 81.3 / 100 / 98.7% at a quarter).
 */
const CODE_BM25_SHARE = 4;
const MIN_CODE_BM25 = 10;

/** BM25 at a share of the depth (a code query's). */
function shallow(inner: Retriever): Retriever {
  return {
    name: inner.name,
    prepare: async (query) => inner.prepare?.(query),
    retrieve: (query, k) => inner.retrieve(query, Math.min(k, Math.max(MIN_CODE_BM25, Math.ceil(k / CODE_BM25_SHARE)))),
  };
}

