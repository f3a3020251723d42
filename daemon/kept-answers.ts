/**
 * Context answers kept across edits while they provably cannot have changed. An allocation is a function of the
 * retriever's candidates and of the objects, fibers and file texts it read (`allocate` reads nothing else), so an
 * answer computed at generation g is still the answer at generation h when the candidates retrieved at h are the
 * same and no generation after g changed a file it read (the change log). Retrieval runs again at every generation
 * (its statistics may have moved); allocating and rendering run only when something they read changed.
 */
import type { ObjectSource } from '../allocator/types.ts';
import { changedSince } from '../indexer/store/changes.ts';
import type { DB } from '../indexer/store/open.ts';

export interface KeptAnswer<T> {
  /** The candidates the answer was allocated from, as JSON. */
  candidates: string;
  /** The generation the answer is known to hold at. */
  generation: number;
  /** The files whose objects, fibers or texts the allocation read. */
  paths: ReadonlySet<string>;
  answer: T;
}

export interface KeptAnswers<T> {
  /** The answer kept for `key` if it is the one these candidates give at `generation`, else undefined (and it is dropped). */
  recall(key: string, candidates: string, generation: number): T | undefined;
  keep(key: string, entry: KeptAnswer<T>): void;
  /** Answers recalled, and answers allocated (kept or not), since the start. */
  readonly stats: { recalled: number; allocated: number };
}

export function createKeptAnswers<T>(db: DB, max = 256): KeptAnswers<T> {
  const kept = new Map<string, KeptAnswer<T>>();
  const stats = { recalled: 0, allocated: 0 };
  return {
    stats,
    recall(key, candidates, generation) {
      const e = kept.get(key);
      if (!e) return undefined;
      kept.delete(key);
      if (e.candidates !== candidates || generation < e.generation) return undefined;
      if (generation > e.generation) {
        const changed = changedSince(db, e.generation);
        if (!changed || changed.some((p) => e.paths.has(p))) return undefined;
        e.generation = generation;
      }
      kept.set(key, e); // most recently used last
      stats.recalled++;
      return e.answer;
    },
    keep(key, entry) {
      kept.delete(key);
      kept.set(key, entry);
      while (kept.size > max) kept.delete(kept.keys().next().value!);
    },
  };
}

/**
 * An object source that notes the files of everything it hands out; `complete` turns false when an id asked for
 * is unknown (an object that appears later would change the answer, and its file is not known to watch).
 */
export function readingSource(inner: ObjectSource): ObjectSource & { paths: Set<string>; complete: boolean } {
  const paths = new Set<string>();
  const note = <O extends { path: string }>(ids: string[], got: Map<string, O>) => {
    if (got.size < new Set(ids).size) reading.complete = false;
    for (const o of got.values()) paths.add(o.path);
    return got;
  };
  const reading = {
    paths,
    complete: true,
    objects: (ids: string[]) => note(ids, inner.objects(ids)),
    ...(inner.infos ? { infos: (ids: string[]) => note(ids, inner.infos!(ids)) } : {}),
    fiberObjects(path: string) {
      paths.add(path);
      return inner.fiberObjects(path);
    },
  };
  return reading;
}
