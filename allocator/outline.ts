/**
 * Outlines: a class or module that does not fit its allowance whole is shown as
 * its declaration, every member's signature with the first line of its
 * docstring, its fields, and the members the context touches expanded, then as
 * much of its opening as the allowance still holds. Every shown line is a
 * verbatim source line; a run of hidden lines becomes one `⋮` line.
 */
import { normalizePath } from '../indexer/paths.ts';
import type { Tokenizer } from '../indexer/tokenizer.ts';
import { declarationOf, descriptor, WHOLE_OVER_COMPACT, type Rendered, type RenderInput } from './render.ts';
import { singledOut, type Evidenced } from './member-evidence.ts';
import type { ObjectInfo } from './types.ts';

/** The line that stands for hidden lines in an outline (never a line of the repository's code). */
export const ELISION = '⋮';

/** One member of an outlined object: the lines that list it, and its whole span (0-based indices into the input's lines). */
export interface OutlineMember {
  id: string;
  /** The member's own name (its words are what the query's evidence matches). */
  name: string;
  /** 1 for a direct child, 2 for a child's child, ... */
  depth: number;
  /** Declaration lines and the first line of its docstring (found when first read). */
  readonly listing: number[];
  span: [number, number];
}

/**
 * What an outline is built from: the object's declaration, members and own lines (fields). Listings and fields are
 * found when first read: an outline that must be complete stops at the first listing that does not fit, and a
 * generated module has thousands of members.
 */
export interface OutlinePlan {
  declaration: number[];
  members: OutlineMember[];
  readonly fields: number[];
  /** Members the query's words point at, best first (member-evidence.ts): expanded by their first lines after the listings. */
  evidence?: readonly Evidenced[];
  /**
   * Members the query's code already uses (used-members.ts): known there by their use, so an outline lists them and
   * expands them only after the others, never as touched members.
   */
  used?: ReadonlySet<string>;
}

const CONTAINER_KINDS = new Set(['class', 'interface', 'struct', 'enum', 'trait', 'module', 'type', 'impl', 'namespace']);

/** Whether an object is a class-like or module container, which renders as an outline when it does not fit. */
export const isContainer = (o: Pick<ObjectInfo, 'kind'>): boolean => CONTAINER_KINDS.has(o.kind);

