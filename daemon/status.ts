/**
 * What the daemon knows about itself, as `GET /v1/status` and `allot status`
 * report it. Counters and states are updated by the service; the snapshot is
 * a plain copy (index counts are cached per committed batch, not counted per
 * request, so polling status costs nothing).
 */
import type { StoreCounts } from '../indexer/store/read.ts';
import type { QueryKind } from './api.ts';
import type { BatchReport, DaemonStatus, IndexingState, PendingWork, WatcherState } from './types.ts';

export interface DaemonState {
  indexing: IndexingState;
  watcher: WatcherState;
  counts: StoreCounts;
  queries: DaemonStatus['queries'];
  lastError: DaemonStatus['lastError'];
}

export function initialState(counts: StoreCounts): DaemonState {
  return {
    indexing: { state: 'starting', catchingUp: true, progress: null, batches: 0, lastBatch: null },
    watcher: { state: 'starting', events: 0, error: null },
    counts,
    queries: { served: 0, search: 0, context: 0, objects: 0, files: 0, arbitrate: 0, inventory: 0, select: 0, errors: 0 },
    lastError: null,
  };
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
  fixed: { version: string; pid: number; repo: string; db: string; startedAt: Date },
  pending: PendingWork,
  now = new Date(),
): DaemonStatus {
  return {
    version: fixed.version,
    pid: fixed.pid,
    repo: fixed.repo,
    db: fixed.db,
    startedAt: fixed.startedAt.toISOString(),
    uptimeSeconds: Math.round((now.getTime() - fixed.startedAt.getTime()) / 100) / 10,
    index: { ...state.counts, filesByLanguage: { ...state.counts.filesByLanguage } },
    indexing: { ...state.indexing, progress: state.indexing.progress && { ...state.indexing.progress } },
    pending,
    watcher: { ...state.watcher },
    queries: { ...state.queries },
    lastError: state.lastError && { ...state.lastError },
  };
}

/** `parse 120/1496`, `resolve`, or `starting` for messages. */
export function progressText(indexing: IndexingState): string {
  const p = indexing.progress;
  if (!p) return indexing.state;
  return p.total ? `${p.phase} ${p.done}/${p.total} files` : p.phase;
}
