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
import { headInput, interfaceFill, type InterfaceFill } from './head.ts';
import { fragments, quotient } from './quotient.ts';
import {
  endLineOf, renderInput, renderWithin, shrinkRendered, wholeText, type Rendered, type RenderInput,
} from './render.ts';
import { terms } from './terms.ts';
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

// Token-authority + rendering rules: each object gets b_i from the formula and renders its best window within it
// (a head grows from its declaration down, any other object around its best-matching line).
function allotByFormula(inputs: RenderInput[], heads: boolean[], d: number[], ids: string[], available: number, opts: AllocateOptions, queryTokens: string[], tok: Tokenizer): Allotted {
  const allowances = tokenAuthority(d, available, opts.objectCap, opts.floor);
  return {
    steps: allowances.map((a, k) => ({ ...a, objectId: ids[k] })),
    rendered: inputs.map((input, k) =>
      renderWithin(input, allowances[k].result, queryTokens, tok, { wholeTokens: d[k], from: heads[k] ? 'start' : 'query' })),
    floor: effectiveFloor(available, inputs.length, opts.floor),
  };
}

// Ablation (noRender): no formula; each object whole from its first line, the object where the budget runs out is
// cut at that line, and nothing follows it.
function cutAtBudget(inputs: RenderInput[], d: number[], ids: string[], available: number, queryTokens: string[], tok: Tokenizer): Allotted {
  const steps: BudgetStep[] = [];
  const rendered: Rendered[] = [];
  let R = available;
  inputs.forEach((input, k) => {
    const r = renderWithin(input, R, queryTokens, tok, { from: 'start', wholeTokens: d[k] });
    steps.push({ i: k + 1, objectId: ids[k], d: d[k], bObj: null, R, floor: 0, m: inputs.length, result: r.tokens });
    rendered.push(r);
    R = r.outcome === 'whole' ? R - r.tokens : 0;
  });
  return { steps, rendered, floor: 0 };
}

const shownLines = (input: RenderInput, r: Rendered): [number, number] =>
  r.window ? [input.startLine + r.window[0], input.startLine + r.window[1]] : [0, 0];

function blockOf(input: RenderInput, obj: ObjectText, s: Selected, r: Rendered): Block {
  const [shownStartLine, shownEndLine] = shownLines(input, r);
  return {
    path: obj.path,
    object: obj.qualifiedName,
    kind: obj.kind,
    role: s.role,
    score: s.position.score,
    startLine: input.of?.startLine ?? input.startLine,
    endLine: input.of?.endLine ?? endLineOf(input),
    shownStartLine,
    shownEndLine,
    tokens: r.tokens,
    text: r.text,
  };
}

function renderTraceOf(k: number, input: RenderInput, obj: ObjectText, s: Selected, r: Rendered, allowance: number, shrunkLines: number): RenderTrace {
  const [shownStartLine, shownEndLine] = shownLines(input, r);
  const clipped = r.outcome === 'clipped';
  return {
    i: k + 1,
    objectId: obj.id,
    object: obj.qualifiedName,
    role: s.role,
    allowance,
    tokens: r.tokens,
    outcome: r.outcome,
    shownStartLine,
    shownEndLine,
    anchorLine: clipped ? input.startLine + r.anchor : null,
    anchorTokens: clipped ? r.anchorTerms : [],
    shrunkLines,
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
  const objects = selected.map((s) => texts.get(s.position.objectId)!);
  const headsOn = opts.headLines > 0 && !opts.noQuotient;
  const heads = selected.map((s) => headsOn && s.position.viaStructure === true);
  const inputs = selected.map((s, k) => (heads[k] ? headInput(objects[k], opts.headLines) : inputFor(s.position, objects[k])));
  const objectIds = objects.map((o) => o.id);

  // 4-5. Token authority and rendering; the m-1 separators are reserved first, so they are counted too.
  const m = inputs.length;
  const d = inputs.map((input) => tok.count(wholeText(input)));
  const separatorTokens = tok.count(SEPARATOR);
  const reserved = Math.max(0, m - 1) * separatorTokens;
  const available = Math.max(0, B - reserved);
  const { steps, rendered, floor } = opts.noRender
    ? cutAtBudget(inputs, d, objectIds, available, queryTokens, tok)
    : allotByFormula(inputs, heads, d, objectIds, available, opts, queryTokens, tok);

  // 5b. Interface fill: what the K slots left lists the heads of further objects found through structure.
  const chosen = new Set(selected.map((s) => s.position.key));
  const rest = present.filter((p) => !chosen.has(p.key) && p.viaStructure);
  const fillTexts = headsOn && rest.length ? withTexts(infos, rest.map((p) => p.objectId), source) : new Map<string, ObjectText>();
  const fill: InterfaceFill | null = headsOn
    ? interfaceFill(rest, fillTexts, available - rendered.reduce((sum, r) => sum + r.tokens, 0), separatorTokens, opts.headLines, tok)
    : null;
  const all: Selected[] = [...selected, ...(fill?.added ?? []).map((h) => ({ position: h.position, role: 'interface' as const }))];
  const allObjects = [...objects, ...(fill?.added ?? []).map((h) => fillTexts.get(h.position.objectId)!)];
  const allInputs = [...inputs, ...(fill?.added ?? []).map((h) => h.input)];
  const allRendered = [...rendered, ...(fill?.added ?? []).map((h) => h.rendered)];
  const allowance = (k: number): number => (k >= m ? allRendered[k].tokens : opts.noRender ? steps[k].R : steps[k].result);

  // 6. Exact join: the final text is counted and never exceeds B.
  const joined = joinWithinBudget(allRendered, B, tok, (r, k) => shrinkRendered(allInputs[k], r, tok));
  const blocks = joined.parts.flatMap((r, k) => (r.text === '' ? [] : [blockOf(allInputs[k], allObjects[k], all[k], r)]));
  const render = joined.parts.map((r, k) => renderTraceOf(k, allInputs[k], allObjects[k], all[k], r, allowance(k), joined.shrunk[k]));

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
      ablations: { noQuotient: opts.noQuotient, noRender: opts.noRender },
      queryTokens,
      slots: { ...opts.slots },
      viewsRetrieved: candidates.length,
      objects: ranked.length,
      positions: positionTraces(ranked, all, infos, candidates),
      missing,
      companions: selection.companions,
      budget,
      interface: fill
        ? { headLines: opts.headLines, leftover: fill.leftover, added: fill.added.length, skipped: fill.skipped, remaining: fill.remaining }
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
