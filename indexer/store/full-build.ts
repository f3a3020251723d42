/**
 * Whether the index is complete: a whole-repository run has finished on it at
 * least once (`state.full_build`, the time it first did). Until then the index
 * holds only part of the repository, however many files it has: a first build
 * cut short (Ctrl-C, kill -9) must never be served as complete.
 */
import type { DB } from './open.ts';
import { getState, setState } from './write.ts';

export function fullBuildDone(db: DB): boolean {
  return getState(db, 'full_build') !== null;
}

/** Records that a whole-repository run finished (the first time is kept). */
export function markFullBuild(db: DB, now = new Date()): void {
  if (!fullBuildDone(db)) setState(db, 'full_build', now.toISOString());
}