const COMMENT_OR_DECORATOR = /^\s*(@|#|\/\/|\/\*|\*|\*\/|"""|''')/;
const DECORATOR = /^\s*@/;
const collapse = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** Whether a UTF-16 code unit is one of `\s` (what `collapse` merges and `trim` drops: the same set). */
const isSpace = (c: number): boolean => c === 32 || (c >= 9 && c <= 13) || (c > 127 && /\s/.test(String.fromCharCode(c)));

/** `collapse(line).startsWith(probe)` for a collapsed `probe`, without building the collapsed line. */
export function collapsedStartsWith(line: string, probe: string): boolean {
  const n = line.length;
  let i = 0;
  while (i < n && isSpace(line.charCodeAt(i))) i++;
  for (let k = 0; k < probe.length; k++) {
    if (i >= n) return false;
    if (isSpace(line.charCodeAt(i))) {
      while (i < n && isSpace(line.charCodeAt(i))) i++;
      // A run of blanks is one space, unless it ends the line (trimmed away).
      if (i >= n || probe.charCodeAt(k) !== 32) return false;
    } else if (line.charCodeAt(i++) !== probe.charCodeAt(k)) return false;
  }
  return true;
}

/** `collapse(line).length`, without building it. */
export function collapsedLength(line: string): number {
  let n = 0;
  let gap = false;
  for (let i = 0; i < line.length; i++) {
    if (isSpace(line.charCodeAt(i))) gap = n > 0;
    else {
      if (gap) n++;
      gap = false;
      n++;
    }
  }
  return n;
}

/**
 * The declaration lines of an object within `lines[from..to]`: the line where its signature starts, through the
 * line where the signature's text ends (signatures are stored whitespace-collapsed). Lines are compared and measured
 * collapsed without being copied: a module's outline asks this of each of its members (thousands in generated code).
 */
export function declarationLines(lines: readonly string[], from: number, to: number, signature: string): [number, number] {
  const sig = collapse(signature);
  const probe = sig.slice(0, Math.min(12, sig.length));
  let start = -1;
  if (probe) for (let i = from; i <= to && start < 0; i++) if (collapsedStartsWith(lines[i], probe)) start = i;
  if (start < 0) for (let i = from; i <= to && start < 0; i++) if (lines[i].trim() && !COMMENT_OR_DECORATOR.test(lines[i])) start = i;
  if (start < 0) start = from;
  let end = start;
  // The length of collapse(lines[start..end] joined by spaces): a blank line adds nothing, another line a space and itself.
  let length = collapsedLength(lines[start]);
  while (end < to && length < sig.length) {
    const next = collapsedLength(lines[++end]);
    if (next) length += length ? next + 1 : next;
  }
  return [start, end];
}

/** The first line of a docstring, inside the object after its declaration (Python) or in the comment before it. */
function docLines(lines: readonly string[], from: number, decl: [number, number], to: number, docstring: string | null | undefined): number[] {
  if (!docstring) return [];
  const words = /[\p{L}\p{N}]/u;
  // A leading comment: its first line with words (decorators are no comment; a decorated Python member's
  // docstring is inside it, after the declaration).
  for (let i = from; i < decl[0]; i++) if (words.test(lines[i]) && !DECORATOR.test(lines[i])) return [i];
  for (let i = decl[1] + 1; i <= to; i++) {
    if (!lines[i].trim()) continue;
    // An opening quote alone on its line: the text starts on the next one.
    if (!words.test(lines[i]) && i + 1 <= to) return [i, i + 1];
    return [i];
  }
  return [];
}

/**
 * The outline plan of `root` (its lines are `input.lines`) over the objects of its file: the members are the
 * objects whose span lies inside the root's, each listed at its nesting depth.
 */
export function outlinePlan(root: ObjectInfo & { docstring?: string | null }, input: RenderInput, fiber: readonly (ObjectInfo & { docstring?: string | null })[]): OutlinePlan {
  const base = input.startLine;
  const last = input.lines.length - 1;
  const path = normalizePath(root.path);
  const inside = fiber
    .filter((o) => o.id !== root.id && (o.path === root.path || normalizePath(o.path) === path) && o.startLine >= root.startLine && o.endLine <= base + last)
    .filter((o) => !(o.startLine === root.startLine && o.endLine === root.endLine))
    .sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine);
  const members: OutlineMember[] = [];
  const open: { end: number }[] = [];
  for (const o of inside) {
    while (open.length && open.at(-1)!.end < o.startLine) open.pop();
    const from = o.startLine - base;
    const to = Math.min(last, o.endLine - base);
    let listing: number[] | undefined;
    members.push({
      id: o.id,
      name: o.name,
      depth: open.length + 1,
      span: [from, to],
      get listing() {
        return (listing ??= memberListing(input.lines, from, to, o));
      },
    });
    open.push({ end: o.endLine });
  }
  const isModule = root.kind === 'module' || root.kind === 'file';
  const decl = isModule ? null : declarationLines(input.lines, 0, last, root.signature);
  const declaration = decl ? [...new Set([...range(decl[0], decl[1]), ...docLines(input.lines, 0, decl, last, root.docstring)])].sort((a, b) => a - b) : [];
  let fields: number[] | undefined;
  return {
    declaration,
    members,
    get fields() {
      return (fields ??= ownLines(root, input, decl, declaration, members));
    },
  };
}

