/**
 * Worker-thread entry of a query thread: its own read connection and query
 * engine (so its own structure, memoised texts and tokenizer), answering the
 * main thread's calls. Several such threads answer at once, and none of them
 * waits for the main thread, which only routes requests and serves repeated
 * answers from memory.
 *
 * Messages in: `call` (a QueryEngine method and its arguments), `close`.
 * Messages out: `ready` | `fatal` once, then per call `result` (with the index
 * state before and after it) or `error`, and `closed` after `close`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openStore } from '../indexer/store/open.ts';
import { idleCollector } from './idle-gc.ts';
import { answerState, createQueryEngine, type AnswerState, type QueryEngine } from './queries.ts';

export interface QueryWorkerInit {
  repo: string;
  db: string;
}

export type QueryMethod = keyof QueryEngine;
export type QueryRequest = { type: 'call'; id: number; method: QueryMethod; args: unknown[] } | { type: 'close' };
export interface ThrownError {
  name: string;
  message: string;
  code?: string;
}
export type QueryMessage =
  | { type: 'ready' }
  | { type: 'fatal'; message: string }
  | { type: 'result'; id: number; value: unknown; before: AnswerState; after: AnswerState }
  | { type: 'error'; id: number; error: ThrownError }
  | { type: 'closed' };

const port = parentPort!;
const init = workerData as QueryWorkerInit;
const post = (m: QueryMessage) => port.postMessage(m);

try {
  const db = openStore(init.db, { readonly: true });
  const engine = createQueryEngine(db, init.repo, { answerCache: false });
  // Each thread has its own heap: give back what a burst of answers grew once queries stop.
  const idle = idleCollector();
  port.on('message', async (m: QueryRequest) => {
    if (m.type === 'close') {
      idle.stop();
      db.close();
      post({ type: 'closed' });
      port.close();
      return;
    }
    idle.touch();
    try {
      const before = answerState(db);
      const value = await (engine[m.method] as (...a: unknown[]) => unknown)(...m.args);
      post({ type: 'result', id: m.id, value, before, after: answerState(db) });
    } catch (err) {
      const e = err as Error & { code?: unknown };
      post({ type: 'error', id: m.id, error: { name: e.name ?? 'Error', message: e.message ?? String(err), ...(typeof e.code === 'string' ? { code: e.code } : {}) } });
    }
  });
  post({ type: 'ready' });
} catch (err) {
  post({ type: 'fatal', message: (err as Error).message });
}
