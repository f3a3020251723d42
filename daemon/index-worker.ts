/**
 * Worker-thread entry of the daemon's writer: owns the one read-write
 * connection and runs index jobs with `indexRepository`. Indexing (parsing,
 * and the synchronous resolution pass) lives on this thread so the main
 * thread stays free to answer queries while a job runs.
 *
 * Messages in: `run` (a job), `close`. Messages out: `ready` | `fatal` once,
 * then per job `progress`* and one of `done` | `interrupted` | `failed`, and
 * `closed` after `close`. A shared flag asks the running job to stop after its
 * current batch (SIGTERM): what was written stays consistent.
 */
import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { discoverFiles } from '../indexer/discover.ts';
import { DEFAULT_MAX_FILE_BYTES } from '../indexer/extract/extract-file.ts';
import { IndexInterrupted, indexRepository, type IndexProgress } from '../indexer/index-repository.ts';
import { loadLanguage } from '../indexer/languages/registry.ts';
import { LARGE_FILE_BYTES } from '../indexer/parse-pool.ts';
import { resumeEmbedding } from '../indexer/embed/run.ts';
import { activeDenseModel } from '../indexer/store/embeddings.ts';
import { closeStore, openStore, sqliteFault, storeFault, StoreError, type DB } from '../indexer/store/open.ts';
import { warmResolver } from '../indexer/store/resolution.ts';
import type { StoreCounts } from '../indexer/store/read.ts';
import { CODE_LANGUAGES, type CodeLanguage, type IndexSummary } from '../indexer/types.ts';
import type { IndexJob } from './queue.ts';
import { lowerThreadPriority } from './thread-priority.ts';

export interface WorkerInit {
  repo: string;
  db: string;
  /**
   * The database file's inode once it exists: a replacement thread opens that
   * file or nothing. Without it, a thread started after the repository was
   * deleted would create a new, empty index behind the read connection's back.
   */
  ino?: number;
  /** Int32Array over a SharedArrayBuffer: [0] = 1 asks the running job to stop. */
  stop: SharedArrayBuffer;
  maxFileBytes?: number;
}

export interface JobResult {
  id: number;
  full: boolean;
  /** The paths the job covered after expanding folder events (empty for full runs). */
  paths: string[];
  parsed: number;
  /** Files restored from the extraction cache instead of parsed. */
  restored: number;
  removed: number;
  problems: number;
  seconds: number;
  /** Seconds per phase, as the indexer reports them (the new text is visible once `write` is done; `resolve` comes after). */
  phases: { discover: number; parse: number; write: number; resolve: number };
  /** What the index holds after the job, counted by this thread (so the main thread never scans the tables itself). */
  counts: StoreCounts;
  cache: IndexSummary['cache'];
  /** This thread's committed JavaScript heap after the job, in MB (the service replaces a thread that grew too much). */
  heapMb: number;
  /** The heap this thread held once it had built its resolver ahead of jobs, in MB (0: not built ahead): what it keeps on purpose. */
  baseHeapMb: number;
}

export type WorkerRequest = { type: 'run'; job: IndexJob; workers?: number } | { type: 'close' };
export type WorkerMessage =
  | { type: 'ready' }
  /** `fault`: the store's classification (StoreError code) when the index itself is at fault. */
  | { type: 'fatal'; message: string; fault?: StoreError['code'] }
  | { type: 'progress'; id: number; progress: IndexProgress }
  | { type: 'done'; result: JobResult }
  | { type: 'interrupted'; id: number }
  | { type: 'failed'; id: number; message: string; fault?: StoreError['code'] }
  /** Background embedding of new objects with the index's dense model (between jobs). */
  | { type: 'embedding'; model: string; done: number; total: number; finished: boolean }
  | { type: 'embedding-failed'; message: string }
  | { type: 'closed' };

/** Batches this small parse on this thread: starting parser threads would cost more than the parse. */
export const IN_THREAD_MAX_PATHS = 32;
/** Full runs over repositories this small parse on this thread too. */
export const IN_THREAD_MAX_FILES = 200;
/** The writer thread's nice value: about a tenth of a query thread's share of a busy core. */
export const WRITER_NICE = 10;
/** Progress is posted at most this often (plus every phase change). */
const PROGRESS_EVERY_MS = 100;

