/**
 * The daemon's request queue, in the manner of a language server: index
 * writes are fences, queries have normal priority.
 *
 * - A fence is one index job. Jobs run one at a time, in submission order,
 *   each committing atomically per file batch in the single writer
 *   connection; work that arrives while a job runs is coalesced into the one
 *   pending job (a path changed twice is indexed once, a full run absorbs
 *   path lists), so a storm of changes never builds a backlog.
 * - Queries do not go through the fence line: they run at once on the read
 *   connection against the last committed state (SQLite WAL), so they are
 *   answered while a job runs and never see a half-written file.
 * - `whenCommitted(seq)` lets a caller wait for a fence (used to wait for the
 *   index to catch up: shutdown, tests, clients that just saved a file).
 */
import type { PendingWork } from './types.ts';

export interface IndexJob {
  /** The fence's sequence number. */
  id: number;
  /** Whole-repository incremental run (start-up, ignore rules changed, storms, recovery). */
  full: boolean;
  paths: string[];
  dirs: string[];
}

export interface Work {
  full?: boolean;
  paths?: Iterable<string>;
  dirs?: Iterable<string>;
}

export interface QueueOptions {
  run: (job: IndexJob) => Promise<void>;
  /** Called when `run` throws; the queue goes on with the next fence. */
  onError?: (job: IndexJob, err: unknown) => void;
  /** A pending job with more paths than this becomes a full run: one walk beats thousands of lookups, and it also catches events the OS dropped. */
  fullThreshold?: number;
}

export interface IndexQueue {
  /** Adds work to the pending fence; returns that fence's sequence number. */
  submit(work: Work): number;
  running(): IndexJob | null;
  pending(): PendingWork;
  /** The highest fence finished (committed, or failed and handed to the caller's error handling). */
  committed(): number;
  whenCommitted(seq: number): Promise<void>;
  /** Resolves when nothing runs and nothing is pending. */
  idle(): Promise<void>;
  /** Starts no further job and waits for the running one. */
  close(): Promise<void>;
}

export const DEFAULT_FULL_THRESHOLD = 500;

export function createIndexQueue(opts: QueueOptions): IndexQueue {
  const threshold = opts.fullThreshold ?? DEFAULT_FULL_THRESHOLD;
  let nextId = 1;
  let pending: { id: number; full: boolean; paths: Set<string>; dirs: Set<string> } | null = null;
  let current: IndexJob | null = null;
  let done = 0;
  let closed = false;
  let loop: Promise<void> | null = null;
  const waiters: { seq: number; resolve: () => void }[] = [];
  const idleWaiters: (() => void)[] = [];

  const notify = () => {
    for (let i = waiters.length - 1; i >= 0; i--) {
      if (waiters[i].seq <= done) waiters.splice(i, 1)[0].resolve();
    }
    if (!current && (!pending || closed)) idleWaiters.splice(0).forEach((r) => r());
  };

  const drain = async () => {
    while (pending && !closed) {
      const p = pending;
      pending = null;
      current = { id: p.id, full: p.full, paths: p.full ? [] : [...p.paths].sort(), dirs: p.full ? [] : [...p.dirs].sort() };
      try {
        await opts.run(current);
      } catch (err) {
        opts.onError?.(current, err);
      } finally {
        done = current.id;
        current = null;
        notify();
      }
    }
    loop = null;
    notify();
  };

  return {
    submit(work) {
      if (!pending) pending = { id: nextId++, full: false, paths: new Set(), dirs: new Set() };
      if (work.full) pending.full = true;
      if (!pending.full) {
        for (const p of work.paths ?? []) pending.paths.add(p);
        for (const d of work.dirs ?? []) pending.dirs.add(d);
        if (pending.paths.size + pending.dirs.size > threshold) pending.full = true;
      }
      if (pending.full) {
        pending.paths.clear();
        pending.dirs.clear();
      }
      const id = pending.id;
      if (!loop && !closed) loop = drain();
      return id;
    },
    running: () => current,
    pending: () => ({ paths: pending ? pending.paths.size + pending.dirs.size : 0, full: pending?.full ?? false }),
    committed: () => done,
    whenCommitted(seq) {
      if (seq <= done) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ seq, resolve }));
    },
    idle() {
      if (!current && (!pending || closed)) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    async close() {
      closed = true;
      await loop;
      waiters.splice(0).forEach((w) => w.resolve());
      notify();
    },
  };
}
