/**
 * The form a block takes within its allowance: whole when it fits; a class or
 * module (or any object with a nested allocated object) as an outline around
 * what the context touches; anything else as its best line-complete window,
 * from its declaration down when it was found through structure.
 */
import type { Tokenizer } from '../indexer/tokenizer.ts';
import type { Group } from './containment.ts';
import { isContainer, isOutline, outlinePlan, outlineWithin, type OutlinePlan } from './outline.ts';
import { evidencedMembers, mayBeEvidenced, singledOut } from './member-evidence.ts';
import { renderWithin, type Rendered, type RenderInput } from './render.ts';
import type { UsedMembers } from './used-members.ts';
import type { ContainmentHow, ObjectInfo, ObjectText } from './types.ts';

/** One group's rendering material: its outermost object's whole input and what an outline of it would list. */
export interface GroupInput {
  group: Group;
  root: ObjectText;
  input: RenderInput;
  /** d_i: tokens of the whole rendering. */
  d: number;
  /** Grows from the declaration (found through structure) rather than around the query's best line. */
  fromStart: boolean;
  /** The outline plan over the root's file, computed once when first needed. */
  plan(): OutlinePlan;
  /** The query's terms weighted by recency (member-evidence.ts), for the groups this one becomes. */
  recent: ReadonlyMap<string, number>;
  /** The members the query's code already reaches, by receiver (used-members.ts), likewise. */
  used?: UsedMembers;
  /** Whether an object inside the root may be evidenced, known without the outline plan (most are not). */
  mayHaveEvidence(): boolean;
}

/** Object ids nested in a group, best first: the members its outline expands. */
export const touchedOf = (g: Group): string[] => g.nested.map((s) => s.position.objectId);

/** Whether the group renders as an outline when it does not fit whole. */
export const outlines = (gi: GroupInput): boolean => (isContainer(gi.root) || gi.group.nested.length > 0) && gi.plan().members.length > 0;

// Form rule (slots): whole if d_i <= b_i; else an outline (containers, and parents of nested objects) that grows
// its opening with what b_i still holds; else the largest window within b_i.
export function renderGroup(gi: GroupInput, allowance: number, queryTerms: readonly string[], tok: Tokenizer, headLines: number): Rendered {
  if (gi.d <= allowance) return renderWithin(gi.input, allowance, queryTerms, tok, { wholeTokens: gi.d });
  if (outlines(gi)) {
    const o = outlineWithin(gi.input, gi.plan(), allowance, tok, { touched: touchedOf(gi.group), opening: 'grow', head: headLines });
    if (o) return o;
  }
  return renderWithin(gi.input, allowance, queryTerms, tok, { from: gi.fromStart ? 'start' : 'query', wholeTokens: gi.d });
}

/**
 * A head that shows what the query points at: a class or module's first `headLines` lines (its declaration and
 * docstring, how to make one) and then the first lines of the member the query's words single out (how it is about
 * to use one), within `room`. Null when no member is singled out or it does not fit beside the head.
 */
export function headWithEvidence(gi: GroupInput, headLines: number, room: number, tok: Tokenizer): Rendered | null {
  if (headLines <= 0 || !gi.mayHaveEvidence() || !outlines(gi)) return null;
  // A head stays compact: one member beside it, the one the words single out among those not shown already.
  const touched = touchedOf(gi.group);
  const one = singledOut((gi.plan().evidence ?? []).filter((e) => !touched.includes(e.id)));
  if (!one) return null;
  const o = outlineWithin(gi.input, gi.plan(), room, tok, { touched, opening: headLines, listings: false, evidence: [one] });
  if (!o || o.tokens > room) return null;
  for (const i of o.shown) if (i >= headLines) return o;
  return null;
}

/** How each nested object of a group is shown by the group's rendering. */
export function containmentOf(gi: GroupInput, r: Rendered, infos: ReadonlyMap<string, ObjectInfo>): { objectId: string; object: string; how: ContainmentHow }[] {
  return gi.group.nested.map((s) => {
    const o = infos.get(s.position.objectId)!;
    const from = o.startLine - gi.input.startLine;
    const to = o.endLine - gi.input.startLine;
    let how: ContainmentHow;
    if (r.outcome === 'whole') how = 'inside whole parent';
    else if (isOutline(r)) {
      let all = true;
      for (let i = from; i <= to && all; i++) if (!r.shown.has(i)) all = false;
      how = all ? 'expanded in parent outline' : 'listed in parent outline';
    } else how = r.window && r.window[0] <= from && to <= r.window[1] ? 'inside parent window' : 'outside parent window';
    return { objectId: o.id, object: o.qualifiedName, how };
  });
}

const NO_TERMS: ReadonlyMap<string, number> = new Map();

/**
 * A group's input: the root's whole lines, d_i, and a lazily computed outline plan over its file, with the members
 * the query's recent words point at (`recent`, see member-evidence.ts).
 */
export function groupInput(
  group: Group, root: ObjectText, input: RenderInput, d: number, fiber: (path: string) => readonly ObjectInfo[],
  recent: ReadonlyMap<string, number> = new Map(), used?: UsedMembers,
): GroupInput {
  let plan: OutlinePlan | undefined;
  const fromStart = [group.root, ...group.nested].some((s) => s.position.viaStructure === true);
  // Evidence is what a code query's lines name: an object found through structure (a prose query's words are matched
  // by the retriever itself).
  const words = fromStart ? recent : NO_TERMS;
  const planned = (): OutlinePlan => {
    const p = outlinePlan(root, input, fiber(root.path));
    // The root's members the code reaches through it are known by their use: neither touched nor evidenced.
    const reached = used?.of([root.name, root.qualifiedName.split('.').at(-1) ?? root.name]);
    if (reached?.size) p.used = new Set(p.members.filter((m) => m.depth === 1 && reached.has(m.name)).map((m) => m.id));
    // Direct members only: a nested member's name is its class's business (and a module's functions are its direct members).
    p.evidence = evidencedMembers(p.members.filter((m) => m.depth === 1 && !p.used?.has(m.id)), words);
    return p;
  };
  let may: boolean | undefined;
  const mayHaveEvidence = (): boolean =>
    (may ??= fiber(root.path).some((o) => o.id !== root.id && o.startLine >= root.startLine && o.endLine <= root.endLine && mayBeEvidenced(o.name, words)));
  return { group, root, input, d, fromStart, recent, used, mayHaveEvidence, plan: () => (plan ??= planned()) };
}