const init = workerData as WorkerInit;
const stop = new Int32Array(init.stop);
const port = parentPort!;
const post = (m: WorkerMessage) => port.postMessage(m);
/** The background embedding pass, while one runs, and the flag asking it to yield. */
let embedding: Promise<void> | null = null;
let yieldEmbedding = false;
/** A job or the embedding pass failed: the index is not recorded as cleanly closed, so the next open checks it. */
let failed = false;

let db: DB;
let baseHeapMb = 0;
try {
  if (init.ino !== undefined) {
    let ino: number | null = null;
    try {
      ino = fs.statSync(init.db).ino;
    } catch {
      /* gone */
    }
    if (ino !== init.ino) throw new Error(`the index ${init.db} ${ino === null ? 'no longer exists' : 'was replaced by another file'}`);
  }
  // The first thread checks the index (quick_check); a replacement thread opens the file its predecessor checked.
  db = openStore(init.db, { quickCheck: init.ino === undefined });
  // Queries first (issue 17 item 10): a batch (seconds of resolution after one saved file on SymPy) gets the CPU
  // the query threads leave, not theirs; with nothing to answer it runs at full speed. Parser threads inherit it.
  lowerThreadPriority(WRITER_NICE);
  post({ type: 'ready' });
  // A replacement thread builds the resolver its passes keep now, while the daemon is quiet (see warmResolver).
  if (init.ino !== undefined) baseHeapMb = buildResolverAhead();
  warmUp();
  embedInBackground();
} catch (err) {
  const fault = storeFault(init.db, err);
  post({ type: 'fatal', message: (fault ?? (err as Error)).message, fault: fault?.code });
  port.close();
}

/** The resolver built ahead of the first pass; the heap after it in MB (0 if it could not be built: the pass builds it then). */
function buildResolverAhead(): number {
  try {
    warmResolver(db);
    return v8.getHeapStatistics().total_heap_size / 2 ** 20;
  } catch {
    return 0;
  }
}

/**
 * Loads the grammars of the languages the index holds, in the background, so
 * the first small batch after start-up (parsed on this thread) does not pay
 * for it: that is the latency a person saving a file sees.
 */
function warmUp(): void {
  const present = db.prepare('SELECT DISTINCT language FROM files').pluck().all() as string[];
  for (const lang of present) {
    if ((CODE_LANGUAGES as readonly string[]).includes(lang)) loadLanguage(lang as CodeLanguage).catch(() => {});
  }
}

/** A file this large is never parsed on this long-lived thread (see below). */
function isLarge(rel: string): boolean {
  try {
    return fs.statSync(path.join(init.repo, rel)).size >= LARGE_FILE_BYTES;
  } catch {
    return false;
  }
}

/**
 * How many parser threads a job gets: none for small batches and small
 * repositories. But tree-sitter's WebAssembly heap grows to the largest tree a
 * thread parses and never shrinks, so a batch holding a large file goes to one
 * parser thread, which the pool retires after the job, rather than leave this
 * thread hundreds of MB larger for good.
 */
function workersFor(paths: string[] | undefined): number | undefined {
  if (paths) {
    if (paths.length > IN_THREAD_MAX_PATHS) return undefined;
    return paths.some(isLarge) ? 1 : 0;
  }
  const files = discoverFiles(init.repo, { maxFileBytes: init.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES }).files.length;
  return files <= IN_THREAD_MAX_FILES ? 0 : undefined;
}

/** Indexed paths under a folder (`dir/...`). */
function indexedUnder(dir: string): string[] {
  return (db.prepare('SELECT path FROM files WHERE path > ? AND path < ?').pluck().all(`${dir}/`, `${dir}0`) as string[]);
}

