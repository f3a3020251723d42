/**
 * The object-allocation pipeline (VITAL-RAG): quotient -> core and companion
 * -> token authority -> rendering -> exact join. Pure: everything it reads
 * comes through the ObjectSource; the result carries a full trace.
 */
import type { Candidate } from '../indexer/types.ts';
import { getTokenizer, type Tokenizer, type TokenizerName } from '../indexer/tokenizer.ts';
import { effectiveFloor, tokenAuthority } from './budget.ts';
import { selectSlots } from './companion.ts';
import { normaliseFiber } from './fiber.ts';
import { joinWithinBudget, SEPARATOR } from './join.ts';
import { parseAllocateOptions, type AllocateOptionsInput } from './options.ts';
import { fragments, quotient } from './quotient.ts';
import {
  endLineOf, renderInput, renderWithin, shrinkRendered, wholeText, type Rendered, type RenderInput,
} from './render.ts';
import { terms } from './terms.ts';
import type {
  Allocation, Block, BudgetStep, BudgetTrace, ObjectSource, ObjectText, Position, PositionTrace, RenderTrace,
} from './types.ts';

/** The tokenizer to count with: the one passed, else the options' name; a conflict is an error. */
function resolveTokenizer(tokenizer: Tokenizer | TokenizerName | undefined, options: AllocateOptionsInput, fallback: TokenizerName): Tokenizer {
  const tok = tokenizer === undefined ? getTokenizer(fallback) : typeof tokenizer === 'string' ? getTokenizer(tokenizer) : tokenizer;
  if (options.tokenizer !== undefined && options.tokenizer !== tok.name) {
    throw new Error(`tokenizer conflict: options say ${options.tokenizer}, the tokenizer passed is ${tok.name}`);
  }
  return tok;
}

// Fragment rendering (noQuotient): a view is rendered from its own lines when they lie in the object's file,
// otherwise (callsite/import/testref views live elsewhere) from the object's text.
function inputFor(position: Position, obj: ObjectText): RenderInput {
  const span = position.span;
  if (span && normaliseFiber(span.path) === normaliseFiber(obj.path)) return renderInput(obj, span);
  return renderInput(obj);
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

  // 1-2. Candidates -> positions (quotient, or fragments under the ablation).
  const ranked = opts.noQuotient ? fragments(candidates) : quotient(candidates);
  const ids = [...new Set(ranked.map((p) => p.objectId))];
  const texts = ids.length > 0 ? source.objects(ids) : new Map<string, ObjectText>();
  const present = ranked.filter((p) => texts.has(p.objectId));
  const missing = ids.filter((id) => !texts.has(id));

  // 3. Core and companions.
  const selection = selectSlots(present, texts, queryTokens, opts.slots, source);
  const { selected } = selection;
  const objects = selected.map((s) => selection.texts.get(s.position.objectId)!);
  const inputs = selected.map((s, k) => inputFor(s.position, objects[k]));

  // 4. Token authority (separators between the m blocks are reserved first, so they are counted too).
  const m = inputs.length;
  const d = inputs.map((input) => tok.count(wholeText(input)));
  const separatorTokens = tok.count(SEPARATOR);
  const reserved = Math.max(0, m - 1) * separatorTokens;
  const available = Math.max(0, B - reserved);
  let steps: BudgetStep[];
  let rendered: Rendered[];
  let floor: number;
  if (!opts.noRender) {
    const allowances = tokenAuthority(d, available, opts.objectCap, opts.floor);
    floor = effectiveFloor(available, m, opts.floor);
    steps = allowances.map((a, k) => ({ ...a, objectId: selected[k].position.objectId }));
    // 5. Rendering within each b_i.
    rendered = inputs.map((input, k) => renderWithin(input, allowances[k].result, queryTokens, tok, 'query'));
  } else {
    // Ablation (noRender): no formula, each object from its first line until the budget runs out.
    floor = 0;
    steps = [];
    rendered = [];
    let R = available;
    inputs.forEach((input, k) => {
      const r = renderWithin(input, R, queryTokens, tok, 'start');
      steps.push({ i: k + 1, objectId: selected[k].position.objectId, d: d[k], bObj: null, R, floor: 0, m, result: r.tokens });
      rendered.push(r);
      R -= r.tokens;
    });
  }

  // 6. Exact join.
  const joined = joinWithinBudget(rendered, B, tok, (r, k) => shrinkRendered(inputs[k], r, tok));
  const final = joined.parts;

  const blocks: Block[] = [];
  const render: RenderTrace[] = [];
  final.forEach((r, k) => {
    const input = inputs[k];
    const obj = objects[k];
    const shown = r.window ? [input.startLine + r.window[0], input.startLine + r.window[1]] : [0, 0];
    const { role, position } = selected[k];
    render.push({
      i: k + 1,
      objectId: obj.id,
      object: obj.qualifiedName,
      role,
      allowance: opts.noRender ? steps[k].R : steps[k].result,
      tokens: r.tokens,
      outcome: r.outcome,
      shownStartLine: shown[0],
      shownEndLine: shown[1],
      anchorLine: r.outcome === 'clipped' ? input.startLine + r.anchor : null,
      anchorTokens: r.outcome === 'clipped' ? r.anchorTerms : [],
      shrunkLines: joined.shrunk[k],
    });
    if (r.text === '') return;
    blocks.push({
      path: obj.path,
      object: obj.qualifiedName,
      kind: obj.kind,
      role,
      score: position.score,
      startLine: input.startLine,
      endLine: endLineOf(input),
      shownStartLine: shown[0],
      shownEndLine: shown[1],
      tokens: r.tokens,
      text: r.text,
    });
  });

  const roleOf = new Map(selected.map((s) => [s.position.key, s.role]));
  const nameOf = new Map(candidates.map((c) => [c.objectId, c.objectName]));
  const positions: PositionTrace[] = ranked.map((p) => ({
    rank: p.rank,
    objectId: p.objectId,
    name: texts.get(p.objectId)?.qualifiedName ?? nameOf.get(p.objectId) ?? p.objectId,
    path: p.fiber,
    score: p.score,
    views: p.views.map((v) => ({ viewId: v.viewId, kind: v.kind, score: v.score })),
    role: roleOf.get(p.key) ?? null,
  }));

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
      positions,
      missing,
      companions: selection.companions,
      budget,
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
