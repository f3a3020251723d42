/**
 * The fill: the budget the K slots leave goes to further objects in rank order,
 * each whole, as an outline (classes, modules) or, found through structure, as
 * its head, and never cut. An object nested in a block already in the context
 * expands that block (or is already shown by it); an object around one becomes
 * its outline. The paper's strict allocation (`noFill`) skips this step.
 */
import type { Tokenizer } from '../indexer/tokenizer.ts';
import { overlapping, within } from './containment.ts';
import { groupInput, headWithEvidence, outlines, touchedOf, type GroupInput } from './form.ts';
import { grow, growthBefore, growthOffers, support } from './growth.ts';
import { headInput } from './head.ts';
import { expandOutline, isOutline, outlineOrPartial, outlineWithin, type RenderedOutline } from './outline.ts';
import { renderInput, renderWindow, WHOLE_OVER_COMPACT, wholeInsteadOf, wholeRendered, wholeText, wholeTokens, wholeWithin, type Rendered, type RenderInput } from './render.ts';
import { TYPE_KINDS } from '../indexer/types.ts';
import type { ObjectInfo, ObjectText, Position, Role } from './types.ts';
import type { UsedMembers } from './used-members.ts';

/**
 * The room of a partial outline (outline.ts) in the fill: b_obj, or what the blocks it replaces already showed when
 * more, within what is left. Only a complete outline may pass b_obj: a partial one lists fewer members of a container
 * too large to list, and taking all that is left for them would leave none for the further objects (breadth first).
 */
const partialRoom = (room: number, shown: number, objectCap: number): number => Math.min(room, Math.max(objectCap, shown));

/** A block of the context while the fill runs: its group, what it renders from, and its rendering. */
export interface Placed {
  gi: GroupInput;
  input: RenderInput;
  rendered: Rendered;
  role: Role;
  /** The allowance it rendered within (b_i for a slot; for the fill, what was left when it was added). */
  allowance: number;
  /** Added by the fill (not one of the K slots). */
  filled: boolean;
}

export interface FillResult {
  /** Blocks the fill added (also appended to `placed`, whose blocks it may update in place). */
  added: Placed[];
  whole: number;
  outlines: number;
  heads: number;
  merged: number;
  skipped: number;
  /** Of `skipped`, those found through structure (the interface trace's count). */
  skippedStructural: number;
  notConsidered: number;
  remaining: number;
}

export interface FillContext {
  infos: ReadonlyMap<string, ObjectInfo>;
  text(id: string): ObjectText | undefined;
  fiber(path: string): readonly ObjectInfo[];
  separatorTokens: number;
  headLines: number;
  /** b_obj: what the members of one slot's type may take together before further objects (fillOrder). */
  objectCap: number;
  /** The relevance stop: whether an object may take a block of its own (one nested in a block is expanded there regardless). */
  admits(p: Position): boolean;
  tok: Tokenizer;
  /** The query's terms weighted by recency: the members an outline expands by evidence (member-evidence.ts). */
  recent?: ReadonlyMap<string, number>;
  /**
   * The query is a question (`Position.question`): no further object's block passes b_obj (Eq. 4's cap); one that
   * only a larger block could show whole takes none, as one that does not fit what is left (never cut).
   */
  question?: boolean;
  /** The members the query's code already reaches, by receiver: an outline lists them without expanding them (used-members.ts). */
  used?: UsedMembers;
}

/** Whether a block shows its whole object (not a head, window or outline of it). */
const shownWhole = (b: Placed): boolean => b.rendered.outcome === 'whole' && b.input === b.gi.input;

const lines = (a: number, b: number): number[] => Array.from({ length: b - a + 1 }, (_, k) => a + k);

/** An outline with a member's lines shown: whole when that fits, else its first `headLines` lines; null when neither fits. */
function expandMember(input: RenderInput, r: RenderedOutline, span: readonly number[], headLines: number, fits: (tokens: number) => boolean, tok: Tokenizer): RenderedOutline | null {
  for (const f of [span, ...(headLines > 0 && span.length > headLines ? [span.slice(0, headLines)] : [])]) {
    const bigger = expandOutline(input, r, f, tok);
    if (bigger && fits(bigger.tokens)) return bigger;
  }
  return null;
}

