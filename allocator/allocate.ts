/**
 * The object-allocation pipeline (VITAL-RAG): quotient -> core and companion
 * -> token authority -> rendering -> exact join. Pure: everything it reads
 * comes through the ObjectSource; the result carries a full trace.
 */
import { normalizePath } from '../indexer/paths.ts';
import { getTokenizer, type Tokenizer, type TokenizerName } from '../indexer/tokenizer.ts';
import type { Candidate } from '../indexer/types.ts';
import { effectiveFloor, tokenAuthority } from './budget.ts';
import { selectSlots, type Selected } from './companion.ts';
import { joinWithinBudget, SEPARATOR } from './join.ts';
import { parseAllocateOptions, type AllocateOptions, type AllocateOptionsInput } from './options.ts';
import { groupNested, type Group } from './containment.ts';
import { deepen, fillBudget, type Placed } from './fill.ts';
import { containmentOf, groupInput, headWithEvidence, renderGroup, type GroupInput } from './form.ts';
import { isOutline, shownRanges, shrinkOutline } from './outline.ts';
import { fragments, quotient } from './quotient.ts';
import {
  endLineOf, renderInput, renderWindow, renderWithin, shrinkRendered, wholeText, wholeTokens, type Rendered, type RenderInput,
} from './render.ts';
import { terms } from './terms.ts';
import { recentTerms } from './member-evidence.ts';
import { usedMembers } from './used-members.ts';
import type {
  Allocation, Block, BudgetStep, BudgetTrace, ObjectInfo, ObjectSource, ObjectText, Position, PositionTrace, RenderTrace,
} from './types.ts';

/** The tokenizer to count with: the one passed, else the options' name; a conflict is an error. */
function resolveTokenizer(tokenizer: Tokenizer | TokenizerName | undefined, options: AllocateOptionsInput, fallback: TokenizerName): Tokenizer {
  const tok = tokenizer === undefined ? getTokenizer(fallback) : typeof tokenizer === 'string' ? getTokenizer(tokenizer) : tokenizer;
  if (options.tokenizer !== undefined && options.tokenizer !== tok.name) {
    throw new Error(`tokenizer conflict: options say ${options.tokenizer}, the tokenizer passed is ${tok.name}`);
  }
  return tok;
}

const hasText = (o: ObjectInfo): o is ObjectText => typeof (o as Partial<ObjectText>).text === 'string';

/** These objects with their texts: those `known` already holds with text, the others read from the source. */
function withTexts(known: ReadonlyMap<string, ObjectInfo>, ids: readonly string[], source: ObjectSource): Map<string, ObjectText> {
  const out = new Map<string, ObjectText>();
  const need: string[] = [];
  for (const id of new Set(ids)) {
    const o = known.get(id);
    if (o && hasText(o)) out.set(id, o);
    else need.push(id);
  }
  if (need.length) for (const [id, o] of source.objects(need)) out.set(id, o);
  return out;
}

// Fragment rendering (noQuotient): a view is rendered from its own lines when they lie in the object's file,
// otherwise (callsite/import/testref views live elsewhere) from the object's text.
function inputFor(position: Position, obj: ObjectText): RenderInput {
  const span = position.span;
  if (span && normalizePath(span.path) === normalizePath(obj.path)) return renderInput(obj, span);
  return renderInput(obj);
}

interface Allotted {
  steps: BudgetStep[];
  rendered: Rendered[];
  floor: number;
}

// Token-authority + rendering rules: each block gets b_i from the formula and renders within it (see form.ts).
function allotByFormula(groups: GroupInput[], available: number, opts: AllocateOptions, queryTokens: string[], tok: Tokenizer, headLines: number): Allotted {
  const d = groups.map((g) => g.d);
  const allowances = tokenAuthority(d, available, opts.objectCap, opts.floor);
  return {
    steps: allowances.map((a, k) => ({ ...a, objectId: groups[k].root.id })),
    rendered: groups.map((g, k) => renderGroup(g, allowances[k].result, queryTokens, tok, headLines)),
    floor: effectiveFloor(available, groups.length, opts.floor),
  };
}

