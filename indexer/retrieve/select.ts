import { activeEmbedder } from '../embed/active.ts';
import type { DB } from '../store/open.ts';
import { bm25Retriever } from './bm25.ts';
import { denseRetriever } from './dense.ts';
import { hybridRetriever, type Weighted } from './fusion.ts';
import type { Retriever } from './retriever.ts';
import { structuralRetriever, type StructuralOptions } from './structural.ts';

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
 * and, when the index has vectors, dense, fused by reciprocal rank (structural
 * weighted higher, since what it finds the query names).
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
  const parts: Weighted[] = [
    { retriever: structural, weight: 2 },
    { retriever: bm25Retriever(db), weight: 1 },
  ];
  const dense = await activeEmbedder(db);
  if (dense.on) parts.push({ retriever: denseRetriever(db, dense.embedder), weight: 1 });
  return hybridRetriever(parts, 'hybrid', opts.rrfK);
}