/** The class or other type an object is a member of (in its file), or null for a top-level object. */
function typeOf(info: ObjectInfo, fiber: (path: string) => readonly ObjectInfo[]): string | null {
  if (!info.parentId) return null;
  const parent = fiber(info.path).find((o) => o.id === info.parentId);
  return parent && TYPE_KINDS.has(parent.kind) ? parent.id : null;
}

// Fill order rule: what extends an allocated block before new blocks: an object found through structure that nests in
// a slot's block or is a member of the same type as a slot (the members a query calls through a receiver), rank
// order, while the members of one type and the slots of that type cost at most b_obj together (a member its head when
// longer than one), as one object would under Eq. 4; then the others found through structure (what a code query is about to use), then the rest.
export function fillOrder(ranked: readonly Position[], placed: readonly Placed[], ctx: Pick<FillContext, 'infos' | 'fiber' | 'text' | 'headLines' | 'tok'>, objectCap: number): Position[] {
  const roots = placed.flatMap((b) => [b.gi.root, ...b.gi.group.nested.map((s) => ctx.infos.get(s.position.objectId)).filter((o): o is ObjectInfo => !!o)]);
  const types = new Set(roots.map((o) => typeOf(o, ctx.fiber)).filter((t): t is string => t !== null));
  // A type's slots already spend their rendered tokens of its b_obj.
  const spent = new Map<string, number>();
  for (const b of placed) {
    const type = TYPE_KINDS.has(b.gi.root.kind) ? b.gi.root.id : typeOf(b.gi.root, ctx.fiber);
    if (type !== null) spent.set(type, (spent.get(type) ?? 0) + b.rendered.tokens);
  }
  const first = new Set<string>();
  for (const p of ranked) {
    const info = ctx.infos.get(p.objectId);
    if (!p.viaStructure || !info || TYPE_KINDS.has(info.kind)) continue;
    const hostBlock = placed.find((b) => within(info, b.gi.root));
    // Inside a block shown by a head, the member would cost the container's whole outline: not an extension.
    if (hostBlock && !isOutline(hostBlock.rendered) && !shownWhole(hostBlock)) continue;
    const host = hostBlock?.gi.root;
    const type = host ? host.id : typeOf(info, ctx.fiber);
    if (type === null || (!host && !types.has(type))) continue;
    const obj = ctx.text(p.objectId);
    if (!obj) continue;
    const cost = ctx.tok.count(wholeText(ctx.headLines > 0 ? headInput(obj, ctx.headLines) : renderInput(obj)));
    const total = (spent.get(type) ?? 0) + cost;
    if (total > objectCap) continue;
    spent.set(type, total);
    first.add(p.key);
  }
  return [
    ...ranked.filter((p) => first.has(p.key)),
    ...ranked.filter((p) => p.viaStructure && !first.has(p.key)),
    ...ranked.filter((p) => !p.viaStructure),
  ];
}

/**
 * A container whose outline does not fit around every block inside it (`gi`, over `inner`): the outline around the
 * slots' blocks alone, the fill's members inside it then listed by their signatures (their blocks give way, no line
 * twice) and shown again, each whole or by its head, in rank order as far as the room allows. Null when no block
 * of the fill is inside it, no slot is, or that outline does not fit either.
 */
