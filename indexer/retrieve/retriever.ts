import type { Candidate } from '../types.ts';

/** What every retriever answers: ranked candidate views for a query. */
export interface Retriever {
  readonly name: string;
  /**
   * Work a query needs before `retrieve` that may be asynchronous (embedding the query with a model).
   * Callers that may hold such a retriever await it first; retrievers without it need nothing.
   */
  prepare?(query: string): Promise<void>;
  /** Up to `k` candidates, best first. */
  retrieve(query: string, k: number): Candidate[];
}
