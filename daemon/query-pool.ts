/**
 * The main thread's handle on the query threads (`query-worker.ts`): each has
 * its own read connection, so queries run side by side and never wait for the
 * main thread, for each other (beyond the number of threads) or for the writer.
 * A call goes to the thread a session is bound to (what a session was sent
 * lives in that thread), else to the least busy one. A thread that dies fails
 * the calls it was running and is replaced on the next call.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { ArbitrateError } from '../allocator/arbitrate/types.ts';
import { RetrievalError } from '../indexer/retrieve/select.ts';
import { StoreError } from '../indexer/store/open.ts';
import { workerBoot } from '../indexer/worker-boot.ts';
import type { AnswerState, QueryEngine } from './queries.ts';
import { QueryError } from './query-error.ts';
import type { QueryMessage, QueryMethod, QueryRequest, QueryWorkerInit, ThrownError } from './query-worker.ts';

const WORKER_BOOT = workerBoot(import.meta.url, './query-worker');

/** Threads by default: one per core, at least two (one long query never holds up the rest), at most four. */
export function defaultQueryThreads(): number {
  return Math.max(2, Math.min(4, os.availableParallelism()));
}

export interface Answered<T> {
  value: T;
  /** The index state when the call started and when it ended (see `answerState`). */
  before: AnswerState;
  after: AnswerState;
}

export interface QueryPool {
  readonly size: number;
  /** Starts every thread and waits until each has opened the index (rejects with the store's message). */
  start(): Promise<void>;
  /** `session`: the thread bound to it; `affinity`: preferably the thread of earlier calls with the same value. */
  call<M extends QueryMethod>(method: M, args: Parameters<QueryEngine[M]>, opts?: { session?: string; affinity?: string }): Promise<Answered<Awaited<ReturnType<QueryEngine[M]>>>>;
  /** Runs a method on every live thread (e.g. `follow` after a batch); failures are ignored. */
  broadcast(method: QueryMethod): Promise<void>;
  close(): Promise<void>;
}

/** Errors the API maps to a status by class, rebuilt on this side of the thread boundary. */
function rebuilt(e: ThrownError): Error {
  const err =
    e.name === 'RetrievalError' ? new RetrievalError(e.message) :
    e.name === 'ArbitrateError' ? new ArbitrateError(e.message) :
    e.name === 'StoreError' ? new StoreError(e.message, (e.code ?? 'io') as StoreError['code']) :
    e.name === 'QueryError' ? new QueryError((e.code ?? 'invalid-request') as QueryError['code'], e.message) :
    // SQLite's own errors keep their code: the API tells a damaged index (503) from a bug (500) by it.
    Object.assign(new Error(e.message), { name: e.name, ...(e.code ? { code: e.code } : {}) });
  return err;
}

interface Thread {
  worker: Worker | null;
  ready: Promise<void> | null;
  pending: Map<number, { resolve: (m: Extract<QueryMessage, { type: 'result' }>) => void; reject: (e: Error) => void }>;
  closed: (() => void) | null;
}

/** FNV-1a: a stable thread for a session id. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

export function createQueryPool(init: QueryWorkerInit, size = defaultQueryThreads()): QueryPool {
  const threads: Thread[] = Array.from({ length: Math.max(1, size) }, () => ({ worker: null, ready: null, pending: new Map(), closed: null }));
  let nextId = 0;
  let closing = false;

  const spawn = (t: Thread): Promise<void> => {
    const w = new Worker(WORKER_BOOT, { eval: true, workerData: init satisfies QueryWorkerInit });
    t.worker = w;
    return new Promise<void>((resolve, reject) => {
      let ready = false;
      w.on('message', (m: QueryMessage) => {
        if (m.type === 'ready') {
          ready = true;
          resolve();
        } else if (m.type === 'fatal') reject(new StoreError(m.message, 'io'));
        else if (m.type === 'result' || m.type === 'error') {
          const p = t.pending.get(m.id);
          t.pending.delete(m.id);
          if (m.type === 'result') p?.resolve(m);
          else p?.reject(rebuilt(m.error));
        } else if (m.type === 'closed') t.closed?.();
      });
      const died = (why: string) => {
        if (t.worker === w) {
          t.worker = null;
          t.ready = null;
        }
        if (!ready) reject(new Error(`query thread failed to start: ${why}`));
        for (const p of t.pending.values()) p.reject(new Error(`query thread died: ${why}`));
        t.pending.clear();
        t.closed?.();
      };
      w.on('error', (err) => died(err.message));
      w.on('exit', (code) => died(`exit code ${code}`));
    });
  };
  const ensure = (t: Thread) => (t.ready ??= spawn(t));

  const pick = (session?: string, affinity?: string): Thread => {
    if (session !== undefined) return threads[hash(session) % threads.length];
    let best = threads[0];
    for (const t of threads) if (t.pending.size < best.pending.size) best = t;
    // A query goes to the thread that answered it before (which keeps what it computed) unless that one is busier.
    const own = affinity === undefined ? best : threads[hash(affinity) % threads.length];
    return own.pending.size <= best.pending.size + 1 ? own : best;
  };

  const send = async (t: Thread, method: QueryMethod, args: unknown[]) => {
    if (closing) throw new Error('the daemon is stopping');
    await ensure(t);
    const id = nextId++;
    return new Promise<Extract<QueryMessage, { type: 'result' }>>((resolve, reject) => {
      t.pending.set(id, { resolve, reject });
      t.worker!.postMessage({ type: 'call', id, method, args } satisfies QueryRequest);
    });
  };

  return {
    size: threads.length,
    async start() {
      await Promise.all(threads.map(ensure));
    },
    async call(method, args, opts = {}) {
      const m = await send(pick(opts.session, opts.affinity), method, args);
      return { value: m.value as never, before: m.before, after: m.after };
    },
    async broadcast(method) {
      await Promise.all(threads.filter((t) => t.worker).map((t) => send(t, method, []).catch(() => {})));
    },
    async close() {
      closing = true;
      await Promise.all(
        threads.map(async (t) => {
          await t.ready?.catch(() => {});
          const w = t.worker;
          if (!w) return;
          await new Promise<void>((resolve) => {
            t.closed = resolve;
            w.postMessage({ type: 'close' } satisfies QueryRequest);
            // A thread stuck in a long query would hold shutdown: its connection is read-only, so ending it is safe.
            setTimeout(() => void w.terminate().then(() => resolve()), 5000).unref();
          });
          t.worker = null;
        }),
      );
    },
  };
}
