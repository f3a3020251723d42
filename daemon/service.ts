/**
 * The daemon: composes the index worker (writer), the read connection and
 * query engine, the fence queue, the watcher with its batcher, and the HTTP
 * API, and owns their life cycle. It holds no ranking or budget logic.
 *
 * Start-up order matters: the lock first (one daemon per repository), then
 * the writer (migrations, a foreign database refused before anything is
 * served), the reader, the listener, `daemon.json` (clients may now connect),
 * and last the watcher plus a full incremental run that catches up with what
 * changed while no daemon was running. The watcher starts before that run
 * finishes, so nothing edited during the catch-up is missed: its changes
 * queue behind the catch-up fence.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { IndexProgress } from '../indexer/index-repository.ts';
import { isDamage, openStore, sqliteFault, StoreError, storeFault, type DB } from '../indexer/store/open.ts';
import { isUnwritable } from '../indexer/store/own-files.ts';
import { cacheStats } from '../indexer/store/extraction-cache.ts';
import { storeCounts } from '../indexer/store/read.ts';
import { createApi } from './api.ts';
import { createBatcher, type Batch, type Batcher } from './batcher.ts';
import { DAEMON_VERSION, DEFAULT_MAX_WAIT_MS, DEFAULT_QUIET_MS, MAX_BODY_BYTES, daemonPaths, escapeControl, newToken, writeDaemonInfo, type DaemonInfo } from './config.ts';
import { capPaths, createEventBus } from './events.ts';
import { gitBusy } from './git-busy.ts';
import { createIgnoreMatcher } from './ignore-rules.ts';
import { createIndexThread, type IndexThreadHooks, type JobOutcome } from './index-thread.ts';
import { acquirePidFile, releasePidFile } from './lifecycle.ts';
import { poolAnswers } from './answers.ts';
import type { Completeness } from './queries.ts';
import { createQueryPool, type QueryPool } from './query-pool.ts';
import { createIndexQueue, type IndexJob, type IndexQueue } from './queue.ts';
import { listen, type Listening } from './server.ts';
import { idleCollector } from './idle-gc.ts';
import {
  countQuery, denseFromStore, initialState, recordBatch, recordBuildProgress, recordComplete, recordEmbedding, recordEmbeddingFailure,
  recordError, recordFailure, snapshot,
} from './status.ts';
import { idleExit, type IdleExit } from './idle-exit.ts';
import { fullBuildDone } from '../indexer/store/full-build.ts';
import { activeDenseModel, countEmbedded } from '../indexer/store/embeddings.ts';
import type { DaemonStatus } from './types.ts';
import { watchRepository, type RepoWatcher } from './watcher.ts';

export interface ServeOptions {
  /** The repository (an existing folder; symlinks resolved by the caller). */
  repo: string;
  /** The index database file. */
  db: string;
  /** TCP port on 127.0.0.1; 0 or absent picks a free one. Ignored with `socket`. */
  port?: number;
  /** Listen on this Unix socket instead of TCP. */
  socket?: string;
  quietMs?: number;
  maxWaitMs?: number;
  /** Query threads (default: one per core, 2 to 4). */
  queryThreads?: number;
  log?: (line: string) => void;
  /**
   * The bearer token, when it must stay the same across restarts (`ALLOT_TOKEN`: a client configured once, such as
   * Continue's HTTP context provider); a fresh random one otherwise.
   */
  token?: string;
  /** Stop once no request has arrived for this long (`--idle-exit MINUTES`); `onIdleExit` is then called. */
  idleExitMs?: number;
  onIdleExit?: () => void;
}

export interface RunningDaemon {
  info: DaemonInfo;
  status(): DaemonStatus;
  /** Resolves when nothing is being indexed or waiting (tests, benchmarks). */
  idle(): Promise<void>;
  /** Graceful stop: the running batch ends after its current transaction, the database is closed, the pid file removed. */
  stop(reason?: string): Promise<void>;
}

