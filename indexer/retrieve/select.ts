import { activeEmbedder } from '../embed/active.ts';
import type { DB } from '../store/open.ts';
import { bm25Retriever } from './bm25.ts';
import { denseRetriever } from './dense.ts';
import { hybridRetriever, type Weighted } from './fusion.ts';
import type { Retriever } from './retriever.ts';
import { structuralRetriever, type StructuralOptions } from './structural.ts';
import { guessLanguage } from './query-reading.ts';

/** How a query is retrieved: the retriever, and the file the query comes from (resolves its relative imports). */
export interface RetrievalOptions {
  retriever?: RetrieverName;
  path?: string;
  /** The reciprocal-rank constant of `hybrid` (default 10): larger lets lower ranks of each list count more. */
  rrfK?: number;
}

/** Retrievers a query can name (`--retriever`). */
export const RETRIEVER_NAMES = ['hybrid', 'bm25', 'structural', 'dense'] as const;
export type RetrieverName = (typeof RETRIEVER_NAMES)[number];
export const DEFAULT_RETRIEVER: RetrieverName = 'hybrid';

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
  if (name === 'bm25') return bm25Retriever(db);
  if (name === 'dense') {
    const dense = await activeEmbedder(db);
    if (!dense.on) throw new RetrievalError(dense.reason);
    return denseRetriever(db, dense.embedder);
  }
  const structural = await structuralRetriever(db, opts);
  if (name === 'structural') return structural;
  const dense = await activeEmbedder(db);
  return hybridOf(structural, bm25Retriever(db), dense.on ? denseRetriever(db, dense.embedder) : null, { rrfK: opts.rrfK, codeFile: opts.path });
}

/**
 * The default fusion: structural (weight 2) and BM25 (1), plus dense (1) for prose queries only. Measured on
 * cross-file tasks, whose queries are code, dense in the fusion never helped and cost up to 12.7 points of Recall@4K;
 * on issues, whose queries are prose, it showed gold files in significantly more of them (EVALUATION.md, issue 7).
 * @example hybridOf(structural, bm25Retriever(db), null).retrieve('parse the config', 50)
 */
export function hybridOf(structural: Retriever, bm25: Retriever, dense: Retriever | null, opts: { rrfK?: number; codeFile?: string } = {}): Retriever {
  const parts: Weighted[] = [
    { retriever: structural, weight: 2 },
    { retriever: bm25, weight: 1 },
  ];
  if (dense) parts.push({ retriever: proseOnly(dense, opts.codeFile), weight: 1 });
  return hybridRetriever(parts, 'hybrid', opts.rrfK);
}

/** A retriever that answers prose queries and stays silent on code (a query from a code file, or that reads as code). */
function proseOnly(inner: Retriever, codeFile: string | undefined): Retriever {
  const isCode = (query: string) => codeFile !== undefined || guessLanguage(query) !== null;
  return {
    name: inner.name,
    prepare: async (query) => {
      if (!isCode(query)) await inner.prepare?.(query);
    },
    retrieve: (query, k) => (isCode(query) ? [] : inner.retrieve(query, k)),
  };
}