/** A folder event stands for every file below it, indexed before or present now. */
function expand(job: IndexJob): string[] {
  const paths = new Set(job.paths);
  if (job.dirs.length) {
    const onDisk = discoverFiles(init.repo, { maxFileBytes: init.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES }).files;
    for (const dir of job.dirs) {
      for (const p of indexedUnder(dir)) paths.add(p);
      for (const p of onDisk) if (p.startsWith(`${dir}/`)) paths.add(p);
    }
  }
  return [...paths].sort();
}

async function run(job: IndexJob, workers: number | undefined): Promise<void> {
  const started = performance.now();
  let last = 0;
  let lastPhase = '';
  try {
    const paths = job.full ? undefined : expand(job);
    const summary = await indexRepository({
      repo: init.repo,
      db,
      paths,
      maxFileBytes: init.maxFileBytes,
      workers: workers ?? workersFor(paths),
      shouldStop: () => Atomics.load(stop, 0) === 1,
      onProgress: (progress) => {
        const now = performance.now();
        if (progress.phase === lastPhase && now - last < PROGRESS_EVERY_MS) return;
        last = now;
        lastPhase = progress.phase;
        post({ type: 'progress', id: job.id, progress });
      },
    });
    if (job.full) warmUp();
    // A tree copied back from its snapshot left the resolver this thread keeps between batches on the old tree:
    // built again now, within the switch, so the next near switch resolves only what it changes.
    if (summary.trees?.restored) warmResolver(db);
    post({
      type: 'done',
      result: {
        id: job.id, full: job.full, paths: paths ?? [], parsed: summary.parsed, restored: summary.restored, removed: summary.removed,
        problems: summary.problems.length, seconds: (performance.now() - started) / 1000, phases: summary.phases,
        counts: { files: summary.files, filesByLanguage: summary.filesByLanguage, textByExtension: summary.textByExtension, objects: summary.objects, views: summary.views, references: summary.references, resolvedReferences: summary.resolvedReferences },
        cache: summary.cache,
        heapMb: v8.getHeapStatistics().total_heap_size / 2 ** 20, baseHeapMb,
      },
    });
  } catch (err) {
    if (err instanceof IndexInterrupted) post({ type: 'interrupted', id: job.id });
    else {
      failed = true;
      // SQLite's faults (a damaged, full or read-only index) in the index's words; the service decides what they mean
      const fault = sqliteFault(init.db, err);
      post({ type: 'failed', id: job.id, message: (fault ?? (err as Error)).message, fault: fault?.code });
    }
  }
}

/**
 * Embeds new and changed objects with the index's dense model, after the
 * job that wrote them, at the lowest priority: an index job (a fence) or
 * `close` makes it stop after its current small batch, and it resumes after
 * the job. Queries never wait for it: they run on the main thread's reader.
 */
function embedInBackground(): void {
  if (embedding || !db || !activeDenseModel(db)) return;
  yieldEmbedding = false;
  let last = 0;
  embedding = resumeEmbedding(db, {
    shouldStop: () => yieldEmbedding || Atomics.load(stop, 0) === 1,
    onProgress: (p) => {
      const now = performance.now();
      if (p.phase !== 'embed' || (now - last < 500 && p.done !== p.total)) return;
      last = now;
      post({ type: 'embedding', model: activeDenseModel(db) ?? '', done: p.done, total: p.total, finished: false });
    },
  })
    .then((summary) => {
      if (summary) post({ type: 'embedding', model: summary.model, done: summary.embedded, total: summary.embedded, finished: !yieldEmbedding });
    })
    .catch((err: Error) => {
      failed = true;
      post({ type: 'embedding-failed', message: err.message });
    })
    .finally(() => {
      embedding = null;
    });
}

port.on('message', (req: WorkerRequest) => {
  yieldEmbedding = true;
  const after = embedding ?? Promise.resolve();
  if (req.type === 'run') {
    void after.then(async () => {
      await run(req.job, req.workers);
      embedInBackground();
    });
  } else if (req.type === 'close') {
    void after.then(() => {
      try {
        if (db) closeStore(db, { clean: !failed });
      } finally {
        post({ type: 'closed' });
        port.close();
      }
    });
  }
});
