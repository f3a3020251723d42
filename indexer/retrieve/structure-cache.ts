import { changedSince } from '../store/changes.ts';
import { isComposerJson, moduleRoots } from '../store/module-roots.ts';
import type { DB } from '../store/open.ts';
import { getGeneration } from '../store/write.ts';
import { applyFiles, bindImports, emptyStructure, indexedPaths, type Structure } from './structure.ts';

export interface FollowLimits {
  /** A batch that changed more files than this (and than `maxSyncShare` of them) is absorbed by a background rebuild. */
  maxSyncFiles: number;
  maxSyncShare: number;
}
export const DEFAULT_LIMITS: FollowLimits = { maxSyncFiles: 256, maxSyncShare: 0.1 };
/** Work done between two yields to the event loop during a background rebuild. */
const SLICE_MS = 10;

interface Holder {
  current?: Structure;
  rebuilding?: Promise<void>;
}
const holders = new WeakMap<DB, Holder>();

/**
 * The structure for a query on this connection, following the index: built on
 * first use; after a batch, only the files the change log names are updated (and
 * the import bindings redone only if those changes reach what they read). When
 * too much changed, the previous structure keeps answering while a new one is
 * built in slices that yield to the event loop, so no query waits for it.
 */
export function structureOf(db: DB, limits: FollowLimits = DEFAULT_LIMITS): Structure {
  let holder = holders.get(db);
  if (!holder) holders.set(db, (holder = {}));
  const s = holder.current;
  if (!s) return (holder.current = buildNow(db));
  if (holder.rebuilding || getGeneration(db) === s.generation) return s;
  try {
    const behind = db.transaction(() => {
      // Generation, log and rows read in one snapshot: the writer may commit meanwhile.
      const generation = getGeneration(db);
      const changed = changedSince(db, s.generation);
      // The PSR-4 roots are the resolver's own: a changed composer.json needs a new structure, as too large a change does.
      if (!changed || changed.length > Math.max(limits.maxSyncFiles, limits.maxSyncShare * s.byFile.size) || changed.some(isComposerJson)) return true;
      applyFiles(s, db, changed);
      s.generation = generation;
      return false;
    })();
    if (behind) holder.rebuilding = rebuild(db, holder);
    else if (s.resolver.stale) drain(bindImports(s));
  } catch (err) {
    // A half-applied change leaves nothing to trust: start over on the next query.
    holder.current = undefined;
    throw err;
  }
  return s;
}

/**
 * The index generation the connection's structure reflects (-1 before it is built or while a rebuild runs):
 * answers computed from the structure are only as fresh as this.
 */
export function structureGeneration(db: DB): number {
  const holder = holders.get(db);
  return holder?.current && !holder.rebuilding ? holder.current.generation : -1;
}

/** Resolves once no background rebuild is running for this connection (tests, benchmarks). */
export async function structureSettled(db: DB): Promise<void> {
  while (holders.get(db)?.rebuilding) await holders.get(db)!.rebuilding;
}

function buildNow(db: DB): Structure {
  const s = db.transaction(() => {
    const fresh = emptyStructure(moduleRoots(db));
    fresh.generation = getGeneration(db);
    applyFiles(fresh, db, indexedPaths(db));
    return fresh;
  })();
  drain(bindImports(s));
  return s;
}

/**
 * Builds a fresh structure a file at a time, yielding every SLICE_MS, then
 * catches up with what changed while it ran (a file read after a later commit
 * is in the log and read again, so the result is consistent) and replaces the
 * current one.
 */
async function rebuild(db: DB, holder: Holder): Promise<void> {
  try {
    let s = emptyStructure();
    let slice = performance.now();
    const pause = async () => {
      if (performance.now() - slice < SLICE_MS) return;
      await new Promise((r) => setImmediate(r));
      slice = performance.now();
    };
    for (;;) {
      // A structure from nothing reads the roots in the generation it starts from (a later composer.json change is in the log).
      const [generation, roots] = db.transaction(() => [getGeneration(db), s.generation < 0 ? moduleRoots(db) : null] as const)();
      if (roots) s = emptyStructure(roots);
      if (generation === s.generation && !s.resolver.stale) break;
      const changed = s.generation < 0 ? indexedPaths(db) : changedSince(db, s.generation);
      if (!changed || (s.generation >= 0 && changed.some(isComposerJson))) {
        s = emptyStructure();
        continue;
      }
      for (const path of changed) {
        db.transaction(() => applyFiles(s, db, [path]))();
        await pause();
      }
      s.generation = generation;
      if (s.generation === getGeneration(db) && s.resolver.stale) for (const _ of bindImports(s, 500)) await pause();
    }
    holder.current = s;
  } catch {
    // The connection closed (shutdown) or failed: keep the previous structure; the next batch tries again.
  } finally {
    holder.rebuilding = undefined;
  }
}

function drain(steps: Generator<void>): void {
  for (let step = steps.next(); !step.done; step = steps.next());
}