// Ablation (noRender): no formula; each object whole from its first line, the object where the budget runs out is
// cut at that line, and nothing follows it.
function cutAtBudget(groups: GroupInput[], available: number, queryTokens: string[], tok: Tokenizer): Allotted {
  const steps: BudgetStep[] = [];
  const rendered: Rendered[] = [];
  let R = available;
  groups.forEach((g, k) => {
    const r = renderWithin(g.input, R, queryTokens, tok, { from: 'start', wholeTokens: g.d });
    steps.push({ i: k + 1, objectId: g.root.id, d: g.d, bObj: null, R, floor: 0, m: groups.length, result: r.tokens });
    rendered.push(r);
    R = r.outcome === 'whole' ? R - r.tokens : 0;
  });
  return { steps, rendered, floor: 0 };
}

// Relevance stop (fill): a further object is plausibly relevant while its support (`Position.relevance` when the
// retriever reports it, else its score) is at least `share` of the K-th ranked position's; the others take no block
// of their own in the fill (share 0: all may), though one inside a block already shown may still be expanded there.
export function relevant(rest: readonly Position[], ranked: readonly Position[], K: number, share: number): Position[] {
  if (share <= 0 || ranked.length < K) return [...rest];
  const support = (p: Position) => p.relevance ?? p.score;
  const bar = share * support(ranked[K - 1]);
  return rest.filter((p) => support(p) >= bar);
}

// Breadth rule (slots): a structure-found slot not shown whole (d_i > b_i) and longer than a head shows its head: a
// window of it, or the outline of a container that is no receiver of the query and holds no other allocated object
// (a receiver's outline lists the members the query calls next).
// A container's head goes on with the members the query's words point at (form.ts, headWithEvidence).
function headFirst(b: Placed, headLines: number, tok: Tokenizer): void {
  const outline = b.rendered.outcome === 'outline' && !b.gi.group.root.position.receiver && b.gi.group.nested.length === 0;
  if (!b.gi.fromStart || (b.rendered.outcome !== 'clipped' && !outline) || b.input.lines.length <= headLines) return;
  const head = headWithEvidence(b.gi, headLines, b.rendered.tokens, tok) ?? renderWindow(b.input, [0, headLines - 1], tok);
  if (head.tokens < b.rendered.tokens) b.rendered = head;
}

const shownLines = (input: RenderInput, r: Rendered): [number, number] =>
  r.window ? [input.startLine + r.window[0], input.startLine + r.window[1]] : [0, 0];

function blockOf(b: Placed, r: Rendered, infos: ReadonlyMap<string, ObjectInfo>): Block {
  const { input, gi } = b;
  const obj = gi.root;
  const [shownStartLine, shownEndLine] = shownLines(input, r);
  const contains = containmentOf(gi, r, infos);
  return {
    path: obj.path,
    object: obj.qualifiedName,
    kind: obj.kind,
    role: b.role,
    score: gi.group.root.position.score,
    startLine: input.of?.startLine ?? input.startLine,
    endLine: input.of?.endLine ?? endLineOf(input),
    shownStartLine,
    shownEndLine,
    tokens: r.tokens,
    text: r.text,
    ...(isOutline(r) && r.shown.size ? { outline: true, shown: shownRanges(input, r.shown) } : {}),
    ...(contains.length ? { contains } : {}),
  };
}

function renderTraceOf(k: number, b: Placed, r: Rendered, allowance: number, shrunkLines: number, infos: ReadonlyMap<string, ObjectInfo>): RenderTrace {
  const { input, gi } = b;
  const [shownStartLine, shownEndLine] = shownLines(input, r);
  const clipped = r.outcome === 'clipped';
  const merged = containmentOf(gi, r, infos);
  return {
    i: k + 1,
    objectId: gi.root.id,
    object: gi.root.qualifiedName,
    role: b.role,
    allowance,
    tokens: r.tokens,
    outcome: r.outcome,
    shownStartLine,
    shownEndLine,
    anchorLine: clipped ? input.startLine + r.anchor : null,
    anchorTokens: clipped ? r.anchorTerms : [],
    shrunkLines,
    ...(merged.length ? { merged } : {}),
  };
}

function positionTraces(ranked: Position[], selected: readonly Selected[], texts: ReadonlyMap<string, ObjectInfo>, candidates: readonly Candidate[]): PositionTrace[] {
  const roleOf = new Map(selected.map((s) => [s.position.key, s.role]));
  const nameOf = new Map(candidates.map((c) => [c.objectId, c.objectName]));
  return ranked.map((p) => ({
    rank: p.rank,
    objectId: p.objectId,
    name: texts.get(p.objectId)?.qualifiedName ?? nameOf.get(p.objectId) ?? p.objectId,
    path: p.fiber,
    score: p.score,
    views: p.views.map((v) => ({ viewId: v.viewId, kind: v.kind, score: v.score, reason: v.reason })),
    role: roleOf.get(p.key) ?? null,
    ...(p.fileScore !== undefined ? { fileScore: p.fileScore } : {}),
  }));
}

