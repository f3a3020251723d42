import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { extractFile, type FileOutcome } from './extract/extract-file.ts';
import { getTokenizer, type TokenizerName } from './tokenizer.ts';

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
  extract(req: Omit<ParseRequest, 'id'>): Promise<FileOutcome>;
  close(): Promise<void>;
}

/** Workers register tsx themselves, then load the TypeScript entry, whatever started the main thread. */
const WORKER_BOOT = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))})
  .then((tsx) => { tsx.register(); return import(${JSON.stringify(new URL('./parse-worker.ts', import.meta.url).href)}); })`;

export function defaultWorkerCount(): number {
  return Math.max(1, Math.min(4, os.availableParallelism()));
}

export function createParsePool(workers = defaultWorkerCount()): ParsePool {
  if (workers <= 0) {
    return {
      extract: (req) => extractFile(req.root, req.path, getTokenizer(req.tokenizer), req),
      close: async () => {},
    };
  }
  let nextId = 0;
  const pending = new Map<number, { resolve: (o: FileOutcome) => void; reject: (e: Error) => void; worker: Worker }>();
  const load = new Map<Worker, number>();
  const threads = Array.from({ length: workers }, () => {
    const w = new Worker(WORKER_BOOT, { eval: true });
    load.set(w, 0);
    w.on('message', (msg: { id: number; outcome: FileOutcome }) => {
      const p = pending.get(msg.id);
      if (!p) return;
      pending.delete(msg.id);
      load.set(w, load.get(w)! - 1);
      p.resolve(msg.outcome);
    });
    w.on('error', (err) => {
      for (const [id, p] of pending) if (p.worker === w) { pending.delete(id); p.reject(err); }
    });
    return w;
  });
  return {
    extract(req) {
      const worker = threads.reduce((a, b) => (load.get(b)! < load.get(a)! ? b : a));
      load.set(worker, load.get(worker)! + 1);
      const id = nextId++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject, worker });
        worker.postMessage({ ...req, id });
      });
    },
    async close() {
      await Promise.all(threads.map((t) => t.terminate()));
    },
  };
}
