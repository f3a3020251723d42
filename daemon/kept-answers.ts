/**
 * Context answers kept across edits while they provably cannot have changed. An allocation is a function of the
 * retriever's candidates and of the objects, fibers and file texts it read (`allocate` reads nothing else), so an
 * answer computed at generation g is still the answer at generation h when the candidates retrieved at h are the
 * same and no generation after g changed a file it read (the change log). Retrieval runs again at every generation
 * (its statistics may have moved); allocating and rendering run only when something they read changed.
 *
 * Candidates are compared without their `relevance`: allocating reads it only in the fill's relevance stop, as
 * `support >= share * support of the K-th position` (`relevant`, allocator/allocate.ts). A prose query's relevance is
 * made of relative BM25 scores, which every edit moves a little; the answer stands as long as every such comparison
 * between the candidates' supports comes out as before (`sameStops`), whichever position is the K-th.
 */
import type { ObjectSource } from '../allocator/types.ts';
import type { Candidate } from '../indexer/types.ts';
import { changedSince } from '../indexer/store/changes.ts';
import type { DB } from '../indexer/store/open.ts';

/** What an allocation reads of its candidates: everything but `relevance` exactly, and the supports the stop compares. */
export interface CandidateReading {
  /** The candidates without `relevance`, as JSON. */
  digest: string;
  /** Each candidate's support in the relevance stop (`relevance`, else `score`), in candidate order. */
  supports: readonly number[];
  /** The stop's share of the K-th position's support (`fillRelevance`); 0 or less turns the stop off. */
  share: number;
}

export function readCandidates(candidates: readonly Candidate[], share: number): CandidateReading {
  const supports = candidates.map((c) => c.relevance ?? c.score);
  const digest = JSON.stringify(candidates.map(({ relevance: _relevance, ...c }) => c));
  return { digest, supports, share };
}

// Relevance stop (fill): the stop keeps a position iff support >= share * the K-th's support, so two readings of the
// same candidates allocate alike when every such comparison between two supports comes out the same.
export function sameStops(a: CandidateReading, b: CandidateReading): boolean {
  if (a.digest !== b.digest || a.share !== b.share || a.supports.length !== b.supports.length) return false;
  if (a.share <= 0) return true;
  const n = a.supports.length;
  for (let i = 0; i < n; i++) {
    const ai = a.supports[i];
    const bi = b.supports[i];
    for (let j = 0; j < n; j++) {
      if ((ai >= a.share * a.supports[j]) !== (bi >= b.share * b.supports[j])) return false;
    }
  }
  return true;
}

export interface KeptAnswer<T> {
  /** The candidates the answer was allocated from. */
  candidates: CandidateReading;
  /** The generation the answer is known to hold at. */
  generation: number;
  /** The files whose objects, fibers or texts the allocation read. */
  paths: ReadonlySet<string>;
  answer: T;
  /** What the answer weighs against `KEPT_TOKENS` (the tokens of its context). */
  tokens: number;
}

/**
 * The tokens kept at most, per query engine (at ~13 bytes a token, ~40 MB): a budget rather than a count, so an engine
 * keeps some 500 answers of 4K tokens (with their candidates' digests) and fewer large ones.
 */
export const KEPT_TOKENS = 3_000_000;
/** Bytes of an answer's JSON a token of its context stands for (with the trace): what its candidates' digest is charged at. */
export const BYTES_PER_TOKEN = 13;

/** What an entry weighs against the budget: its context's tokens and its candidates' digest, at least one token. */
const weightOf = (e: KeptAnswer<unknown>) => Math.max(1, e.tokens + Math.ceil(e.candidates.digest.length / BYTES_PER_TOKEN));

export interface KeptAnswers<T> {
  /** The answer kept for `key` if it is the one these candidates give at `generation`, else undefined (and it is dropped). */
  recall(key: string, candidates: CandidateReading, generation: number): T | undefined;
  keep(key: string, entry: KeptAnswer<T>): void;
  /** Answers recalled, and answers allocated (kept or not), since the start. */
  readonly stats: { recalled: number; allocated: number };
}

export function createKeptAnswers<T>(db: DB, maxTokens = KEPT_TOKENS): KeptAnswers<T> {
  const kept = new Map<string, KeptAnswer<T>>();
  let tokens = 0;
  const drop = (key: string) => {
    const e = kept.get(key);
    if (!e) return;
    kept.delete(key);
    tokens -= weightOf(e);
  };
  const stats = { recalled: 0, allocated: 0 };
  return {
    stats,
    recall(key, candidates, generation) {
      const e = kept.get(key);
      if (!e) return undefined;
      drop(key);
      if (generation < e.generation || !sameStops(e.candidates, candidates)) return undefined;
      if (generation > e.generation) {
        const changed = changedSince(db, e.generation);
        if (!changed || changed.some((p) => e.paths.has(p))) return undefined;
        e.generation = generation;
      }
      kept.set(key, e); // most recently used last
      tokens += weightOf(e);
      stats.recalled++;
      return e.answer;
    },
    keep(key, entry) {
      drop(key);
      kept.set(key, entry);
      tokens += weightOf(entry);
      while (tokens > maxTokens && kept.size > 1) drop(kept.keys().next().value!);
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