function outlineAroundSlots(gi: GroupInput, inner: readonly Placed[], room: number, ctx: Pick<FillContext, 'fiber' | 'headLines' | 'tok'>): { gi: GroupInput; rendered: RenderedOutline } | null {
  const slots = inner.filter((b) => !b.filled);
  const dropped = inner.filter((b) => b.filled);
  if (slots.length === 0 || dropped.length === 0) return null;
  const { root: obj, input } = gi;
  const nestedOf = (bs: readonly Placed[]) => bs.flatMap((b) => [b.gi.group.root, ...b.gi.group.nested]);
  const fewer = { root: gi.group.root, nested: nestedOf(slots) };
  const plan = groupInput(fewer, obj, input, gi.d, ctx.fiber, gi.recent, gi.used).plan();
  let o = outlineWithin(input, plan, room, ctx.tok, { touched: touchedOf(fewer), opening: ctx.headLines });
  const used = plan.used;
  for (const b of dropped) {
    if (!o) break;
    const m = b.gi.root;
    if (used?.has(m.id)) continue;
    const span = lines(m.startLine - input.startLine, Math.min(input.lines.length - 1, m.endLine - input.startLine));
    o = expandMember(input, o, span, ctx.headLines, (t) => t <= room, ctx.tok) ?? o;
  }
  if (!o || o.tokens > room) return null;
  return { gi: groupInput({ ...fewer, nested: [...fewer.nested, ...nestedOf(dropped)] }, obj, input, gi.d, ctx.fiber, gi.recent, gi.used), rendered: o };
}

