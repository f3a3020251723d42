/**
 * The main thread's handle on the index worker (`index-worker.ts`): runs one
 * job at a time and reports its progress. A worker that dies (a crash in a
 * parser, out of memory) fails the job it was running and is replaced on the
 * next job; the database stays consistent because every write is a
 * transaction.
 */
import { Worker } from 'node:worker_threads';
import type { IndexProgress } from '../indexer/index-repository.ts';
import type { JobResult, WorkerInit, WorkerMessage, WorkerRequest } from './index-worker.ts';
import type { IndexJob } from './queue.ts';

/** Workers register tsx themselves, then load the TypeScript entry, whatever started the main thread. */
const WORKER_BOOT = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
  .then((tsx) => { tsx.register(); return import(${JSON.stringify(new URL('./index-worker.ts', import.meta.url).href)}); })`;

export type JobOutcome = { status: 'done'; result: JobResult } | { status: 'interrupted' } | { status: 'failed'; message: string };

export interface IndexThread {
  /** Opens the writer connection; rejects with the store's message (foreign, newer, corrupt index). */
  start(): Promise<void>;
  run(job: IndexJob, onProgress: (p: IndexProgress) => void): Promise<JobOutcome>;
  /** Asks the running job to stop after its current batch of files. */
  requestStop(): void;
  /** Closes the writer connection and ends the thread. */
  close(): Promise<void>;
}

export function createIndexThread(init: Omit<WorkerInit, 'stop'>): IndexThread {
  const stopFlag = new SharedArrayBuffer(4);
  let worker: Worker | null = null;
  let booting: Promise<void> | null = null;
  let job: { id: number; onProgress: (p: IndexProgress) => void; resolve: (o: JobOutcome) => void } | null = null;
  let closing: (() => void) | null = null;

  const spawn = (): Promise<void> => {
    const w = new Worker(WORKER_BOOT, { eval: true, workerData: { ...init, stop: stopFlag } satisfies WorkerInit });
    worker = w;
    return new Promise<void>((resolve, reject) => {
      let ready = false;
      w.on('message', (m: WorkerMessage) => {
        if (m.type === 'ready') {
          ready = true;
          resolve();
        } else if (m.type === 'fatal') reject(new Error(m.message));
        else if (m.type === 'progress') {
          if (job?.id === m.id) job.onProgress(m.progress);
        } else if (m.type === 'done' || m.type === 'interrupted' || m.type === 'failed') {
          const j = job;
          job = null;
          if (!j) return;
          j.resolve(m.type === 'done' ? { status: 'done', result: m.result } : m.type === 'interrupted' ? { status: 'interrupted' } : { status: 'failed', message: m.message });
        } else if (m.type === 'closed') closing?.();
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

  const ensure = () => {
    if (!worker || !booting) booting = spawn();
    return booting;
  };

  return {
    start: ensure,
    async run(j, onProgress) {
      await ensure();
      return new Promise<JobOutcome>((resolve) => {
        job = { id: j.id, onProgress, resolve };
        worker!.postMessage({ type: 'run', job: j } satisfies WorkerRequest);
      });
    },
    requestStop() {
      Atomics.store(new Int32Array(stopFlag), 0, 1);
    },
    async close() {
      const w = worker;
      if (!w) return;
      await new Promise<void>((resolve) => {
        closing = resolve;
        w.postMessage({ type: 'close' } satisfies WorkerRequest);
        // A thread stuck in native code would hold shutdown forever; SQLite keeps the file consistent anyway.
        setTimeout(() => void w.terminate().then(() => resolve()), 15_000).unref();
      });
      worker = null;
      booting = null;
    },
  };
}
