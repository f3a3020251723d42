/**
 * The quotient step: retrieved views collapse onto their canonical objects, so
 * an object competes for one position however many of its views were found.
 */
import type { Candidate } from '../indexer/types.ts';
import { normalizePath } from '../indexer/paths.ts';
import type { AbsorbedView, Position } from './types.ts';

// A NaN score must not break the sort: it ranks last.
const scoreOf = (c: Candidate): number => (Number.isNaN(c.score) ? -Infinity : c.score);

/** Candidates by score, strongest first; equal scores keep the retriever's order. */
export function rankCandidates(candidates: readonly Candidate[]): Candidate[] {
  return candidates
    .map((c, index) => ({ c, index }))
    .sort((a, b) => scoreOf(b.c) - scoreOf(a.c) || a.index - b.index)
    .map(({ c }) => c);
}

function absorbed(c: Candidate): AbsorbedView {
  return { viewId: c.viewId, kind: c.viewKind, score: c.score, path: c.path, startLine: c.startLine, endLine: c.endLine, reason: c.reason };
}

// Quotient rule: views of one object compete for one position; the object keeps its strongest view and
// inherits that view's score (never a sum across views).
export function quotient(candidates: readonly Candidate[]): Position[] {
  const byObject = new Map<string, Position>();
  for (const c of rankCandidates(candidates)) {
    const held = byObject.get(c.objectId);
    if (held) {
      // Ranked order means the first view seen is the strongest; later ones are only recorded.
      held.views.push(absorbed(c));
      if (c.viaStructure) held.viaStructure = true;
      if (c.receiver) held.receiver = true;
      continue;
    }
    byObject.set(c.objectId, {
      key: c.objectId,
      objectId: c.objectId,
      fiber: normalizePath(c.fiber),
      score: c.score,
      rank: byObject.size + 1,
      span: null,
      views: [absorbed(c)],
      origin: 'retrieved',
      ...(c.viaStructure ? { viaStructure: true } : {}),
      ...(c.fileScore !== undefined ? { fileScore: c.fileScore } : {}),
      ...(c.relevance !== undefined ? { relevance: c.relevance } : {}),
      ...(c.receiver ? { receiver: true } : {}),
      ...(c.question ? { question: true } : {}),
    });
  }
  return [...byObject.values()];
}

// Ablation (noQuotient): fragment-level retrieval, each view is its own position rendered from its own lines.
export function fragments(candidates: readonly Candidate[]): Position[] {
  const byView = new Map<number, Position>();
  for (const c of rankCandidates(candidates)) {
    if (byView.has(c.viewId)) continue; // the same view listed twice is one fragment
    byView.set(c.viewId, {
      key: `view:${c.viewId}`,
      objectId: c.objectId,
      fiber: normalizePath(c.fiber),
      score: c.score,
      rank: byView.size + 1,
      span: { path: c.path, startLine: c.startLine, endLine: c.endLine },
      views: [absorbed(c)],
      origin: 'retrieved',
    });
  }
  return [...byView.values()];
}
