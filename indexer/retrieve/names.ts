// Apart from the retrievers themselves, so a command line can name them without loading them.
/** Retrievers a query can name (`--retriever`). */
export const RETRIEVER_NAMES = ['hybrid', 'bm25', 'structural', 'dense'] as const;
export type RetrieverName = (typeof RETRIEVER_NAMES)[number];
export const DEFAULT_RETRIEVER: RetrieverName = 'hybrid';
