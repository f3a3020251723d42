import type { Candidate } from '../types.ts';
import { evidenceObjects, fileEvidence } from './file-evidence.ts';
import type { Retriever } from './retriever.ts';

/** Reciprocal-rank constant by default: small, so the first few objects of each list dominate (K is about 5). */
export const DEFAULT_RRF_K = 10;

export interface Weighted {
  retriever: Retriever;
  weight: number;
  /**
   * A list that answers only some queries (quoted literals): when it finds nothing it is as if absent, so it dilutes
   * no other list's relevance and widens no leader's protection.
   */
  optional?: boolean;
}

/** What a `Candidate.weak` candidate (a plain word that happens to name the object) counts, as a share of its list's weight. */
export const WEAK_SHARE = 0.25;

export interface FusionOptions {
  /**
   * The first list's best object is outranked by no more objects than the other lists' best ones: it is kept among
   * the first `parts.length` (a prose query trusts its words; the count follows the fusion, not the allocation's K).
   */
  protectLeader?: boolean;
  /**
   * The objects a file's evidence is made of (its best `OBJECTS_PER_FILE`) are lifted by it (`fileEvidence`), and
   * candidates carry it (`Candidate.fileScore`).
   */
  fileEvidence?: boolean;
  /** Candidates carry `Candidate.relevance`: their lists' own scores, each relative to its list's best, weighted. */
  relevance?: boolean;
  /**
   * With `relevance`: only these lists (indices into the parts) make it, e.g. structure alone, whose scores an edit
   * elsewhere leaves as they were (BM25's relative scores move with every edit's term statistics). Default: all.
   */
  relevanceFrom?: readonly number[];
  /** Candidates carry `Candidate.question`: the query is a question (prose or names), not the lines at a cursor. */
  question?: boolean;
}

/** How much the best file's evidence lifts its objects: up to twice their own score. */
export const FILE_BOOST = 1;

/**
 * Fuses retrievers by weighted reciprocal rank at the object level: every
 * object scores sum(w / (rrfK + rank of the object in that list)), and each of
 * its views carries that score, so the allocator's quotient still sees one
 * position per object. Reasons of every list that found it are kept, and so is `viaStructure` when any list
 * found the object through structure.
 * @example hybridRetriever([{ retriever: structural, weight: 2 }, { retriever: bm25, weight: 1 }])
 */
export function hybridRetriever(parts: Weighted[], name = 'hybrid', rrfK = DEFAULT_RRF_K, opts: FusionOptions = {}): Retriever {
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
      let leader: string | undefined;
      const receiver = new Set<string>();
      const support = new Map<string, number>();
      let supportWeight = 0;
      let answering = 0;
      for (const [i, { retriever, weight, optional }] of parts.entries()) {
        const ranks = new Map<string, number>();
        const weak = new Set<string>();
        const list = retriever.retrieve(query, k);
        if (optional && list.length === 0) continue;
        answering++;
        // Relevance: each list's own scores relative to its best (CombSUM of max-normalised scores), so it falls
        // where the evidence falls, not where the ranks do.
        if (opts.relevance && (!opts.relevanceFrom || opts.relevanceFrom.includes(i))) {
          const best = list.reduce((m, c) => Math.max(m, c.score), 0);
          supportWeight += weight;
          const seen = new Set<string>();
          if (best > 0) for (const c of list) {
            if (seen.has(c.objectId)) continue;
            seen.add(c.objectId);
            const share = Math.max(0, c.score / best) * (c.weak ? WEAK_SHARE : 1);
            support.set(c.objectId, (support.get(c.objectId) ?? 0) + weight * share);
          }
        }
        for (const c of list) {
          if (!ranks.has(c.objectId)) {
            ranks.set(c.objectId, ranks.size + 1);
            if (c.weak) weak.add(c.objectId);
          }
          if (i === 0) leader ??= c.objectId;
          if (!views.has(c.viewId)) views.set(c.viewId, c);
          if (c.viaStructure) viaStructure.add(c.objectId);
          if (c.receiver) receiver.add(c.objectId);
          const rs = reasons.get(c.objectId) ?? reasons.set(c.objectId, []).get(c.objectId)!;
          if (!rs.includes(c.reason)) rs.push(c.reason);
        }
        for (const [id, rank] of ranks) score.set(id, (score.get(id) ?? 0) + (weight * (weak.has(id) ? WEAK_SHARE : 1)) / (rrfK + rank));
      }
      let files: Map<string, number> | undefined;
      const fiberOf = new Map<string, string>();
      if (opts.fileEvidence) {
        for (const c of views.values()) if (!fiberOf.has(c.objectId)) fiberOf.set(c.objectId, c.fiber);
        files = fileEvidence(score, fiberOf);
        const lifted = evidenceObjects(score, fiberOf);
        for (const [id, s] of score) if (lifted.has(id)) score.set(id, s * (1 + FILE_BOOST * files.get(fiberOf.get(id)!)!));
      }
      if (opts.protectLeader && leader !== undefined) keepAmongFirst(score, leader, answering);
      return [...views.values()]
        .map(({ weak: _weak, ...c }) => ({
          ...c, score: score.get(c.objectId)!, reason: reasons.get(c.objectId)!.join('; '),
          ...(viaStructure.has(c.objectId) ? { viaStructure: true } : {}),
          ...(files ? { fileScore: Math.round(files.get(c.fiber)! * 1e4) / 1e4 } : {}),
          ...(opts.relevance ? { relevance: supportWeight > 0 ? (support.get(c.objectId) ?? 0) / supportWeight : 0 } : {}),
          ...(receiver.has(c.objectId) ? { receiver: true } : {}),
          ...(opts.question ? { question: true } : {}),
        }))
        .sort((a, b) => b.score - a.score || (a.objectId < b.objectId ? -1 : a.objectId > b.objectId ? 1 : a.viewId - b.viewId))
        .slice(0, k);
    },
  };
}

/** Raises `id`'s score just above the `top`-th best object's when it ranks below it. */
function keepAmongFirst(score: Map<string, number>, id: string, top: number): void {
  const order = [...score.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const at = order.findIndex(([x]) => x === id);
  if (at < top) return;
  score.set(id, order[top - 1][1] * (1 + 1e-9) + 1e-12);
}
