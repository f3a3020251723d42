/**
 * What a cross-file task's context may not show. The repository is indexed as
 * is, so the task's own file is in the index, but a completion model at
 * `path:line` already has that file's preceding lines (they are the query) and
 * must not see its following ones. So, as in RepoBench, where the context comes
 * from other files:
 * - no object of the task's own file is retrieved (rendering one could show
 *   lines at or after the position, and the lines before it are the query);
 * - no view whose text lies in the task's file at or after the position
 *   (call sites, imports of later lines: the future of the file);
 * - views of other files' objects whose text lies in the task's file before the
 *   position (its import statements) stay: they are part of the query.
 * The chunk and file baselines drop the task's file altogether.
 */
import type { Retriever } from '../../indexer/retrieve/retriever.ts';
import type { Candidate } from '../../indexer/types.ts';

export interface Exclusion {
  path: string;
  line: number;
}

/** Whether a retrieved view must be dropped for the task. */
export function excluded(c: Pick<Candidate, 'fiber' | 'path' | 'endLine'>, ex: Exclusion): boolean {
  return c.fiber === ex.path || (c.path === ex.path && c.endLine >= ex.line);
}

/** A retriever with its memo: `charged()` is the retrieval time a cache hit saved, so latencies stay honest. */
export interface SharedRetriever extends Retriever {
  /** Milliseconds of retrieval served from the memo since the last call (then reset). */
  charged(): number;
}

/**
 * A retriever that drops what the task may not see, over-fetching so that `k` candidates remain when the
 * index has them; results are memoised per (query, k), so one task's methods and budgets retrieve once. A hit
 * is charged the original retrieval time, so every method's latency includes its retrieval.
 */
export function excludingRetriever(inner: Retriever, ex: Exclusion | null): SharedRetriever {
  const memo = new Map<string, { candidates: Candidate[]; ms: number }>();
  let charged = 0;
  return {
    name: inner.name,
    charged() {
      const c = charged;
      charged = 0;
      return c;
    },
    retrieve(query, k) {
      const key = `${k}\u0000${query}`;
      const hit = memo.get(key);
      if (hit) {
        charged += hit.ms;
        return hit.candidates;
      }
      const t0 = performance.now();
      let candidates: Candidate[];
      if (!ex) candidates = inner.retrieve(query, k);
      else {
        let fetch = k * 3;
        for (;;) {
          const all = inner.retrieve(query, fetch);
          candidates = all.filter((c) => !excluded(c, ex));
          if (candidates.length >= k || all.length < fetch) break;
          fetch *= 4;
        }
        candidates = candidates.slice(0, k);
      }
      memo.set(key, { candidates, ms: performance.now() - t0 });
      return candidates;
    },
  };
}