/** A member's listing: its declaration with its decorators, and its docstring's first line; the member whole when hardly longer. */
function memberListing(lines: readonly string[], from: number, to: number, o: ObjectInfo & { docstring?: string | null }): number[] {
  const decl = declarationLines(lines, from, to, o.signature);
  let first = decl[0];
  while (first > from && DECORATOR.test(lines[first - 1])) first--;
  const listed = [...new Set([...range(first, decl[1]), ...docLines(lines, from, decl, to, o.docstring)])].sort((a, b) => a - b);
  return to - from + 1 <= WHOLE_OVER_COMPACT * listed.length ? range(from, to) : listed;
}

/** Fields: the root's own non-blank lines outside every member, its declaration and its docstring. */
function ownLines(root: { docstring?: string | null }, input: RenderInput, decl: [number, number] | null, declaration: readonly number[], members: readonly OutlineMember[]): number[] {
  const last = input.lines.length - 1;
  // One flag per line (writes past either end are dropped, and only lines 0..last are read).
  const covered = new Uint8Array(last + 1);
  for (const i of declaration) covered[i] = 1;
  for (const m of members) if (m.depth === 1) covered.fill(1, Math.max(0, m.span[0]), Math.max(0, m.span[1] + 1));
  if (decl) covered.fill(1, 0, Math.max(0, decl[0])); // decorators and leading comments
  const docCount = root.docstring ? root.docstring.split('\n').length : 0;
  const docStart = declaration.find((i) => !decl || i > decl[1]);
  if (docStart !== undefined) covered.fill(1, docStart, docStart + docCount);
  const fields: number[] = [];
  for (let i = 0; i <= last; i++) if (!covered[i] && input.lines[i].trim() && !(decl && i <= decl[1])) fields.push(i);
  return fields;
}

function range(a: number, b: number): number[] {
  const out: number[] = [];
  for (let i = a; i <= b; i++) out.push(i);
  return out;
}

/** The text of an outline showing the lines `shown` (indices into `input.lines`, any order). */
export function outlineText(input: RenderInput, shown: ReadonlySet<number>): string {
  const sorted = [...shown].sort((a, b) => a - b);
  const out = [outlineDescriptor(input, sorted)];
  let prev = -1;
  for (const i of sorted) {
    if (i > prev + 1) out.push(elisionLine(input.lines[prev + 1]));
    out.push(input.lines[i]);
    prev = i;
  }
  if (prev < input.lines.length - 1) out.push(elisionLine(input.lines[prev + 1]));
  return out.join('\n');
}

const elisionLine = (firstHidden: string): string => `${/^\s*/.exec(firstHidden)![0]}${ELISION}`;

