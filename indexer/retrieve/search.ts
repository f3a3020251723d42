import type { DB } from '../store/open.ts';
import { bm25Retriever } from './bm25.ts';
import type { Retriever } from './retriever.ts';

/** One search hit, as `allot search --json` prints it. */
export interface SearchHit {
  path: string;
  object: string;
  kind: string;
  view: string;
  startLine: number;
  endLine: number;
  score: number;
  objectId: string;
  fiber: string;
}

/**
 * Ranked views for a query (BM25 unless another retriever is given): the engine behind `allot search` and `POST /v1/search`.
 * @example search(db, 'parse config', 20)[0] // { path: 'pkg/config.py', object: 'parse_config', view: 'signature', ... }
 */
export function search(db: DB, query: string, k = 20, retriever: Retriever = bm25Retriever(db)): SearchHit[] {
  return retriever
    .retrieve(query, k)
    .map((c) => ({
      path: c.path,
      object: c.objectName,
      kind: c.objectKind,
      view: c.viewKind,
      startLine: c.startLine,
      endLine: c.endLine,
      score: Math.round(c.score * 1e4) / 1e4,
      objectId: c.objectId,
      fiber: c.fiber,
    }));
}
