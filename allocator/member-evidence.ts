/**
 * Member evidence: which members of an allocated class or module the query's
 * code points at by name. Code about to call `C.m(` tends to name `m`'s words
 * just before (a test named for it, a variable, the library it wraps), and the
 * lines nearest the cursor say most. An outline expands those members (their
 * first lines) as it expands the members allocated inside it.
 */
import { nameShares } from '../indexer/name-shares.ts';
import { terms } from './terms.ts';

/** The query's identifier parts (allocator terms), each weighted 0..1 by the last line it is on (the last line 1). */
export function recentTerms(query: string): Map<string, number> {
  const lines = query.split('\n');
  const out = new Map<string, number>();
  lines.forEach((line, i) => {
    for (const t of terms(line)) out.set(t, (i + 1) / lines.length);
  });
  return out;
}

/** A member the query's words point at, and how strongly (the share of its name's weight, 0..1). */
export interface Evidenced {
  id: string;
  share: number;
}

/**
 * A member is evidenced when the query's recent weight of its name's parts is at least this share of their whole
 * weight: most of its name, on the last lines (a part three quarters of the way down the query weighs 0.75).
 */
export const EVIDENCE_SHARE = 0.75;

/**
 * The members whose names the query's code points at, best first: each name part weighs by its IDF among the
 * members (a part every member shares, `eval` in `_eval_*`, says little), times its recency in the query.
 * Members without a part of three or more characters never count.
 */
export function evidencedMembers(members: readonly { id: string; name: string }[], recent: ReadonlyMap<string, number>): Evidenced[] {
  if (!recent.size || !members.length) return [];
  // A share of EVIDENCE_SHARE needs a part at least that recent: no name holding one, no evidence (a module's
  // outline asks this of thousands of members).
  if (!members.some((m) => mayBeEvidenced(m.name, recent))) return [];
  const shares = nameShares(members.map((m) => terms(m.name)), recent);
  const scored: { id: string; share: number; k: number }[] = [];
  members.forEach((m, k) => {
    if (shares[k] >= EVIDENCE_SHARE) scored.push({ id: m.id, share: shares[k], k });
  });
  return scored.sort((a, b) => b.share - a.share || a.k - b.k).map(({ id, share }) => ({ id, share }));
}

/**
 * The one member the evidence singles out: the best, when no other is as good (words that point at several
 * members alike, `rewrite` and `log` in `_eval_rewrite_as_log` and `_eval_rewrite_as_exp`, do not tell which).
 * Callers pass the members not shown already: among the others, the words may still single one out.
 */
export function singledOut(evidence: readonly Evidenced[]): string | null {
  if (!evidence.length) return null;
  return evidence.length === 1 || evidence[0].share > evidence[1].share ? evidence[0].id : null;
}

/** The query's terms recent enough for a member named by them to be evidenced (a share is a mean of recencies). */
function lateTerms(recent: ReadonlyMap<string, number>): string[] {
  let late = lateKept.get(recent);
  if (!late) lateKept.set(recent, (late = [...recent].filter(([, w]) => w >= EVIDENCE_SHARE).map(([t]) => t)));
  return late;
}
const lateKept = new WeakMap<ReadonlyMap<string, number>, string[]>();

/** Whether a name may be evidenced: it holds a late term (lower-cased, as a substring: cheap, never a miss). */
export function mayBeEvidenced(name: string, recent: ReadonlyMap<string, number>): boolean {
  const late = lateTerms(recent);
  if (!late.length) return false;
  const lower = name.toLowerCase();
  return late.some((t) => lower.includes(t));
}