/** Another daemon already serves this repository. */
export class DaemonRunning extends Error {
  constructor(readonly pid: number, repo: string) {
    super(`a daemon (pid ${pid}) is already running for ${repo}`);
    this.name = 'DaemonRunning';
  }
}

/** Why the daemon cannot keep its files in `.allot/` (unwritable, full, a link there), in one line. */
function ownDirFault(dir: string, err: unknown): Error {
  if (isUnwritable(err)) return new StoreError(`${dir} is not writable by you, so the daemon cannot keep its lock and log there (${(err as Error).message})`, 'readonly');
  return storeFault(dir, err) ?? (err as Error);
}

/** A writer thread whose heap grew past this (MB) is replaced once the daemon has been quiet for RECYCLE_IDLE_MS. */
const RECYCLE_HEAP_MB = 64;
const RECYCLE_IDLE_MS = 5000;

/** Retry delays after a failed batch (a vanished repository, a locked file...). */
const RETRY_MS = [500, 1000, 2000, 5000, 10_000, 30_000];

export async function startDaemon(opts: ServeOptions): Promise<RunningDaemon> {
  // Messages carry file names from the repository: control characters are escaped so none can forge a log line.
  const write = opts.log ?? ((line: string) => process.stderr.write(`${new Date().toISOString()} ${line}\n`));
  const log = (line: string) => write(escapeControl(line));
  const repo = opts.repo;
  if (!fs.existsSync(repo) || !fs.statSync(repo).isDirectory()) throw new Error(`not a directory: ${repo}`);
  const paths = daemonPaths(repo);
  let lock: ReturnType<typeof acquirePidFile>;
  try {
    lock = acquirePidFile(paths);
  } catch (err) {
    throw ownDirFault(paths.dir, err);
  }
  if (!lock.ok) throw new DaemonRunning(lock.pid, repo);
  const record = lock.record;

  const startedAt = new Date();
  // Everything below is created in order and torn down in the order of
  // shutdown(); a failure half-way through start-up tears down what exists.
  let thread: ReturnType<typeof createIndexThread> | null = null;
  let reader: DB | null = null;
  let pool: QueryPool | null = null;
  let server: Listening | null = null;
  let queue: IndexQueue | null = null;
  let batcher: Batcher | null = null;
  let watcher: RepoWatcher | null = null;
  let retryTimer: NodeJS.Timeout | null = null;
  let recycleTimer: NodeJS.Timeout | null = null;
  /** A full run scanned the tree while the watcher was not yet watching all of it (see `onReady`). */
  let scannedWhileStarting = false;
  let stopping = false;
  let stopIdle = () => {};
  const events = createEventBus();
  const step = async (what: string, fn: () => unknown) => {
    try {
      await fn();
    } catch (err) {
      log(`shutdown: ${what}: ${(err as Error).message}`);
    }
  };
  const shutdown = async () => {
    stopping = true;
    stopIdle();
    if (retryTimer) clearTimeout(retryTimer);
    if (recycleTimer) clearTimeout(recycleTimer);
    batcher?.close();
    await step('watcher', () => watcher?.close());
    watcher = null;
    // SIGTERM semantics: the running batch stops after its current transaction.
    thread?.requestStop();
    await step('queue', () => queue?.close());
    events.closeAll();
    await step('server', () => server?.close());
    // The readers first: the writer, closing last, checkpoints and removes the WAL.
    await step('query threads', () => pool?.close());
    await step('reader', () => reader?.close());
    await step('writer', () => thread?.close());
    releasePidFile(paths, record);
  };

  try {
    // Embedding progress arrives from the writer thread; `state` exists by the time the first report can.
    let onEmbedding: IndexThreadHooks['onEmbedding'] = () => {};
    thread = createIndexThread({ repo, db: opts.db }, { onEmbedding: (m) => onEmbedding?.(m) });
    await thread.start();
    reader = openStore(opts.db, { readonly: true });
    const db = reader;
    const writer = thread;
    // Queries run on threads of their own; the main thread routes them and serves repeated answers from memory.
    pool = createQueryPool({ repo, db: opts.db }, opts.queryThreads);
    await pool.start();
    const denseNow = () => {
      const model = activeDenseModel(db);
      return denseFromStore(model, model ? countEmbedded(db, model) : null);
    };
    // Complete only once a whole-repository run has finished on this index, whatever it holds.
    const state = initialState(storeCounts(db), denseNow(), fullBuildDone(db), cacheStats(db));
    // An index no whole-repository run has finished on answers 'index-building' (or, to a client that asks for
    // what is indexed so far, `complete: false` with the progress) until one does; a complete one answers
    // (slightly stale) while it catches up. The daemon's state is the one record of it.
    const completeness = (): Completeness =>
      state.indexing.complete ? { complete: true } : { complete: false, progress: state.indexing.build ?? { phase: 'starting', done: 0, total: 0 } };
    const queries = poolAnswers(pool, db, { repo, completeness });
    let embedStarted: { at: number; done: number } | null = null;
    onEmbedding = (m) => {
      if (m.type === 'embedding-failed') {
        recordEmbeddingFailure(state, m.message);
        log(`embedding failed: ${m.message}`);
        return;
      }
      if (m.finished || m.done === m.total) {
        embedStarted = null;
        state.dense = denseNow();
        if (m.done) log(`embedded ${m.done} object(s) with ${m.model}`);
        return;
      }
      embedStarted ??= { at: performance.now(), done: m.done };
      const seconds = (performance.now() - embedStarted.at) / 1000;
      recordEmbedding(state, m, seconds > 0 ? (m.done - embedStarted.done) / seconds : null);
    };
    let retries = 0;

    const fixed = { version: DAEMON_VERSION, pid: process.pid, nonce: record.nonce!, repo, db: opts.db, startedAt };
    const status = () => snapshot(state, fixed, pendingWork());

    /** The index is damaged: refuse queries (503), stop indexing and watching, and say so in status and the log. */
    const markFailed = (reason: string) => {
      if (!recordFailure(state, `${reason} (stop the daemon first: \`allot stop\`)`)) return;
      if (retryTimer) clearTimeout(retryTimer);
      retryTimer = null;
      events.publish({ type: 'error', message: state.health.reason! });
      log(`index failed: ${state.health.reason}`);
      void stopWatcher('stopped', 'the index is damaged');
    };

    const runJob = async (job: IndexJob) => {
      // Nothing more is written to a damaged index.
      if (state.health.state === 'failed') return;
      const started = performance.now();
      if (recycleTimer) clearTimeout(recycleTimer);
      recycleTimer = null;
      state.indexing.state = state.indexing.catchingUp ? 'catching-up' : 'indexing';
      state.indexing.progress = null;
      if (job.full && state.watcher.state === 'starting') scannedWhileStarting = true;
      events.publish({ type: 'batch', id: job.id, full: job.full, paths: job.paths.length + job.dirs.length });
      const outcome: JobOutcome = await writer.run(job, (p: IndexProgress) => {
        state.indexing.progress = p;
        if (job.full) recordBuildProgress(state, p);
        events.publish({ type: 'progress', id: job.id, progress: p });
      });
      state.indexing.progress = null;
      try {
        // A finished job brings the writer's counts: counting here (refs has a row per reference) blocked every
        // client for 15-40 ms after each batch on SymPy.
        state.counts = outcome.status === 'done' ? outcome.result.counts : storeCounts(db);
        state.cache = outcome.status === 'done' ? outcome.result.cache : cacheStats(db);
      } catch (err) {
        const fault = sqliteFault(opts.db, err);
        if (!fault || !isDamage(fault)) throw err;
        markFailed(fault.message);
        return;
      }
      if (outcome.status === 'failed' && outcome.fault && isDamage({ code: outcome.fault })) {
        markFailed(outcome.message);
        return;
      }
      const finishedAt = new Date().toISOString();
      if (outcome.status === 'done') {
        const r = outcome.result;
        const report = { id: job.id, full: job.full, paths: r.paths.length, parsed: r.parsed, restored: r.restored, removed: r.removed, seconds: r.seconds, finishedAt, error: null };
        recordBatch(state, report);
        retries = 0;
        if (job.full) state.indexing.catchingUp = false;
        if (!state.indexing.complete && fullBuildDone(db)) recordComplete(state);
        state.indexing.state = 'idle';
        events.publish({ type: 'indexed', report, ...capPaths(r.paths) });
        // The query threads bring their structures up to date now, not in the next query.
        if (r.parsed || r.restored || r.removed || job.full) {
          void queries.follow();
          const phases = Object.entries(r.phases).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ');
          log(`indexed ${job.full ? 'repository' : `${r.paths.length} path(s)`}: ${r.parsed} parsed, ${r.restored} restored, ${r.removed} removed in ${r.seconds.toFixed(2)} s (${phases}; writer heap ${r.heapMb.toFixed(0)} MB)`);
        }
        if (!watcher && !stopping) startWatcher();
        // A full run, or a resolution pass over a large repository, grows the writer thread's heap and V8 keeps
        // what it grew: a fresh thread gives it back, once the daemon has been quiet for a while, so a thread
        // booting (and building its resolver) never delays the next save, such as the few files after a checkout.
        if ((job.full || r.heapMb > RECYCLE_HEAP_MB + r.baseHeapMb) && !stopping) {
          recycleTimer = setTimeout(() => {
            recycleTimer = null;
            const quiet = !fences.running() && !fences.pending().paths && !fences.pending().full && !changes.size();
            if (!stopping && quiet) void writer.recycle();
          }, RECYCLE_IDLE_MS);
        }
        return;
      }
      if (outcome.status === 'interrupted') {
        state.indexing.state = 'idle';
        return;
      }
      const gone = !fs.existsSync(repo);
      const message = gone ? `the repository ${repo} no longer exists; serving the last index` : `indexing failed: ${outcome.message}`;
      recordBatch(state, { id: job.id, full: job.full, paths: job.paths.length, parsed: 0, restored: 0, removed: 0, seconds: (performance.now() - started) / 1000, finishedAt, error: message });
      recordError(state, message);
      state.indexing.state = 'failed';
      events.publish({ type: 'error', message });
      log(message);
      if (gone) await stopWatcher('stopped', message);
      // Nothing is lost: a later full incremental run covers whatever this batch was about.
      if (!stopping) {
        const delay = RETRY_MS[Math.min(retries++, RETRY_MS.length - 1)];
        retryTimer = setTimeout(() => {
          retryTimer = null;
          if (!stopping) queue?.submit({ full: true });
        }, delay);
      }
    };

    queue = createIndexQueue({
      run: runJob,
      onError: (_job, err) => {
        recordError(state, `index job: ${(err as Error).message}`);
        log(`index job: ${(err as Error).stack ?? err}`);
      },
    });
    const fences = queue;

    batcher = createBatcher({
      quietMs: opts.quietMs ?? DEFAULT_QUIET_MS,
      maxWaitMs: opts.maxWaitMs ?? DEFAULT_MAX_WAIT_MS,
      busy: () => gitBusy(repo),
      onBatch: (b: Batch) => {
        events.publish({ type: 'changes', ...capPaths([...b.dirs.map((d) => `${d}/`), ...b.paths]) });
        fences.submit(b);
      },
    });
    const changes = batcher;
    function pendingWork() {
      const q = fences.pending();
      return { paths: q.paths + changes.size(), full: q.full };
    }

    // The watcher: started now and restarted when ignore rules change (folders
    // it skipped may now count) or when a vanished repository comes back.
    const matcher = createIgnoreMatcher(repo);
    const dbFiles = new Set(['', '-wal', '-shm', '-journal'].map((s) => path.resolve(opts.db) + s));
    const setWatcher = (s: typeof state.watcher.state, error: string | null) => {
      state.watcher.state = s;
      state.watcher.error = error;
      events.publish({ type: 'watcher', watcher: { ...state.watcher } });
    };
    async function stopWatcher(s: 'stopped' | 'error', error: string | null) {
      const w = watcher;
      watcher = null;
      setWatcher(s, error);
      await w?.close();
    }
    function startWatcher() {
      setWatcher('starting', null);
      scannedWhileStarting = fences.running() !== null;
      const w = watchRepository(
        repo,
        { matcher, exclude: (abs) => dbFiles.has(abs) },
        {
          onChange: (change) => {
            state.watcher.events++;
            changes.add(change);
          },
          onRulesChanged: (rel) => {
            state.watcher.events++;
            log(`${rel} changed: re-discovering the repository`);
            changes.requestFull();
            if (watcher === w && !stopping) void stopWatcher('stopped', null).then(() => !stopping && startWatcher());
          },
          onReady: () => {
            if (watcher !== w) return;
            setWatcher('watching', null);
            // A file created or saved after a scan looked at it, but before chokidar watched its folder, raised
            // no event (chokidar takes what it finds as the starting tree): one stat-only pass sees it.
            if (scannedWhileStarting) changes.requestFull();
            scannedWhileStarting = false;
          },
          onError: (err) => {
            recordError(state, `watcher: ${err.message}`);
            log(`watcher: ${err.message}`);
            if (watcher === w) {
              setWatcher('error', err.message);
              // Events may have been lost: a full incremental run re-checks every file.
              changes.requestFull();
            }
          },
        },
      );
      watcher = w;
    }
    const token = opts.token ?? newToken();
    const idleGc = idleCollector();
    let idle: IdleExit | null = null;
    const api = createApi({
      token,
      maxBodyBytes: MAX_BODY_BYTES,
      status,
      queries,
      events,
      completeness,
      failure: () => (state.health.state === 'failed' ? state.health.reason : null),
      onDamage: (err) => markFailed((sqliteFault(opts.db, err) ?? (err as Error)).message),
      countQuery: (kind, ok) => {
        countQuery(state, kind, ok);
        idleGc.touch();
      },
      onRequest: () => idle?.touch(),
    });
    server = await listen(api, { port: opts.port, socket: opts.socket });
    const info: DaemonInfo = {
      version: DAEMON_VERSION, pid: process.pid, repo, db: opts.db, host: server.host, port: server.port, socket: server.socket,
      token, startedAt: startedAt.toISOString(),
    };
    writeDaemonInfo(paths.info, info);
    log(`allot daemon ${DAEMON_VERSION} (pid ${process.pid}) serving ${repo} on ${info.socket ? `unix:${info.socket}` : `${info.host}:${info.port}`}`);

    startWatcher();
    fences.submit({ full: true });
    if (opts.idleExitMs) {
      const minutes = opts.idleExitMs / 60_000;
      idle = idleExit(opts.idleExitMs, () => events.subscribers() > 0, () => {
        log(`no request for ${minutes} minute(s) (--idle-exit): stopping`);
        opts.onIdleExit?.();
      });
      stopIdle = () => idle?.stop();
      state.idleExit = { minutes, deadline: () => idle!.deadline() };
    }

    let stopped: Promise<void> | null = null;
    return {
      info,
      status,
      idle: () => fences.idle(),
      stop(reason = 'stop requested') {
        stopped ??= (async () => {
          stopping = true;
          log(`stopping: ${reason}`);
          await shutdown();
          log('stopped');
        })();
        return stopped;
      },
    };
  } catch (err) {
    await shutdown();
    throw err;
  }
}
