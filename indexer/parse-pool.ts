import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { extractFile, type FileOutcome } from './extract/extract-file.ts';
import { getTokenizer, type TokenizerName } from './tokenizer.ts';
import { workerBoot } from './worker-boot.ts';

export interface ParseRequest {
  id: number;
  root: string;
  path: string;
  knownHash?: string;
  maxFileBytes: number;
  tokenizer: TokenizerName;
}

/** Extracts files on worker threads (or in-process when `workers` is 0). */
export interface ParsePool {
  /** Extracts one file; `large` files are taken one at a time and their worker is replaced afterwards. */
  extract(req: Omit<ParseRequest, 'id'>, large?: boolean): Promise<FileOutcome>;
  close(): Promise<void>;
}

/**
 * Files at least this large are parsed one at a time, and the worker that
 * parsed one is replaced once idle: WebAssembly memory (tree-sitter's heap)
 * grows to the largest tree and never shrinks, so two big trees at once, or a
 * worker keeping one, would double the peak.
 */
export const LARGE_FILE_BYTES = 192 * 1024;

const WORKER_BOOT = workerBoot(import.meta.url, './parse-worker');

export function defaultWorkerCount(): number {
  return Math.max(1, Math.min(4, os.availableParallelism()));
}

interface Thread {
  worker: Worker;
  load: number;
  retiring: boolean;
}

export function createParsePool(workers = defaultWorkerCount()): ParsePool {
  if (workers <= 0) {
    return {
      extract: (req) => extractFile(req.root, req.path, getTokenizer(req.tokenizer), req),
      close: async () => {},
    };
  }
  let nextId = 0;
  const pending = new Map<number, { resolve: (o: FileOutcome) => void; reject: (e: Error) => void; thread: Thread }>();
  const threads: Thread[] = [];

  const spawn = (): Thread => {
    const thread: Thread = {
      worker: new Worker(WORKER_BOOT, { eval: true, resourceLimits: { maxYoungGenerationSizeMb: 8 } }),
      load: 0,
      retiring: false,
    };
    thread.worker.on('message', (msg: { id: number; outcome: FileOutcome }) => {
      const p = pending.get(msg.id);
      if (!p) return;
      pending.delete(msg.id);
      thread.load--;
      if (msg.outcome.status === 'extracted' && msg.outcome.file.size >= LARGE_FILE_BYTES) thread.retiring = true;
      if (thread.retiring && thread.load === 0) replace(thread);
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
  for (let i = 0; i < workers; i++) threads.push(spawn());

  const send = (req: Omit<ParseRequest, 'id'>, large: boolean): Promise<FileOutcome> => {
    const open = threads.filter((t) => !t.retiring);
    const thread = (open.length ? open : threads).reduce((a, b) => (b.load < a.load ? b : a));
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
    },
  };
}