function outlineDescriptor(input: RenderInput, sorted: readonly number[]): string {
  if (!sorted.length) return descriptor(input, null);
  const whole = descriptor(input, [0, input.lines.length - 1], sorted[0] === 0 && input.startLine === declarationOf(input));
  return whole.replace(/^(### [^|]*?:\d+-\d+)/, '$1 (outline)');
}

/** Inclusive line ranges (1-based) of an outline's shown lines. */
export function shownRanges(input: RenderInput, shown: ReadonlySet<number>): [number, number][] {
  const out: [number, number][] = [];
  for (const i of [...shown].sort((a, b) => a - b)) {
    const line = input.startLine + i;
    const lastRange = out.at(-1);
    if (lastRange && lastRange[1] === line - 1) lastRange[1] = line;
    else out.push([line, line]);
  }
  return out;
}

/** A rendered outline: a `Rendered` whose `shown` says which lines it holds. */
export interface RenderedOutline extends Rendered {
  shown: Set<number>;
  /** Lines that no shrinking removes (the declaration). */
  kept: Set<number>;
}

export interface OutlineOptions {
  /** Members to show whole (the context touches them), in priority order. */
  touched: readonly string[];
  /**
   * `grow`: after the outline, the opening lines fill what the allowance still holds (a K-slot allowance);
   * a number: exactly that many opening lines, and the outline is all or nothing (the fill, never cut).
   */
  opening: 'grow' | number;
  /** With `grow`: a head of this many opening lines comes right after the touched members, before the listings. */
  head?: number;
  /** False (with a numeric `opening`): no member listings, the opening and the evidenced members only (a head, see form.ts). */
  listings?: boolean;
  /** The evidenced members to expand (default: the plan's, best first). */
  evidence?: readonly string[];
  /**
   * With a numeric `opening`: when not every listing fits, the outline still holds its declaration, opening, touched
   * members whole and the member the query singles out, then the listings in
   * order as far as they fit (the rest elided), never a listing in part. See `outlineOrPartial`.
   */
  partial?: boolean;
}

/** The lines an evidenced member is expanded by: whole, or its first `head` lines when longer (whole when `head` is 0). */
function evidenceLines(m: OutlineMember, head: number): number[] {
  const [from, to] = m.span;
  return range(from, head > 0 ? Math.min(to, from + head - 1) : to);
}

const costs = new WeakMap<readonly string[], { tok: Tokenizer; of: Map<number, number> }>();

/** The tokens of each line with its newline, counted once per rendering input (its outlines of every size share them). */
function lineCosts(input: RenderInput, tok: Tokenizer): (i: number) => number {
  let held = costs.get(input.lines);
  if (!held || held.tok !== tok) costs.set(input.lines, (held = { tok, of: new Map() }));
  const of = held.of;
  return (i) => {
    let c = of.get(i);
    if (c === undefined) of.set(i, (c = tok.count(`\n${input.lines[i]}`)));
    return c;
  };
}

// Outline growth rule: what the allowance holds after the listings completes members whole, the cheapest first
// (which member the query needs is uncertain: as many of them whole as fit, rather than the container's opening).
// A member longer in lines than the room left cannot fit (every line costs a token) and is never counted.
function wholeMembersCheapestFirst(plan: OutlinePlan, shown: ReadonlySet<number>, cost: (i: number) => number, room: number): number[][] {
  const offers: { lines: number[]; tokens: number; from: number; used: number }[] = [];
  for (const m of plan.members) {
    const [from, to] = m.span;
    if (to - from + 1 > room) continue;
    const lines = range(from, to);
    let tokens = 0;
    for (const i of lines) if (!shown.has(i) && (tokens += cost(i)) > room) break;
    if (tokens > 0 && tokens <= room) offers.push({ lines, tokens, from, used: plan.used?.has(m.id) ? 1 : 0 });
  }
  // The members the query has not used yet first: what it is about to use.
  return offers.sort((a, b) => a.used - b.used || a.tokens - b.tokens || a.from - b.from).map((o) => o.lines);
}

/**
 * The largest outline within `allowance` tokens: declaration, touched members whole (their opening when whole
 * does not fit), every member's listing (direct members first), fields, further members whole (the cheapest
 * first), then the opening lines.
 * Null when even the declaration does not fit, or (`opening` a number) when the complete outline does not fit.
 */
export function outlineWithin(input: RenderInput, plan: OutlinePlan, allowance: number, tok: Tokenizer, given: OutlineOptions): RenderedOutline | null {
  // A member the query already uses is listed like any other, not expanded as touched.
  const opts = plan.used?.size ? { ...given, touched: given.touched.filter((id) => !plan.used!.has(id)) } : given;
  const cost = lineCosts(input, tok);
  const shown = new Set<number>();
  const base = tok.count(outlineDescriptor(input, [0])) + 4; // descriptor, and a margin for elision lines
  let estimate = base;
  const gapCost = 3;
  const tryAdd = (lines: readonly number[]): boolean => {
    const fresh = lines.filter((i) => !shown.has(i));
    // A line costs a token at least (its newline), so lines that cannot fit are not counted, nor those after the
    // line that overflows: the answer is the same, and a module's outline tries thousands of listings.
    if (fresh.length && estimate + gapCost + fresh.length > allowance) return false;
    let extra = fresh.length ? gapCost : 0;
    for (const i of fresh) if (estimate + (extra += cost(i)) > allowance) return false;
    for (const i of fresh) shown.add(i);
    estimate += extra;
    return true;
  };
  const strict = opts.opening !== 'grow';
  const order: number[][] = [];
  const declaration = plan.declaration.length ? plan.declaration : plan.members.length ? [] : [0];
  if (!tryAdd(declaration) && declaration.length) return null;
  const kept = new Set(shown);
  const byId = new Map(plan.members.map((m) => [m.id, m]));
  const listings = opts.listings !== false;
  // Evidenced members (not already touched) by their first lines: what the query's words point at, after what it allocated.
  const headSize = opts.head ?? (typeof opts.opening === 'number' ? opts.opening : 0);
  // Within a slot's b_i every evidenced member, after the listings; a complete outline of the fill, the one singled out.
  const one = singledOut((plan.evidence ?? []).filter((e) => !opts.touched.includes(e.id)));
  const evidenceIds = opts.evidence ?? (strict ? (one ? [one] : []) : (plan.evidence ?? []).map((e) => e.id));
  const evidenced = evidenceIds.filter((id) => !opts.touched.includes(id)).flatMap((id) => {
    const m = byId.get(id);
    return m ? [evidenceLines(m, headSize)] : [];
  });
  // In order; a listing is found only when its turn comes (a complete outline stops at the first that does not fit).
  function* required(): Generator<number[]> {
    if (typeof opts.opening === 'number') yield range(0, Math.min(input.lines.length, opts.opening) - 1);
    for (const id of opts.touched) {
      const m = byId.get(id);
      if (m) yield range(m.span[0], m.span[1]);
    }
    if (opts.opening === 'grow' && opts.head) for (let i = 0; i < Math.min(input.lines.length, opts.head); i++) yield [i];
    if (listings) for (const m of plan.members) if (m.depth === 1) yield m.listing;
    if (!strict) yield* evidenced;
  }
  // A complete outline (strict) must show all it requires; the evidenced members come after, as far as they fit.
  const optional: number[][] = [];
  // Lines beyond what the outline requires, each run as far as it fits: what the allowance may take back, last first.
  const addOptional = (runs: Iterable<number[]>, untilOneMisses = false) => {
    for (const lines of runs) {
      const fresh = lines.filter((i) => !shown.has(i));
      if (tryAdd(fresh)) optional.push(fresh);
      else if (untilOneMisses) break;
    }
  };
  if (strict && opts.partial) {
    // What the query touches or names first, then the listings until one does not fit (in the complete outline's order).
    if (typeof opts.opening === 'number' && !tryAdd(range(0, Math.min(input.lines.length, opts.opening) - 1))) return null;
    for (const id of opts.touched) {
      const m = byId.get(id);
      if (!m) continue;
      // Whole, as in the complete outline: the fallback lists fewer members, never shows less of what the context touches.
      if (!tryAdd(range(m.span[0], m.span[1]))) return null;
    }
    addOptional(evidenced);
    // Each listing read only when its turn comes (the first that misses ends them).
    if (listings) addOptional((function* () { for (const m of plan.members) if (m.depth === 1) yield m.listing; })(), true);
  } else if (strict) {
    for (const lines of required()) if (!tryAdd(lines)) return null;
    addOptional(evidenced);
  } else {
    for (const lines of required()) {
      if (tryAdd(lines)) {
        order.push(lines);
        continue;
      }
      // A touched member too large whole: its head (so the members touched after it are shown too), else its
      // opening, line by line.
      if (opts.touched.some((id) => byId.get(id)?.span[0] === lines[0] && byId.get(id)!.span[1] === lines.at(-1))) {
        const head = headSize > 0 && lines.length > headSize ? lines.slice(0, headSize) : null;
        if (head && tryAdd(head)) order.push(head);
        else for (const i of lines) if (!tryAdd([i])) break;
      }
    }
    for (const m of plan.members) if (m.depth > 1) if (tryAdd(m.listing)) order.push(m.listing);
    for (const i of plan.fields) if (tryAdd([i])) order.push([i]);
    for (const lines of wholeMembersCheapestFirst(plan, shown, cost, allowance - estimate)) if (tryAdd(lines)) order.push(lines);
    for (let i = 0; i < input.lines.length; i++) {
      if (shown.has(i)) continue;
      if (!tryAdd([i])) break;
      order.push([i]);
    }
  }
  // Exact: drop what was added last until the text fits.
  let text = outlineText(input, shown);
  let tokens = tok.count(text);
  while (tokens > allowance) {
    if (strict && !optional.length) return null;
    const lines = strict ? optional.pop() : order.pop();
    if (!lines) {
      for (const i of [...shown].filter((i) => !kept.has(i)).sort((a, b) => b - a)) {
        shown.delete(i);
        if (tok.count(outlineText(input, shown)) <= allowance) break;
      }
      text = outlineText(input, shown);
      tokens = tok.count(text);
      if (tokens > allowance) return null;
      break;
    }
    for (const i of lines) if (!kept.has(i)) shown.delete(i);
    text = outlineText(input, shown);
    tokens = tok.count(text);
  }
  return outlineRendered(input, shown, kept, tok, text, tokens);
}

// Partial outline rule (the fill): a container whose complete outline does not fit what is left is shown as the
// smaller outline that still lists what the query touches or names, rather than not at all (a block that grew by a
// few tokens would otherwise drop a whole container, and with it the member the query calls next).
/** The complete outline (a numeric `opening`) within `allowance`, else its partial form within `partialAllowance`; null when neither fits. */
export function outlineOrPartial(input: RenderInput, plan: OutlinePlan, allowance: number, tok: Tokenizer, opts: OutlineOptions, partialAllowance = allowance): RenderedOutline | null {
  const complete = outlineWithin(input, plan, allowance, tok, { ...opts, partial: false });
  if (complete && complete.tokens <= allowance) return complete;
  const room = Math.min(allowance, partialAllowance);
  return outlineWithin(input, plan, room, tok, { ...opts, partial: true });
}

function outlineRendered(input: RenderInput, shown: Set<number>, kept: Set<number>, tok: Tokenizer, text?: string, tokens?: number): RenderedOutline {
  if (!shown.size) {
    const only = descriptor(input, null);
    return { text: only, tokens: tok.count(only), window: null, anchor: 0, anchorTerms: [], outcome: 'descriptor only', shown, kept };
  }
  const t = text ?? outlineText(input, shown);
  const sorted = [...shown].sort((a, b) => a - b);
  return {
    text: t,
    tokens: tokens ?? tok.count(t),
    window: sorted.length ? [sorted[0], sorted.at(-1)!] : null,
    anchor: sorted[0] ?? 0,
    anchorTerms: [],
    outcome: 'outline',
    shown,
    kept,
  };
}

/** The outline with more lines shown (a member the fill expands), or null when nothing new is shown. */
export function expandOutline(input: RenderInput, r: RenderedOutline, lines: readonly number[], tok: Tokenizer): RenderedOutline | null {
  const fresh = lines.filter((i) => !r.shown.has(i));
  if (!fresh.length) return null;
  return outlineRendered(input, new Set([...r.shown, ...fresh]), r.kept, tok);
}

/** One step smaller: the last shown line outside the declaration goes; then the descriptor alone; then nothing. */
export function shrinkOutline(input: RenderInput, r: RenderedOutline, tok: Tokenizer): Rendered {
  const removable = [...r.shown].filter((i) => !r.kept.has(i));
  if (removable.length) {
    const shown = new Set(r.shown);
    shown.delete(Math.max(...removable));
    return outlineRendered(input, shown, r.kept, tok);
  }
  if (r.shown.size) return outlineRendered(input, new Set(), new Set(), tok);
  return { text: '', tokens: 0, window: null, anchor: 0, anchorTerms: [], outcome: 'empty: descriptor does not fit' };
}

export const isOutline = (r: Rendered): r is RenderedOutline => (r as RenderedOutline).shown !== undefined;
