import type { Candidate } from '../types.ts';
import type { Retriever } from './retriever.ts';

/** Reciprocal-rank constant by default: small, so the first few objects of each list dominate (K is about 5). */
export const DEFAULT_RRF_K = 10;

export interface Weighted {
  retriever: Retriever;
  weight: number;
}

/**
 * Fuses retrievers by weighted reciprocal rank at the object level: every
 * object scores sum(w / (rrfK + rank of the object in that list)), and each of
 * its views carries that score, so the allocator's quotient still sees one
 * position per object. Reasons of every list that found it are kept, and so is `viaStructure` when any list
 * found the object through structure.
 * @example hybridRetriever([{ retriever: structural, weight: 2 }, { retriever: bm25, weight: 1 }])
 */
export function hybridRetriever(parts: Weighted[], name = 'hybrid', rrfK = DEFAULT_RRF_K): Retriever {
  return {
    name,
    async prepare(query) {
      await Promise.all(parts.map((p) => p.retriever.prepare?.(query)));
    },
    retrieve(query, k) {
      const score = new Map<string, number>();
      const reasons = new Map<string, string[]>();
      const views = new Map<number, Candidate>();
      const viaStructure = new Set<string>();
      const receiver = new Set<string>();
      for (const { retriever, weight } of parts) {
        const ranks = new Map<string, number>();
        for (const c of retriever.retrieve(query, k)) {
          if (!ranks.has(c.objectId)) ranks.set(c.objectId, ranks.size + 1);
          if (!views.has(c.viewId)) views.set(c.viewId, c);
          if (c.viaStructure) viaStructure.add(c.objectId);
          if (c.receiver) receiver.add(c.objectId);
          const rs = reasons.get(c.objectId) ?? reasons.set(c.objectId, []).get(c.objectId)!;
          if (!rs.includes(c.reason)) rs.push(c.reason);
        }
        for (const [id, rank] of ranks) score.set(id, (score.get(id) ?? 0) + weight / (rrfK + rank));
      }
      return [...views.values()]
        .map((c) => ({
          ...c, score: score.get(c.objectId)!, reason: reasons.get(c.objectId)!.join('; '),
          ...(viaStructure.has(c.objectId) ? { viaStructure: true } : {}),
          ...(receiver.has(c.objectId) ? { receiver: true } : {}),
        }))
        .sort((a, b) => b.score - a.score || (a.objectId < b.objectId ? -1 : a.objectId > b.objectId ? 1 : a.viewId - b.viewId))
        .slice(0, k);
    },
  };
}