// Fill rule: positions in rank order; each new object takes the first form that fits what is left (whole, an
// outline with a head's opening, a head for objects found through structure), plus a separator; nested objects
// expand their block when that fits; nothing is ever cut to fit. Stops when not even a separator is left.
export function fillBudget(ranked: readonly Position[], placed: Placed[], leftover: number, ctx: FillContext): FillResult {
  const rest = fillOrder(ranked, placed, ctx, ctx.objectCap);
  const { tok, separatorTokens: sep } = ctx;
  const out: FillResult = { added: [], whole: 0, outlines: 0, heads: 0, merged: 0, skipped: 0, skippedStructural: 0, notConsidered: 0, remaining: leftover };
  let left = leftover;
  const offers = growthOffers(ctx.objectCap, tok);
  // The most support still waiting from k on (the order puts a slot's members first, whatever their support): a
  // growth goes first only when it is worth more than every object it could take the room from.
  const waiting = rest.map((p) => (ctx.admits(p) ? support(p) : 0));
  for (let k = waiting.length - 2; k >= 0; k--) waiting[k] = Math.max(waiting[k], waiting[k + 1]);
  const skip = (p: Position) => {
    out.skipped++;
    if (p.viaStructure) out.skippedStructural++;
  };
  // Containers whose partial outline would take over their shown blocks only past its room (partialRoom) come back
  // once, after every further object had its place, with all that is left: then the room they take starves none.
  const order = [...rest];
  const tail = new Set<string>();
  for (let k = 0; k < order.length; k++) {
    const p = order[k];
    if (left <= sep) {
      out.notConsidered += order.length - k;
      break;
    }
    const info = ctx.infos.get(p.objectId);
    if (!info) continue;
    const selected = { position: p, role: (p.viaStructure ? 'interface' : 'fill') as Role };
    const host = placed.find((b) => within(info, b.gi.root) || within(b.gi.root, info));
    if (host) {
      const r = host.rendered;
      if (within(info, host.gi.root)) {
        // Nested in a block already shown: nothing more when it is visible there; an outline expands it if that fits.
        const from = info.startLine - host.input.startLine;
        const to = info.endLine - host.input.startLine;
        if ((r.outcome === 'whole' && host.input === host.gi.input) || (r.window && !isOutline(r) && r.window[0] <= from && to <= r.window[1])) {
          host.gi.group.nested.push(selected);
          out.merged++;
          continue;
        }
        // A member the query already uses stays listed in an outline (used-members.ts).
        if (isOutline(r) && host.gi.plan().used?.has(p.objectId)) {
          host.gi.group.nested.push(selected);
          out.merged++;
          continue;
        }
        if (isOutline(r)) {
          const span = lines(Math.max(0, from), Math.min(host.input.lines.length - 1, to));
          // A member found through structure that does not fit whole is expanded by its head, as a block of its own would be.
          const bigger = expandMember(host.input, r, span, p.viaStructure ? ctx.headLines : 0, (t) => t - r.tokens <= left, tok)
            ?? expandOutline(host.input, r, span, tok);
          if (!bigger || bigger.tokens - r.tokens <= left) {
            if (bigger) {
              host.allowance = Math.max(host.allowance, r.tokens + left);
              left -= bigger.tokens - r.tokens;
              host.rendered = bigger;
            }
            host.gi.group.nested.push(selected);
            out.merged++;
            continue;
          }
        }
        // A container shown by its head: its outline (that head, every member's listing) with this member expanded.
        if (!isOutline(r) && outlines(host.gi)) {
          const touched = [...touchedOf(host.gi.group), p.objectId];
          const room = r.tokens + left;
          const o = outlineOrPartial(host.gi.input, host.gi.plan(), room, tok, { touched, opening: ctx.headLines }, partialRoom(room, r.tokens, ctx.objectCap));
          if (o && o.tokens <= room) {
            // The outline is a compact form too: the whole container instead when that is at most twice it.
            const d = wholeInsteadOf(host.gi.input, o.tokens, room, tok);
            const form = d !== null ? wholeRendered(host.gi.input, d) : o;
            if (d !== null) host.gi.d = d;
            left = room - form.tokens;
            host.allowance = Math.max(host.allowance, room);
            host.input = host.gi.input;
            host.rendered = form;
            host.gi.group.nested.push(selected);
            out.merged++;
            continue;
          }
        }
        skip(p);
        continue;
      }
      // Around blocks already shown: they become this object's rendering (whole, or an outline around them).
      const inner = placed.filter((b) => within(b.gi.root, info));
      if (placed.some((b) => !inner.includes(b) && overlapping(info, b.gi.root))) {
        skip(p);
        continue;
      }
      const obj = ctx.text(p.objectId);
      if (!obj) continue;
      const input = renderInput(obj);
      const group = { root: { ...selected, role: host.gi.group.root.role }, nested: inner.flatMap((b) => [b.gi.group.root, ...b.gi.group.nested]) };
      const freed = inner.reduce((sum, b) => sum + b.rendered.tokens, 0) + (inner.length - 1) * sep;
      // Below the relevance stop it takes over its shown parts only within twice them (WHOLE_OVER_COMPACT: parts that
      // save less than half are not worth the breadth they keep), never spending the fill's budget on its own.
      const room = ctx.admits(p) ? freed + left : Math.min(freed + left, WHOLE_OVER_COMPACT * freed);
      // d_i counted against b_obj too: the block may deepen up to it later, and a d_i past a smaller limit is only a bound.
      let gi = groupInput(group, obj, input, wholeTokens(input, Math.max(room, ctx.objectCap), tok), ctx.fiber, ctx.recent, ctx.used);
      let next = gi.d <= room ? renderWindow(input, [0, input.lines.length - 1], tok)
        : outlines(gi) ? outlineWithin(input, gi.plan(), room, tok, { touched: touchedOf(group), opening: ctx.headLines })
        : null;
      if ((!next || next.tokens > room) && gi.d > room) {
        const around = outlineAroundSlots(gi, inner, room, ctx);
        if (around) ({ gi, rendered: next } = around);
      }
      // Then, every listing too many, the partial outline around all of them (whole), rather than none.
      if ((!next || next.tokens > room) && gi.d > room && outlines(gi)) {
        const limit = tail.has(p.key) ? room : partialRoom(room, freed, ctx.objectCap);
        next = outlineWithin(input, gi.plan(), limit, tok, { touched: touchedOf(group), opening: ctx.headLines, partial: true });
        if ((!next || next.tokens > limit) && limit < room && !tail.has(p.key)) {
          tail.add(p.key);
          order.push(p);
          continue;
        }
      }
      if (!next || next.tokens > room) {
        skip(p);
        continue;
      }
      left = freed + left - next.tokens;
      host.allowance = Math.max(host.allowance, room);
      host.gi = gi;
      host.input = input;
      host.rendered = next;
      for (const b of inner) {
        if (b === host) continue;
        placed.splice(placed.indexOf(b), 1);
        const at = out.added.indexOf(b);
        if (at >= 0) out.added.splice(at, 1);
      }
      out.merged++;
      continue;
    }
    if (!ctx.admits(p)) {
      out.notConsidered++;
      continue;
    }
    if (placed.some((b) => overlapping(info, b.gi.root))) {
      skip(p);
      continue;
    }
    const obj = ctx.text(p.objectId);
    if (!obj) continue;
    const input = renderInput(obj);
    const room = ctx.question ? Math.min(left - sep, ctx.objectCap) : left - sep;
    // Breadth first: an object longer than a head gets its compact form now (found through structure its head; a
    // class the query calls members through, or a class or module found otherwise, its outline with a head's
    // opening), and its outline or whole form only when the blocks deepen, once every further object had its compact form.
    const longer = ctx.headLines > 0 && input.lines.length > ctx.headLines;
    const gi = groupInput({ root: selected, nested: [] }, obj, input, longer && p.viaStructure ? Infinity : wholeTokens(input, room, tok), ctx.fiber, ctx.recent, ctx.used);
    const place = (blockInput: RenderInput, rendered: Rendered): Placed => ({ gi, input: blockInput, rendered, role: selected.role, allowance: room, filled: true });
    const compact = longer && (p.viaStructure || outlines(gi));
    let block: Placed | null = null;
    if (!compact && gi.d <= room) block = place(input, wholeRendered(input, gi.d));
    else if (compact && (!p.viaStructure || p.receiver) && outlines(gi)) {
      const o = outlineWithin(input, gi.plan(), room, tok, { touched: [], opening: ctx.headLines });
      if (o) block = place(input, o);
    }
    if (!block && compact && p.viaStructure) {
      const evidenced = headWithEvidence(gi, ctx.headLines, room, tok);
      if (evidenced) block = place(input, evidenced);
    }
    if (!block && compact && p.viaStructure) {
      const head = headInput(obj, ctx.headLines);
      const rendered = renderWindow(head, [0, head.lines.length - 1], tok);
      // A head saves breadth only when it is much smaller than the whole: otherwise the whole, so little more.
      const d = rendered.tokens <= room ? wholeInsteadOf(input, rendered.tokens, room, tok) : null;
      if (d !== null) {
        gi.d = d;
        block = place(input, wholeRendered(input, d));
      } else if (rendered.tokens <= room) block = place(head, rendered);
    }
    if (!block) {
      skip(p);
      continue;
    }
    // A block shown in part that is worth more per token than this one grows first; then this one is placed anew.
    const g = growthBefore(offers(placed, left), waiting[k], block.rendered.tokens + sep);
    if (g) {
      left -= grow(g);
      k--;
      continue;
    }
    left -= block.rendered.tokens + sep;
    placed.push(block);
    out.added.push(block);
  }
  // whole, outlines and heads are counted by the caller once the blocks have deepened (their forms change then)
  out.remaining = left;
  return out;
}

