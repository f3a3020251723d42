/**
 * Rendering: one object becomes a descriptor line followed by the largest
 * line-complete window of its source that fits its allowance, grown around the
 * line that best matches the query. Source lines are never re-indented or cut.
 */
import type { Tokenizer } from '../indexer/tokenizer.ts';
import { sharedTerms } from './terms.ts';
import type { ObjectText } from './types.ts';

/** What one block is rendered from. `lines[0]` is line `startLine`. */
export interface RenderInput {
  path: string;
  qualifiedName: string;
  signature: string;
  startLine: number;
  lines: string[];
  /** The whole object's lines when `lines` are only a part of it (a head): the descriptor names both ranges. */
  of?: { startLine: number; endLine: number };
  /** The object's first line (its declaration), also when `lines` are a span of it that starts later. */
  declarationLine?: number;
}

/** `outline`: a class or module shown as its declaration, members' signatures and touched members (see outline.ts). */
export type RenderOutcome = 'whole' | 'clipped' | 'outline' | 'descriptor only' | 'empty: descriptor does not fit';

export interface Rendered {
  text: string;
  /** Exact tokens of `text`. */
  tokens: number;
  /** Shown lines as inclusive indices into `lines`; null when no line is shown. */
  window: [number, number] | null;
  /** Index of the line the window grows around. */
  anchor: number;
  /** Query terms on the anchor line. */
  anchorTerms: string[];
  outcome: RenderOutcome;
}

/** Signatures longer than this are shortened in the descriptor (the source itself is never cut). */
export const MAX_SIGNATURE_CHARS = 200;

/**
 * Splits source into lines as given: CRLF or LF, each line verbatim. One
 * trailing empty line (from a final newline) is dropped when the text has more
 * lines than the object declares.
 */
export function sourceLines(text: string, declaredCount = Infinity): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines.length > declaredCount && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The render input of a whole object, or of the lines `span` of it (clamped to the object). */
export function renderInput(obj: ObjectText, span: { startLine: number; endLine: number } | null = null): RenderInput {
  const lines = obj.lines ? [...obj.lines] : sourceLines(obj.text, obj.endLine - obj.startLine + 1);
  const base = { path: obj.path, qualifiedName: obj.qualifiedName, signature: obj.signature, declarationLine: obj.startLine };
  if (!span) return { ...base, startLine: obj.startLine, lines };
  const lastLine = obj.startLine + lines.length - 1;
  const from = Math.max(span.startLine, obj.startLine);
  const to = Math.min(span.endLine, lastLine);
  if (from > to) return { ...base, startLine: obj.startLine, lines };
  return { ...base, startLine: from, lines: lines.slice(from - obj.startLine, to - obj.startLine + 1) };
}

export const endLineOf = (input: RenderInput): number => input.startLine + input.lines.length - 1;

function oneLine(signature: string): string {
  const s = signature.replace(/\s+/g, ' ').trim();
  return s.length > MAX_SIGNATURE_CHARS ? `${s.slice(0, MAX_SIGNATURE_CHARS - 3)}...` : s;
}

/** The line an input's object is declared on. */
export const declarationOf = (input: RenderInput): number => input.declarationLine ?? (input.of ?? input).startLine;

/**
 * The descriptor line: path and shown lines, qualified name, and the signature unless the block shows the object's
 * first line (its declaration), which would then be there twice (no repository line twice in one context).
 * @param declarationShown whether the shown lines hold the object's first line (default: the window starts there)
 * @example '### src/a.ts:120-164 of 80-310 | Parser.parse | parse(text: string): Tree'
 */
export function descriptor(input: RenderInput, window: [number, number] | null, declarationShown = window !== null && input.startLine + window[0] === declarationOf(input)): string {
  const s = input.startLine;
  const e = endLineOf(input);
  const whole = input.of ?? { startLine: s, endLine: e };
  const partOf = (from: number, to: number): string =>
    from === whole.startLine && to === whole.endLine ? `${from}-${to}` : `${from}-${to} of ${whole.startLine}-${whole.endLine}`;
  let range: string;
  if (!window) range = `${whole.startLine}-${whole.endLine} (source omitted)`;
  else range = partOf(s + window[0], s + window[1]);
  let head = `### ${input.path}:${range}`;
  if (input.qualifiedName) head += ` | ${input.qualifiedName}`;
  const sig = declarationShown ? '' : oneLine(input.signature);
  if (sig) head += ` | ${sig}`;
  return head;
}

/** The block text for a window (null: descriptor only). */
export function blockText(input: RenderInput, window: [number, number] | null): string {
  const head = descriptor(input, window);
  return window ? `${head}\n${input.lines.slice(window[0], window[1] + 1).join('\n')}` : head;
}

/** The unclipped rendering (descriptor + whole source), whose length is d_i. */
export function wholeText(input: RenderInput): string {
  return blockText(input, [0, input.lines.length - 1]);
}

