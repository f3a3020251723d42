import type { DB } from '../store/open.ts';
import { bm25Retriever } from './bm25.ts';
import { hybridRetriever } from './fusion.ts';
import type { Retriever } from './retriever.ts';
import { structuralRetriever, type StructuralOptions } from './structural.ts';

/** How a query is retrieved: the retriever, and the file the query comes from (resolves its relative imports). */
export interface RetrievalOptions {
  retriever?: RetrieverName;
  path?: string;
}

/** Retrievers a query can name (`--retriever`). */
export const RETRIEVER_NAMES = ['hybrid', 'bm25', 'structural'] as const;
export type RetrieverName = (typeof RETRIEVER_NAMES)[number];
export const DEFAULT_RETRIEVER: RetrieverName = 'hybrid';

/**
 * The retriever behind a name: `bm25`, `structural`, or `hybrid` (structural
 * and BM25 fused, structural weighted higher since what it finds the query names).
 */
export async function retrieverFor(db: DB, name: RetrieverName = DEFAULT_RETRIEVER, opts: StructuralOptions = {}): Promise<Retriever> {
  if (name === 'bm25') return bm25Retriever(db);
  const structural = await structuralRetriever(db, opts);
  if (name === 'structural') return structural;
  return hybridRetriever([
    { retriever: structural, weight: 2 },
    { retriever: bm25Retriever(db), weight: 1 },
  ]);
}