/**
 * An outline's growth by its nested objects (the members the context touches, in the order they were allocated):
 * the outline with the first of them whole, then the first two, ... within `room` (one that does not fit is passed over).
 */
function membersWhole(b: Placed, room: number, spanOf: (id: string) => { startLine: number; endLine: number } | undefined, tok: Tokenizer): Rendered[] {
  if (!isOutline(b.rendered) || b.input !== b.gi.input) return [];
  let r: RenderedOutline = b.rendered;
  const out: Rendered[] = [];
  const used = b.gi.plan().used;
  for (const s of b.gi.group.nested) {
    if (used?.has(s.position.objectId)) continue;
    const span = spanOf(s.position.objectId);
    if (!span) continue;
    const from = Math.max(0, span.startLine - b.input.startLine);
    const to = Math.min(b.input.lines.length - 1, span.endLine - b.input.startLine);
    if (to - from + 1 > room) continue;
    const bigger = expandOutline(b.input, r, lines(from, to), tok);
    // One too large for the room leaves it to the next ones (each form adds one member to the last).
    if (!bigger || bigger.tokens > room) continue;
    out.push((r = bigger));
  }
  return out;
}

// Depth rule: once every object has its place, what is left grows the blocks: the K slots first, in rank order,
// each within b_obj (whole, a larger outline or window); then the fill's blocks, each to whole or, a class or module
// shown by its head, to its outline, the cheapest growth first (rank order among equals). Which further object the
// query needs is uncertain, so what is left completes as many of them as it can rather than one large one first.
export function deepen(
  placed: Placed[], left: number, objectCap: number, grow: (b: Placed, allowance: number) => Rendered, tok: Tokenizer, headLines: number,
  spanOf: (id: string) => { startLine: number; endLine: number } | undefined = () => undefined,
  question = false,
): number {
  for (const b of placed) {
    if (left <= 0) break;
    if (b.filled || shownWhole(b)) continue;
    const allowance = Math.min(Math.max(objectCap, b.rendered.tokens), b.rendered.tokens + left);
    if (allowance <= b.rendered.tokens) continue;
    const r = grow(b, allowance);
    if (r.tokens <= b.rendered.tokens || r.tokens > b.rendered.tokens + left) continue;
    left -= r.tokens - b.rendered.tokens;
    b.rendered = r;
    b.allowance = allowance;
  }
  // Each fill block's forms that grow it: whole, and for a class or module shown by its head its outline (with that
  // head); and any outline's (a slot's too) with its nested objects whole one after another, past b_obj as the fill's
  // blocks grow. The block takes the largest one that still fits when its turn comes.
  const steps: { b: Placed; forms: Rendered[] }[] = [];
  for (const b of placed) {
    if (left <= 0) break;
    if (shownWhole(b) || (!b.filled && !isOutline(b.rendered))) continue;
    // A question's blocks grow within b_obj (FillContext.question); otherwise past it, as the fill's blocks grow.
    const room = question ? Math.min(b.rendered.tokens + left, Math.max(objectCap, b.rendered.tokens)) : b.rendered.tokens + left;
    const members = membersWhole(b, room, spanOf, tok);
    const whole = b.filled ? wholeWithin(b.gi.input, room, tok) : null;
    if (whole) b.gi.d = whole.tokens;
    // (A head with evidenced members is an outline without listings: it too grows to the outline with them.)
    const outline = b.filled && outlines(b.gi)
      ? outlineWithin(b.gi.input, b.gi.plan(), room, tok, { touched: touchedOf(b.gi.group), opening: headLines }) : null;
    // An outline replaces what the block shows only when it shows all of it (a head's evidenced member stays).
    const current = b.rendered;
    const keeps = (r: Rendered | null) => !r || !isOutline(current) || (isOutline(r) && [...current.shown].every((i) => r.shown.has(i)));
    const forms = [whole, keeps(outline) ? outline : null, ...members].filter((r): r is Rendered => r !== null && r.tokens > b.rendered.tokens && r.tokens <= room);
    if (forms.length) steps.push({ b, forms: forms.sort((x, y) => y.tokens - x.tokens) });
  }
  const least = (s: { b: Placed; forms: Rendered[] }) => s.forms.at(-1)!.tokens - s.b.rendered.tokens;
  steps.sort((x, y) => least(x) - least(y));
  // Passes until nothing grows: a block that took its outline grows to whole when what the others left allows.
  for (let grew = true; grew;) {
    grew = false;
    for (const { b, forms } of steps) {
      const next = forms.find((r) => r.tokens > b.rendered.tokens && r.tokens - b.rendered.tokens <= left);
      if (!next) continue;
      const room = b.rendered.tokens + left;
      left -= next.tokens - b.rendered.tokens;
      b.allowance = Math.max(b.allowance, room);
      b.input = b.gi.input;
      b.rendered = next;
      grew = true;
    }
  }
  return left;
}
