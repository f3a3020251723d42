/**
 * Debouncing and batching of file changes. A batch is emitted once no change
 * has arrived for `quietMs`, but never later than `maxWaitMs` after its first
 * change, so a file rewritten non-stop cannot starve the index. A batch that
 * has grown past `storm.events` events is a storm (`git checkout`, a
 * formatter, a build): it waits for a longer quiet (`storm.quietMs`, up to
 * `storm.maxWaitMs`) so a checkout that stalls for a moment on a busy machine
 * is still absorbed as one batch, while a single save stays fast. While
 * `busy()` says a tool is still rewriting the tree (git holds its index lock),
 * a due batch waits another quiet period, up to `busyMaxMs` after its first
 * change (a lock left by a crashed git must not stop the index for good).
 * Pure apart from the timers and `busy`, which are injectable for tests.
 */

/** A change the watcher saw, with a repo-relative path. */
export interface Change {
  path: string;
  event: 'add' | 'change' | 'unlink' | 'addDir' | 'unlinkDir';
}

/** What one batch asks the indexer to look at. */
export interface Batch {
  /** Files added, changed or removed. */
  paths: string[];
  /** Folders added or removed: everything indexed or on disk below them is re-checked. */
  dirs: string[];
  /** Ignore rules changed (or events may have been lost): re-discover the whole tree. */
  full: boolean;
  /** Raw events folded into the batch. */
  events: number;
}

export interface Timers {
  now(): number;
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

export const realTimers: Timers = {
  now: () => performance.now(),
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (h) => clearTimeout(h as NodeJS.Timeout),
};

export interface StormOptions {
  events: number;
  quietMs: number;
  maxWaitMs: number;
}

// A checkout on a busy machine pauses between files for hundreds of ms: a storm waits for a full second of quiet.
export const DEFAULT_STORM: StormOptions = { events: 100, quietMs: 1000, maxWaitMs: 10_000 };

export interface BatcherOptions {
  quietMs: number;
  maxWaitMs: number;
  storm?: StormOptions;
  onBatch: (batch: Batch) => void;
  timers?: Timers;
  /** A tool is rewriting the tree now (see git-busy.ts): a due batch waits. */
  busy?: () => boolean;
  /** The longest a batch waits for `busy` after its first change. */
  busyMaxMs?: number;
}

/** A stale lock (git killed mid-checkout) delays the index by at most this. */
export const DEFAULT_BUSY_MAX_MS = 60_000;

export interface Batcher {
  add(change: Change): void;
  /** Asks for a full re-discovery in the next batch. */
  requestFull(): void;
  /** Emits what is pending now (no-op when nothing is). */
  flush(): void;
  /** Distinct paths and folders waiting. */
  size(): number;
  /** Drops pending work and timers. */
  close(): void;
}

export function createBatcher(opts: BatcherOptions): Batcher {
  const timers = opts.timers ?? realTimers;
  const storm = opts.storm ?? DEFAULT_STORM;
  let paths = new Set<string>();
  let dirs = new Set<string>();
  let full = false;
  let events = 0;
  let firstAt = 0;
  let timer: unknown = null;
  let closed = false;

  const empty = () => !paths.size && !dirs.size && !full;
  const flush = () => {
    if (timer !== null) timers.clear(timer);
    timer = null;
    if (empty()) return;
    const batch: Batch = { paths: [...paths].sort(), dirs: [...dirs].sort(), full, events };
    paths = new Set();
    dirs = new Set();
    full = false;
    events = 0;
    opts.onBatch(batch);
  };
  const schedule = () => {
    const now = timers.now();
    if (timer === null) firstAt = now;
    if (timer !== null) timers.clear(timer);
    const [quiet, maxWait] = events >= storm.events ? [storm.quietMs, storm.maxWaitMs] : [opts.quietMs, opts.maxWaitMs];
    const wait = Math.max(0, Math.min(quiet, firstAt + maxWait - now));
    timer = timers.set(due, wait);
  };
  // A batch whose time has come, unless the tree is still being rewritten.
  const due = () => {
    if (opts.busy && timers.now() - firstAt < (opts.busyMaxMs ?? DEFAULT_BUSY_MAX_MS) && opts.busy()) {
      timer = timers.set(due, storm.quietMs);
      return;
    }
    flush();
  };

  return {
    add(change) {
      if (closed) return;
      schedule();
      events++;
      if (change.event === 'addDir' || change.event === 'unlinkDir') dirs.add(change.path);
      else paths.add(change.path);
    },
    requestFull() {
      if (closed) return;
      schedule();
      events++;
      full = true;
    },
    flush,
    size: () => paths.size + dirs.size,
    close() {
      closed = true;
      if (timer !== null) timers.clear(timer);
      timer = null;
      paths = new Set();
      dirs = new Set();
      full = false;
    },
  };
}
