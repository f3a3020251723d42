/**
 * What the daemon knows about itself, as `GET /v1/status` and `allot status`
 * report it. Counters and states are updated by the service; the snapshot is
 * a plain copy (index counts are cached per committed batch, not counted per
 * request, so polling status costs nothing).
 */
import type { StoreCounts } from '../indexer/store/read.ts';
import type { QueryKind } from './api.ts';
import type { IndexProgress } from '../indexer/index-repository.ts';
import type { BatchReport, BuildProgress, DaemonStatus, DenseStatus, IndexingState, PendingWork, WatcherState } from './types.ts';

export interface DaemonState {
  indexing: IndexingState;
  cache: DaemonStatus['cache'];
  watcher: WatcherState;
  counts: StoreCounts;
  queries: DaemonStatus['queries'];
  lastError: DaemonStatus['lastError'];
  dense: DenseStatus;
  health: DaemonStatus['health'];
  /** Set with `--idle-exit`: the quiet minutes after which the daemon stops, and when that will be. */
  idleExit?: { minutes: number; deadline(): string };
}

/** Dense retrieval as the store has it: off, or a model with so many objects embedded. */
export function denseFromStore(model: string | null, counts: { objects: number; embedded: number } | null): DenseStatus {
  if (!model || !counts) {
    return { state: 'off', model: null, embedded: 0, objects: 0, rate: null, reason: 'the index holds no vectors: `allot index --embed repo` or `--embed model` turns dense retrieval on' };
  }
  return { state: counts.embedded < counts.objects ? 'embedding' : 'ready', model, ...counts, rate: null, reason: null };
}

/** A progress report of the worker's embedding pass. */
export function recordEmbedding(state: DaemonState, m: { model: string; done: number; total: number; finished: boolean }, rate: number | null): void {
  const d = state.dense;
  const remaining = Math.max(0, m.total - m.done);
  state.dense = {
    state: m.finished || remaining === 0 ? 'ready' : 'embedding', model: m.model, objects: d.objects, embedded: Math.max(0, d.objects - remaining),
    rate: m.finished ? null : rate, reason: null,
  };
}

export function recordEmbeddingFailure(state: DaemonState, message: string): void {
  state.dense = { ...state.dense, state: 'failed', rate: null, reason: message };
}

export function initialState(counts: StoreCounts, dense: DenseStatus = denseFromStore(null, null), complete = true, cache: DaemonStatus['cache'] = { entries: 0, bytes: 0, maxBytes: 0 }): DaemonState {
  return {
    dense,
    cache,
    indexing: {
      state: 'starting', catchingUp: true, complete, build: complete ? null : { phase: 'starting', done: 0, total: 0 }, progress: null, batches: 0, lastBatch: null,
    },
    watcher: { state: 'starting', events: 0, error: null },
    counts,
    queries: {
      served: 0, search: 0, context: 0, objects: 0, files: 0, arbitrate: 0, inventory: 0, select: 0, symbols: 0, references: 0, outline: 0, read: 0, continue: 0,
      errors: 0,
    },
    lastError: null,
    health: { state: 'ok', reason: null },
  };
}

/**
 * The index is damaged: status says so for good (indexing `failed`, the reason as health and last error) and
 * queries are refused until it is rebuilt. Returns false when it was already marked.
 */
export function recordFailure(state: DaemonState, reason: string, now = new Date()): boolean {
  if (state.health.state === 'failed') return false;
  state.health = { state: 'failed', reason };
  state.indexing.state = 'failed';
  state.indexing.progress = null;
  recordError(state, reason, now);
  return true;
}

export function countQuery(state: DaemonState, kind: QueryKind, ok: boolean): void {
  state.queries.served++;
  state.queries[kind]++;
  if (!ok) state.queries.errors++;
}

export function recordError(state: DaemonState, message: string, now = new Date()): void {
  state.lastError = { message, at: now.toISOString() };
}

export function recordBatch(state: DaemonState, report: BatchReport): void {
  state.indexing.batches++;
  state.indexing.lastBatch = report;
}

export function snapshot(
  state: DaemonState,
  fixed: { version: string; pid: number; nonce: string; repo: string; db: string; startedAt: Date },
  pending: PendingWork,
  now = new Date(),
): DaemonStatus {
  return {
    version: fixed.version,
    pid: fixed.pid,
    nonce: fixed.nonce,
    repo: fixed.repo,
    db: fixed.db,
    startedAt: fixed.startedAt.toISOString(),
    uptimeSeconds: Math.round((now.getTime() - fixed.startedAt.getTime()) / 100) / 10,
    index: { ...state.counts, filesByLanguage: { ...state.counts.filesByLanguage } },
    cache: { ...state.cache },
    indexing: { ...state.indexing, progress: state.indexing.progress && { ...state.indexing.progress }, build: state.indexing.build && { ...state.indexing.build } },
    pending,
    watcher: { ...state.watcher },
    queries: { ...state.queries },
    dense: { ...state.dense },
    health: { ...state.health },
    lastError: state.lastError && { ...state.lastError },
    idleExit: state.idleExit ? { minutes: state.idleExit.minutes, exitsAt: state.idleExit.deadline() } : null,
  };
}

/** A whole-repository run's progress as files through the run, of all it found (the resolve phase keeps the count). Pure. */
export function nextBuildProgress(prev: BuildProgress, p: IndexProgress): BuildProgress {
  if (p.phase === 'parse' || p.phase === 'done') return { phase: p.phase, done: p.done, total: p.total };
  return { phase: p.phase, done: p.phase === 'resolve' ? prev.total : 0, total: prev.total };
}

/** Progress of the running whole-repository run while the index is not complete. */
export function recordBuildProgress(state: DaemonState, p: IndexProgress): void {
  const b = state.indexing.build;
  if (!state.indexing.complete && b) state.indexing.build = nextBuildProgress(b, p);
}

/** The index became complete: a whole-repository run finished. */
export function recordComplete(state: DaemonState): void {
  state.indexing.complete = true;
  state.indexing.build = null;
}

/** `454 of 5000 files`, or the phase before files are counted: the build's progress in a sentence for a reader. */
export function progressWords(p: BuildProgress | null): string {
  if (!p || !p.total) return p ? `${p.phase}, files not counted yet` : 'starting';
  return `${p.done} of ${p.total} files${p.phase === 'resolve' ? ', resolving references' : ''}`;
}

/** `parse 454/5000 files`, or `starting` before files are counted: the compact form of the `X-Allot-Progress` header and refusals. */
export function buildText(p: BuildProgress): string {
  if (!p.total) return p.phase === 'starting' ? 'starting' : `${p.phase}, files not counted yet`;
  return `${p.phase} ${p.done}/${p.total} files`;
}