/**
 * d_i, exact when the object may fit `limit`; when it cannot (more non-blank lines than `limit`, every such line
 * costing a token; or more than MAX_CHARS_PER_TOKEN characters per token of `limit`), an estimate above `limit`. A module of thousands of lines is never encoded to
 * learn that it does not fit.
 */
export function wholeTokens(input: RenderInput, limit: number, tokenizer: Tokenizer): number {
  let nonBlank = 0;
  let chars = 0;
  for (const line of input.lines) {
    chars += line.length + 1;
    if (line.trim()) nonBlank++;
  }
  if (nonBlank > limit) return nonBlank;
  // Source code runs at 3-4 characters a token; past MAX_CHARS_PER_TOKEN a text is taken not to fit unencoded.
  if (chars > (limit + 1) * MAX_CHARS_PER_TOKEN) return Math.ceil(chars / MAX_CHARS_PER_TOKEN);
  return tokenizer.count(wholeText(input));
}

/**
 * A compact form (the fill's head of an object, an outline's listing of a member) stands for an object only when
 * the whole is more than this many times as large: a compact form that saves less than half costs the reader the
 * rest of the object for little breadth.
 */
export const WHOLE_OVER_COMPACT = 2;

/** The whole's tokens when it stands instead of a compact form of `compactTokens` (WHOLE_OVER_COMPACT): within `room`, else null. */
export function wholeInsteadOf(input: RenderInput, compactTokens: number, room: number, tokenizer: Tokenizer): number | null {
  const limit = Math.min(room, WHOLE_OVER_COMPACT * compactTokens);
  const d = wholeTokens(input, limit, tokenizer);
  return d <= limit ? d : null;
}

/** Characters per token above which a text is judged too long to fit without encoding it (code averages 3-4). */
export const MAX_CHARS_PER_TOKEN = 12;

/**
 * The whole rendering when it fits `room`, counted exactly against that room: a d_i estimated against a smaller
 * limit (`wholeTokens` above it) is never taken for the exact count, which would clip the block at the join.
 */
export function wholeWithin(input: RenderInput, room: number, tokenizer: Tokenizer): Rendered | null {
  const d = wholeTokens(input, room, tokenizer);
  return d <= room ? wholeRendered(input, d) : null;
}

/** The whole rendering of an object whose d_i is already known (exact). */
export function wholeRendered(input: RenderInput, tokens: number): Rendered {
  return { text: wholeText(input), tokens, window: [0, input.lines.length - 1], anchor: 0, anchorTerms: [], outcome: 'whole' };
}

// Window-centre rule: lines are scored by how many distinct query terms they contain; the first best line wins,
// and with no match the window starts at the object's first line (its declaration).
export function anchorLine(lines: readonly string[], queryTerms: readonly string[]): { index: number; terms: string[] } {
  let best = { index: 0, terms: [] as string[] };
  if (queryTerms.length === 0) return best;
  lines.forEach((line, index) => {
    const found = sharedTerms(queryTerms, line);
    if (found.length > best.terms.length) best = { index, terms: found };
  });
  return best;
}

// Growth rule: extend the window around the anchor alternately up and down while it fits; a direction that no
// longer fits is closed, the other keeps growing.
function grow(
  window: [number, number],
  n: number,
  fits: (lo: number, hi: number) => boolean,
  downOnly: boolean,
): [number, number] {
  let [lo, hi] = window;
  let up = !downOnly;
  let down = true;
  let turn: 'up' | 'down' = up ? 'up' : 'down';
  while (up || down) {
    if (turn === 'up' && up) {
      if (lo > 0 && fits(lo - 1, hi)) lo--;
      else up = false;
    } else if (turn === 'down' && down) {
      if (hi < n - 1 && fits(lo, hi + 1)) hi++;
      else down = false;
    }
    turn = turn === 'up' ? 'down' : 'up';
  }
  return [lo, hi];
}

/** Renders a fixed window (null: descriptor only; 'empty': nothing). */
export function renderWindow(
  input: RenderInput,
  window: [number, number] | null | 'empty',
  tokenizer: Tokenizer,
  anchor = 0,
  anchorTerms: string[] = [],
): Rendered {
  if (window === 'empty') {
    return { text: '', tokens: 0, window: null, anchor, anchorTerms, outcome: 'empty: descriptor does not fit' };
  }
  const text = blockText(input, window);
  const whole = window !== null && window[0] === 0 && window[1] === input.lines.length - 1;
  return {
    text,
    tokens: tokenizer.count(text),
    window,
    anchor,
    anchorTerms,
    outcome: window === null ? 'descriptor only' : whole ? 'whole' : 'clipped',
  };
}

export interface RenderWithinOptions {
  /** `query` grows around the best-matching line; `start` takes the object from its first line down. */
  from?: 'query' | 'start';
  /** Tokens of the whole rendering when already known (d_i), to spare counting it again. */
  wholeTokens?: number;
}