/**
 * Allocates a token budget over the retrieved candidates and renders the context.
 * @param candidates retrieved views, ranked by score (re-sorted stably here)
 * @param tokenizer a Tokenizer or its name; defaults to options.tokenizer (cl100k_base)
 * @example
 *   const a = allocate('parse config', candidates, source, getTokenizer('cl100k_base'), { budget: 2048 });
 *   a.totalTokens <= 2048; // always
 */
export function allocate(
  query: string,
  candidates: readonly Candidate[],
  source: ObjectSource,
  tokenizer?: Tokenizer | TokenizerName,
  options: AllocateOptionsInput = {},
): Allocation {
  const opts = parseAllocateOptions(options);
  const tok = resolveTokenizer(tokenizer, options, opts.tokenizer);
  const B = opts.budget;
  const queryTokens = terms(query);
  const recent = recentTerms(query);
  const used = usedMembers(query);

  // 1-2. Candidates -> positions (quotient, or fragments under the ablation); ids the store lacks drop out.
  const ranked = opts.noQuotient ? fragments(candidates) : quotient(candidates);
  const ids = [...new Set(ranked.map((p) => p.objectId))];
  const infos: Map<string, ObjectInfo> = ids.length === 0 ? new Map() : source.infos ? source.infos(ids) : source.objects(ids);
  const present = ranked.filter((p) => infos.has(p.objectId));
  const missing = ids.filter((id) => !infos.has(id));

  // 3. Core and companions: e_1..e_m; then the texts of those alone (a text the store lost since counts as missing).
  const selection = selectSlots(present, infos, queryTokens, opts.slots, source);
  const texts = withTexts(selection.texts, selection.selected.map((s) => s.position.objectId), source);
  const selected = selection.selected.filter((s) => texts.has(s.position.objectId));
  for (const s of selection.selected) if (!texts.has(s.position.objectId)) missing.push(s.position.objectId);
  for (const [id, o] of selection.texts) if (!infos.has(id)) infos.set(id, o);

  // 3b. Containment: an allocated object nested in another renders inside the outermost one's block.
  const fibers = new Map<string, ObjectInfo[]>();
  const fiber = (path: string): ObjectInfo[] => {
    let f = fibers.get(path);
    if (!f) fibers.set(path, (f = source.fiberObjects(path)));
    return f;
  };
  const groups: Group[] = opts.noQuotient ? selected.map((s) => ({ root: s, nested: [] })) : groupNested(selected, infos);
  const groupInputs = groups.map((g) => {
    const obj = texts.get(g.root.position.objectId)!;
    const input = inputFor(g.root.position, obj);
    return groupInput(g, obj, input, opts.noRender ? tok.count(wholeText(input)) : wholeTokens(input, Math.max(opts.objectCap, 0), tok), fiber, recent, used);
  });

  // 4-5. Token authority and rendering; the m-1 separators are reserved first, so they are counted too.
  const m = groupInputs.length;
  const separatorTokens = tok.count(SEPARATOR);
  const reserved = Math.max(0, m - 1) * separatorTokens;
  const available = Math.max(0, B - reserved);
  const fillOn = !opts.noFill && !opts.noQuotient && !opts.noRender;
  const inGroups = new Set(groups.flatMap((g) => [g.root, ...g.nested].map((s) => s.position.key)));
  const further = present.filter((p) => !inGroups.has(p.key));
  const rest = relevant(further, present, opts.slots.core + opts.slots.companion, opts.fillRelevance);
  const admitted = new Set(rest.map((p) => p.key));
  const { steps, rendered, floor } = opts.noRender
    ? cutAtBudget(groupInputs, available, queryTokens, tok)
    : allotByFormula(groupInputs, available, opts, queryTokens, tok, opts.headLines);
  const placed: Placed[] = groupInputs.map((gi, k) => ({
    gi, input: gi.input, rendered: rendered[k], role: gi.group.root.role, allowance: opts.noRender ? steps[k].R : steps[k].result, filled: false,
  }));

  // 5a. Breadth before partial depth: a slot found through structure that b_i cannot show whole starts as its head
  // when further structure-found objects wait for the fill; it grows back within b_obj in step 5c, after them.
  if (fillOn && opts.headLines > 0 && rest.some((p) => p.viaStructure)) for (const b of placed) headFirst(b, opts.headLines, tok);

  // 5b. The fill: what the K slots left goes to further objects in rank order, whole, as outlines or heads.
  const leftover = available - placed.reduce((sum, b) => sum + b.rendered.tokens, 0);
  // Eq. 4's b_obj in the fill too when the query is a question: its answer is uncertain, so breadth before any large block.
  const question = present.some((p) => p.question);
  const fillTexts = new Map<string, ObjectText>();
  const filled = fillOn
    ? fillBudget(further, placed, leftover, {
      infos,
      text: (id) => {
        if (!fillTexts.has(id)) for (const [k, o] of withTexts(texts, [id], source)) fillTexts.set(k, o);
        return fillTexts.get(id);
      },
      fiber,
      separatorTokens,
      headLines: opts.headLines,
      objectCap: opts.objectCap,
      admits: (p) => admitted.has(p.key),
      tok,
      recent,
      question,
      used,
    })
    : null;

  // 5c. Depth: what is still left grows the blocks in order, slots first (never past b_obj, never cut in the fill).
  if (filled) {
    filled.remaining = deepen(placed, filled.remaining, opts.objectCap, (b, allowance) => renderGroup(b.gi, allowance, queryTokens, tok, opts.headLines), tok, opts.headLines, (id) => infos.get(id), question);
    filled.whole = filled.added.filter((b) => b.rendered.outcome === 'whole' && b.input === b.gi.input).length;
    filled.outlines = filled.added.filter((b) => isOutline(b.rendered)).length;
    filled.heads = filled.added.length - filled.whole - filled.outlines;
  }

  // 6. Exact join: the final text is counted and never exceeds B.
  const joined = joinWithinBudget(placed.map((b) => b.rendered), B, tok, (r, k) =>
    isOutline(r) ? shrinkOutline(placed[k].input, r, tok) : shrinkRendered(placed[k].input, r, tok));
  const blocks = joined.parts.flatMap((r, k) => (r.text === '' ? [] : [blockOf(placed[k], r, infos)]));
  const render = joined.parts.map((r, k) => renderTraceOf(k, placed[k], r, placed[k].allowance, joined.shrunk[k], infos));
  const headsOn = opts.headLines > 0 && !opts.noQuotient;
  const structuralFill = filled ? filled.added.filter((b) => b.role === 'interface').length : 0;

  const budget: BudgetTrace = {
    mode: opts.noRender ? 'cut' : 'formula',
    budget: B,
    separatorTokens,
    reserved,
    available,
    objectCap: opts.objectCap,
    floorOption: opts.floor,
    floor,
    m,
    steps,
  };

  return {
    query,
    budget: B,
    tokenizer: tok.name,
    totalTokens: joined.tokens,
    text: joined.text,
    blocks,
    trace: {
      ablations: { noQuotient: opts.noQuotient, noRender: opts.noRender, noFill: opts.noFill },
      queryTokens,
      slots: { ...opts.slots },
      viewsRetrieved: candidates.length,
      objects: ranked.length,
      positions: positionTraces(ranked, placed.flatMap((b) => [b.gi.group.root, ...b.gi.group.nested].map((s) => ({ position: s.position, role: b.role }))), infos, candidates),
      missing,
      companions: selection.companions,
      budget,
      interface: headsOn && filled
        ? { headLines: opts.headLines, leftover, added: structuralFill, skipped: filled.skippedStructural, remaining: filled.remaining }
        : headsOn ? { headLines: opts.headLines, leftover, added: 0, skipped: 0, remaining: leftover } : null,
      fill: filled
        ? {
          leftover, remaining: filled.remaining, whole: filled.whole, outlines: filled.outlines, heads: filled.heads,
          merged: filled.merged, skipped: filled.skipped, notConsidered: filled.notConsidered,
        }
        : null,
      render,
      join: {
        separator: SEPARATOR,
        separatorTokens,
        sumOfParts: joined.sumOfParts,
        joinedTokens: joined.tokens,
        shrunkLines: joined.shrinkSteps,
      },
    },
  };
}
