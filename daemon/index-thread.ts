/**
 * The main thread's handle on the index worker (`index-worker.ts`): runs one
 * job at a time and reports its progress. A worker that dies (a crash in a
 * parser, out of memory) fails the job it was running and is replaced on the
 * next job; the database stays consistent because every write is a
 * transaction.
 */
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { IndexProgress } from '../indexer/index-repository.ts';
import type { JobResult, WorkerInit, WorkerMessage, WorkerRequest } from './index-worker.ts';
import type { IndexJob } from './queue.ts';
import { StoreError } from '../indexer/store/open.ts';
import { workerBoot } from '../indexer/worker-boot.ts';

const WORKER_BOOT = workerBoot(import.meta.url, './index-worker');

export type JobOutcome = { status: 'done'; result: JobResult } | { status: 'interrupted' } | { status: 'failed'; message: string; fault?: StoreError['code'] };

export interface IndexThread {
  /** Opens the writer connection; rejects with the store's message (foreign, newer, corrupt index). */
  start(): Promise<void>;
  run(job: IndexJob, onProgress: (p: IndexProgress) => void): Promise<JobOutcome>;
  /** Asks the running job to stop after its current batch of files. */
  requestStop(): void;
  /**
   * Replaces the worker with a fresh one (between jobs). A full run leaves
   * the thread's heap grown to the whole repository's resolution pass, which
   * V8 keeps; a fresh thread gives it back. The next job waits for the new
   * thread, which boots in the background meanwhile.
   */
  recycle(): Promise<void>;
  /** Closes the writer connection and ends the thread. */
  close(): Promise<void>;
}

/** What the worker reports besides jobs: its background embedding pass. */
export interface IndexThreadHooks {
  onEmbedding?(m: Extract<WorkerMessage, { type: 'embedding' | 'embedding-failed' }>): void;
}

export function createIndexThread(init: Omit<WorkerInit, 'stop'>, hooks: IndexThreadHooks = {}): IndexThread {
  const stopFlag = new SharedArrayBuffer(4);
  let worker: Worker | null = null;
  let booting: Promise<void> | null = null;
  let job: { id: number; onProgress: (p: IndexProgress) => void; resolve: (o: JobOutcome) => void } | null = null;
  let closing: (() => void) | null = null;

  // Set once the first thread has created (or opened) the database: later threads must find that very file.
  let ino: number | undefined;
  const spawn = (): Promise<void> => {
    const w = new Worker(WORKER_BOOT, { eval: true, workerData: { ...init, ino, stop: stopFlag } satisfies WorkerInit });
    worker = w;
    return new Promise<void>((resolve, reject) => {
      let ready = false;
      w.on('message', (m: WorkerMessage) => {
        if (m.type === 'ready') {
          ready = true;
          try {
            ino ??= fs.statSync(init.db).ino;
          } catch {
            /* checked again by the next thread */
          }
          resolve();
        } else if (m.type === 'fatal') reject(m.fault ? new StoreError(m.message, m.fault) : new Error(m.message));
        else if (m.type === 'progress') {
          if (job?.id === m.id) job.onProgress(m.progress);
        } else if (m.type === 'done' || m.type === 'interrupted' || m.type === 'failed') {
          const j = job;
          job = null;
          if (!j) return;
          j.resolve(m.type === 'done' ? { status: 'done', result: m.result } : m.type === 'interrupted' ? { status: 'interrupted' } : { status: 'failed', message: m.message, fault: m.fault });
        } else if (m.type === 'embedding' || m.type === 'embedding-failed') hooks.onEmbedding?.(m);
        else if (m.type === 'closed') closing?.();
      });
      const died = (why: string) => {
        if (worker === w) {
          worker = null;
          booting = null;
        }
        if (!ready) reject(new Error(`index worker failed to start: ${why}`));
        const j = job;
        job = null;
        j?.resolve({ status: 'failed', message: `index worker died: ${why}` });
        closing?.();
      };
      w.on('error', (err) => died(err.message));
      w.on('exit', (code) => died(`exit code ${code}`));
    });
  };

  // `booting` is the one promise for "a worker is (or will be) ready": a dead worker clears it, so the next job spawns anew.
  const ensure = () => {
    if (!booting) booting = spawn();
    return booting;
  };

  /** Closes the current worker (its connection first) and waits for it to end. */
  const retire = async (w: Worker) => {
    await new Promise<void>((resolve) => {
      closing = resolve;
      w.postMessage({ type: 'close' } satisfies WorkerRequest);
      // A thread stuck in native code would hold shutdown forever; SQLite keeps the file consistent anyway.
      setTimeout(() => void w.terminate().then(() => resolve()), 15_000).unref();
    });
    closing = null;
    if (worker === w) worker = null;
  };

  return {
    start: ensure,
    async run(j, onProgress) {
      try {
        await ensure();
      } catch (err) {
        return { status: 'failed', message: (err as Error).message, fault: err instanceof StoreError ? err.code : undefined };
      }
      return new Promise<JobOutcome>((resolve) => {
        job = { id: j.id, onProgress, resolve };
        worker!.postMessage({ type: 'run', job: j } satisfies WorkerRequest);
      });
    },
    requestStop() {
      Atomics.store(new Int32Array(stopFlag), 0, 1);
    },
    recycle() {
      const old = worker;
      if (!old || job) return booting ?? Promise.resolve();
      // set at once, so a job arriving meanwhile waits for the new thread instead of spawning a second writer
      const next = retire(old).then(() => spawn());
      booting = next;
      next.catch(() => {});
      return next;
    },
    async close() {
      await booting?.catch(() => {});
      const w = worker;
      if (w) await retire(w);
      worker = null;
      booting = null;
    },
  };
}
