import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { extractFile, extractRead, type DecodedFile, type FileOutcome } from './extract/extract-file.ts';
import { boundHeapGrowth } from './heap-growth.ts';
import { workerBoot } from './worker-boot.ts';

export interface ParseRequest {
  id: number;
  root: string;
  path: string;
  knownHash?: string;
  maxFileBytes: number;
  /** The file as the caller already read and decoded it: extracted as is, not read or decoded again. */
  content?: DecodedFile;
}

/** One request's extraction, on whichever thread runs it. */
export function extractRequest(req: Omit<ParseRequest, 'id'>): Promise<FileOutcome> {
  return req.content ? extractRead(req.content) : extractFile(req.root, req.path, req);
}

/** Extracts files on worker threads (or in-process when `workers` is 0). */
export interface ParsePool {
  /** Extracts one file; `large` files are taken one at a time, by the first worker. */
  extract(req: Omit<ParseRequest, 'id'>, large?: boolean): Promise<FileOutcome>;
  close(): Promise<void>;
}

/**
 * Files at least this large are parsed one at a time, all by the first worker: WebAssembly memory (tree-sitter's
 * heap) grows to the largest tree a worker parsed and never shrinks, so only that worker holds a big heap, and
 * the others stay small. (Replacing the worker after each large file bounded memory too, but a new worker costs
 * its start-up, about half a CPU-second: SymPy's 18 large files cost a third of its cold index CPU.)
 */
export const LARGE_FILE_BYTES = 192 * 1024;

const WORKER_BOOT = workerBoot(import.meta.url, './parse-worker');

export function defaultWorkerCount(): number {
  return Math.max(1, Math.min(4, os.availableParallelism()));
}

interface Thread {
  worker: Worker;
  load: number;
}

export function createParsePool(workers = defaultWorkerCount()): ParsePool {
  const releaseHeap = boundHeapGrowth();
  if (workers <= 0) {
    return {
      extract: extractRequest,
      close: async () => releaseHeap(),
    };
  }
  let nextId = 0;
  const pending = new Map<number, { resolve: (o: FileOutcome) => void; reject: (e: Error) => void; thread: Thread }>();
  const threads: Thread[] = [];

  const spawn = (): Thread => {
    const thread: Thread = {
      // The first worker alone says when a native grammar falls back to wasm (registry.ts), not every worker.
      worker: new Worker(WORKER_BOOT, { eval: true, workerData: { reportsFallback: threads.length === 0 }, resourceLimits: { maxYoungGenerationSizeMb: 8 } }),
      load: 0,
    };
    thread.worker.on('message', (msg: { id: number; outcome: FileOutcome }) => {
      const p = pending.get(msg.id);
      if (!p) return;
      pending.delete(msg.id);
      thread.load--;
      p.resolve(msg.outcome);
    });
    thread.worker.on('error', (err) => {
      for (const [id, p] of pending) if (p.thread === thread) { pending.delete(id); p.reject(err); }
      thread.load = 0;
      replace(thread);
    });
    return thread;
  };
  const replace = (old: Thread) => {
    const i = threads.indexOf(old);
    if (i < 0) return;
    threads[i] = spawn();
    void old.worker.terminate();
  };
  const send = (req: Omit<ParseRequest, 'id'>, large: boolean): Promise<FileOutcome> => {
    // Workers start with the first file to parse: a run that finds nothing changed starts none.
    while (threads.length < workers) threads.push(spawn());
    const thread = large ? threads[0] : threads.reduce((a, b) => (b.load < a.load ? b : a));
    thread.load++;
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject, thread });
      thread.worker.postMessage({ ...req, id });
    });
  };
  let largeQueue: Promise<unknown> = Promise.resolve();
  return {
    extract(req, large = false) {
      if (!large) return send(req, false);
      const run = largeQueue.then(() => send(req, true));
      largeQueue = run.catch(() => undefined);
      return run;
    },
    async close() {
      await Promise.all(threads.map((t) => t.worker.terminate()));
      releaseHeap();
    },
  };
}
