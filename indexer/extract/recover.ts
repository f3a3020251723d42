import type { SyntaxMatch as QueryMatch, SyntaxNode as Node, SyntaxRange as Range, SyntaxTree as Tree } from '../types.ts';
import type { LoadedLanguage } from '../languages/registry.ts';
import type { ParseBudget } from './parse-budget.ts';
import type { SourceLines } from './source.ts';

/** At most this many separate re-parses per file: past it, neighbouring chunks are parsed together. */
const MAX_CHUNKS = 256;

/** A line that can start a top-level declaration: at column 0, not closing a bracket or continuing an expression. */
const DECLARATION_START = /^[^\s})\],.|&+=?:>]/;
/** Column-0 lines that belong to the declaration after them: comments, decorators, attributes. */
const ATTACHED = /^(@|#\[|\/\/|\/\*|\*|--|#|;|\(\*)/;

export interface Recovered {
  /** Query matches of the whole file: the first parse's, with those of broken regions replaced by their chunks'. */
  matches: QueryMatch[];
  /** Trees of the re-parsed chunks: the caller deletes them after use. */
  trees: Tree[];
}

/**
 * Error recovery: a syntax error never loses the declarations after it.
 * tree-sitter sometimes lets one ERROR node swallow the rest of a file (a
 * TypeScript generic call signature inside an interface does). Each run of
 * top-level nodes that contain errors is split at the lines that can start a
 * declaration, and each chunk is parsed on its own (`includedRanges`, so
 * positions stay those of the file); its matches replace the first parse's.
 * `text` is what was parsed (the file, or its repair of the same length).
 */
export function recoverMatches(lang: LoadedLanguage, text: string, src: SourceLines, root: Node, budget: ParseBudget): Recovered {
  const first = lang.query.matches(root);
  if (!root.hasError) return { matches: first, trees: [] };
  const regions = brokenRegions(root);
  const split = regions.map((r) => splitRegion(src, r));
  // A region with no line to cut at would parse the same way again.
  if (split.every((chunks) => chunks.length < 2)) return { matches: first, trees: [] };
  const perRegion = Math.max(1, Math.floor(MAX_CHUNKS / regions.length));
  const merged = split.flatMap((chunks) => mergeChunks(chunks, perRegion));
  const inRegion = (at: number) => regions.some((r) => at >= r.startIndex && at < r.endIndex);
  const matches = first.filter((m) => !inRegion(matchStart(m)));
  const trees: Tree[] = [];
  for (const range of merged) {
    if (budget.exhausted()) break;
    lang.parser.reset();
    const tree = lang.parser.parse(text, null, { includedRanges: [range], progressCallback: budget.progress });
    if (!tree) break;
    trees.push(tree);
    for (const m of lang.query.matches(tree.rootNode)) {
      const at = matchStart(m);
      if (at >= range.startIndex && at < range.endIndex) matches.push(m);
    }
  }
  return { matches, trees };
}

function matchStart(m: QueryMatch): number {
  let at = Infinity;
  for (const c of m.captures) if (c.node.startIndex < at) at = c.node.startIndex;
  return at;
}

/**
 * Open naming scopes whose bodies hold top-level declarations (C++ `namespace x {`, `extern "C" {`): an error
 * inside one is looked for among the body's declarations, so one broken declaration does not re-parse the file.
 */
const SCOPES = new Set(['namespace_definition', 'linkage_specification']);

/** Runs of consecutive top-level nodes holding an ERROR or MISSING node, as ranges (inside open naming scopes, of their declarations). */
function brokenRegions(root: Node): Range[] {
  const out: Range[] = [];
  let open: Range | undefined;
  for (const child of root.children) {
    const body = SCOPES.has(child.type) && !child.isError && !child.isMissing ? child.childForFieldName('body') : null;
    if (body && body.hasError && !body.isError && !body.isMissing) {
      if (open) out.push(open);
      open = undefined;
      out.push(...brokenRegions(body));
      continue;
    }
    if (child.hasError || child.isError || child.isMissing) {
      if (open) open = { startIndex: open.startIndex, startPosition: open.startPosition, endIndex: child.endIndex, endPosition: child.endPosition };
      else open = { startIndex: child.startIndex, startPosition: child.startPosition, endIndex: child.endIndex, endPosition: child.endPosition };
    } else if (open) {
      out.push(open);
      open = undefined;
    }
  }
  if (open) out.push(open);
  return out;
}

/** A region cut before each line that can start a declaration (with the comments and decorators above it). */
function splitRegion(src: SourceLines, region: Range): Range[] {
  const firstRow = region.startPosition.row;
  const lastRow = region.endPosition.row;
  const starts: number[] = [];
  for (let row = firstRow + 1; row <= lastRow; row++) {
    if (!DECLARATION_START.test(src.lines[row] ?? '') || ATTACHED.test(src.lines[row]) || continues(src.lines, row)) continue;
    let s = row;
    while (s - 1 > firstRow && ATTACHED.test(src.lines[s - 1] ?? '')) s--;
    if (s > (starts.at(-1) ?? firstRow)) starts.push(s);
  }
  if (starts.length === 0) return [region];
  const offsets = lineOffsets(src, firstRow, lastRow);
  const cuts = [region.startIndex, ...starts.map((r) => offsets(r)), region.endIndex];
  const rows = [region.startPosition, ...starts.map((r) => ({ row: r, column: 0 })), region.endPosition];
  const out: Range[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    if (cuts[i + 1] > cuts[i]) out.push({ startIndex: cuts[i], startPosition: rows[i], endIndex: cuts[i + 1], endPosition: rows[i + 1] });
  }
  return out;
}

/**
 * A column-0 line that goes on with the line before: that line is at column 0 too, touches it and
 * ends with no terminator (C's `static inline int` above `name(args) {`).
 */
function continues(lines: string[], row: number): boolean {
  const prev = lines[row - 1] ?? '';
  return prev.trim() !== '' && !/^\s/.test(prev) && !ATTACHED.test(prev) && !/[;})\]]\s*$|\*\/\s*$/.test(prev);
}

/** UTF-16 offset of the start of each row in [first, last]. */
function lineOffsets(src: SourceLines, first: number, last: number): (row: number) => number {
  let at = 0;
  for (let i = 0; i < first; i++) at = src.text.indexOf('\n', at) + 1;
  const table = new Map<number, number>([[first, at]]);
  for (let row = first + 1; row <= last; row++) {
    at = src.text.indexOf('\n', at) + 1;
    table.set(row, at);
  }
  return (row) => table.get(row)!;
}

/** At most `max` ranges: neighbours joined in equal groups. */
function mergeChunks(chunks: Range[], max: number): Range[] {
  if (chunks.length <= max) return chunks;
  const per = Math.ceil(chunks.length / max);
  const out: Range[] = [];
  for (let i = 0; i < chunks.length; i += per) {
    const group = chunks.slice(i, i + per);
    out.push({ ...group[0], endIndex: group.at(-1)!.endIndex, endPosition: group.at(-1)!.endPosition });
  }
  return out;
}
