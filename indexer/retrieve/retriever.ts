import type { Candidate } from '../types.ts';

/** What every retriever answers: ranked candidate views for a query. */
export interface Retriever {
  readonly name: string;
  /** Up to `k` candidates, best first. */
  retrieve(query: string, k: number): Candidate[];
}