/**
 * Renders the largest line-complete window that fits `allowance` tokens.
 * Token counts are exact: growth first uses the sum of per-line counts (cheap,
 * close), calibrated against a few exact counts of the whole block, and ends
 * with exact line-by-line steps.
 */
export function renderWithin(
  input: RenderInput,
  allowance: number,
  queryTerms: readonly string[],
  tokenizer: Tokenizer,
  { from = 'query', wholeTokens }: RenderWithinOptions = {},
): Rendered {
  const n = input.lines.length;
  const all: [number, number] = [0, n - 1];
  if (wholeTokens !== undefined && wholeTokens <= allowance) {
    return { text: blockText(input, all), tokens: wholeTokens, window: all, anchor: 0, anchorTerms: [], outcome: 'whole' };
  }
  if (wholeTokens === undefined) {
    const whole = renderWindow(input, all, tokenizer);
    if (whole.tokens <= allowance) return whole;
  }
  const { index: anchor, terms: anchorTerms } =
    from === 'query' ? anchorLine(input.lines, queryTerms) : { index: 0, terms: [] };
  const descOnly = renderWindow(input, null, tokenizer, anchor, anchorTerms);
  if (descOnly.tokens > allowance) return renderWindow(input, 'empty', tokenizer, anchor, anchorTerms);

  const exact = (lo: number, hi: number): number => tokenizer.count(blockText(input, [lo, hi]));
  const estimate = lineEstimate(input, tokenizer);

  const downOnly = from === 'start';
  // Calibrate: scale the estimate by exact/estimate of the current window, so that exact counts (costly on large
  // objects) are needed only a few times, not once per line.
  let ratio = 1;
  const scaledFits = (lo: number, hi: number): boolean => estimate(lo, hi) * ratio <= allowance;
  let window = grow([anchor, anchor], n, scaledFits, downOnly);
  for (let round = 0; round < CALIBRATION_ROUNDS; round++) {
    const e = exact(window[0], window[1]);
    ratio = e / Math.max(1, estimate(window[0], window[1]));
    let next = window;
    if (e > allowance) while (next[0] < next[1] && !scaledFits(next[0], next[1])) next = shrinkWindow(next, anchor);
    else next = grow(window, n, scaledFits, downOnly);
    if (next[0] === window[0] && next[1] === window[1]) break;
    window = next;
  }
  // Exact from here: drop the line farthest from the anchor until the block fits, then grow while it fits.
  while (exact(window[0], window[1]) > allowance) {
    if (window[0] === window[1]) return descOnly;
    window = shrinkWindow(window, anchor);
  }
  window = grow(window, n, (lo, hi) => exact(lo, hi) <= allowance, downOnly);
  return renderWindow(input, window, tokenizer, anchor, anchorTerms);
}

/**
 * Estimated tokens of a window's block: the descriptor's exact count plus, per
 * line, what '\n' + line costs alone (joining rarely adds tokens). Line costs
 * are computed on demand and the window sum is updated incrementally, since
 * growth moves one line at a time.
 */
function lineEstimate(input: RenderInput, tokenizer: Tokenizer): (lo: number, hi: number) => number {
  const cost: number[] = [];
  const lineCost = (j: number): number => (cost[j] ??= tokenizer.count(`\n${input.lines[j]}`));
  let lo = 0;
  let hi = -1;
  let sum = 0;
  return (a, b) => {
    if (a > hi || b < lo) { lo = a; hi = a - 1; sum = 0; } // disjoint: start over
    while (lo > a) sum += lineCost(--lo);
    while (lo < a) sum -= lineCost(lo++);
    while (hi < b) sum += lineCost(++hi);
    while (hi > b) sum -= lineCost(hi--);
    return tokenizer.count(descriptor(input, [a, b])) + sum;
  };
}

/** Estimate-correction rounds before the final line-by-line exact steps. */
const CALIBRATION_ROUNDS = 4;

/** The window minus the line farthest from the anchor (the bottom one on a tie). */
export function shrinkWindow(window: [number, number], anchor: number): [number, number] {
  const [lo, hi] = window;
  return hi - anchor >= anchor - lo ? [lo, hi - 1] : [lo + 1, hi];
}

/** One step smaller: one line fewer, then descriptor only, then nothing. */
export function shrinkRendered(input: RenderInput, r: Rendered, tokenizer: Tokenizer): Rendered {
  if (r.window && r.window[0] < r.window[1]) {
    const anchor = Math.min(Math.max(r.anchor, r.window[0]), r.window[1]);
    return renderWindow(input, shrinkWindow(r.window, anchor), tokenizer, r.anchor, r.anchorTerms);
  }
  if (r.window) return renderWindow(input, null, tokenizer, r.anchor, r.anchorTerms);
  return renderWindow(input, 'empty', tokenizer, r.anchor, r.anchorTerms);
}
