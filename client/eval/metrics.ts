/**
 * The metrics of `allot eval`, as pure functions over rendered contexts.
 *
 * Cross-file (RepoBench setting, as in VITAL-RAG):
 * - Recall@K: the gold object is among the allocated objects: some block has the gold path and a line span
 *   overlapping the gold span (a descriptor-only block counts: the object was allocated).
 * - Recall@B: every gold line appears verbatim in the rendered context, comparing lines with trailing whitespace
 *   (and so CR) stripped. Gold lines that are blank after stripping are not required.
 * - ΔRecall = Recall@K - Recall@B: what rendering within the budget lost.
 *
 * Issues (SWE-bench setting, as in CQ2-CARE): which gold files the context shows whole, and what share of the
 * context's lines are verbatim repository lines and lines of gold files.
 */

export interface Span {
  path: string;
  startLine: number;
  endLine: number;
}

/** A line as compared: trailing whitespace (spaces, tabs, CR) removed; leading indentation kept. */
export function normalizeLine(line: string): string {
  return line.replace(/\s+$/, '');
}

/** Lines of a text (LF or CRLF), normalised. */
export function normalizedLines(text: string): string[] {
  return text.split('\n').map(normalizeLine);
}

export function spansOverlap(a: Span, b: Span): boolean {
  return a.path === b.path && a.startLine <= b.endLine && b.startLine <= a.endLine;
}

/** Recall@K for one task: some allocated block lies in the gold file and overlaps the gold span. */
export function recallAtK(blocks: readonly Span[], gold: Span): boolean {
  return blocks.some((b) => spansOverlap(b, gold));
}

export interface VerbatimCheck {
  /** Every required gold line is in the context. */
  all: boolean;
  /** Required gold lines found. */
  found: number;
  /** Required gold lines (non-blank). */
  required: number;
}

/**
 * Recall@B for one task: each non-blank gold line, normalised, must be one of the context's normalised lines.
 * @example verbatimLines(['def f():', '    return 1'], 'x\r\ndef f():  \n    return 1').all // true
 */
export function verbatimLines(goldLines: readonly string[], context: string): VerbatimCheck {
  const have = new Set(normalizedLines(context));
  let found = 0;
  let required = 0;
  for (const g of goldLines) {
    const n = normalizeLine(g);
    if (n === '') continue;
    required++;
    if (have.has(n)) found++;
  }
  return { all: found === required, found, required };
}

/** Lines `startLine..endLine` (1-based, inclusive) of a file's text. */
export function linesOf(text: string, startLine: number, endLine: number): string[] {
  return text.split('\n').slice(startLine - 1, endLine).map((l) => l.replace(/\r$/, ''));
}

/** A block of an issue context: where it claims its text comes from, and the text. */
export interface ContextBlock extends Span {
  text: string;
}

export interface IssueMetrics {
  /** Share of gold files shown whole (every line of the file inside some block's span of that path). */
  goldFileRecall: number;
  /** Every gold file shown whole. */
  allGold: boolean;
  /** No gold file shown at all (not even in part). */
  noGold: boolean;
  /** Share of gold files with at least one block. */
  goldFileTouched: number;
  /** Of the context's non-blank lines: the share that are verbatim lines of a gold file (at the block's span); null for an empty context. */
  goldLineShare: number | null;
  /** Of the context's non-blank lines: the share that are verbatim repository lines (at the block's span); null for an empty context. */
  verbatimShare: number | null;
  /** Non-blank context lines. */
  contextLines: number;
}

/**
 * Issue metrics for one context. `repoText(path)` gives a file's text at the task's commit (null when absent);
 * a context line is verbatim when it equals (normalised) a line of its block's file within the block's span;
 * descriptors and anything else a method adds are context lines that are not verbatim. When the whole rendered
 * `context` is given, its non-blank lines beyond those of the blocks' texts (headers a renderer puts outside
 * the blocks) count as context lines too.
 */
export function issueMetrics(
  blocks: readonly ContextBlock[],
  goldFiles: readonly string[],
  repoText: (path: string) => string | null,
  context?: string,
): IssueMetrics {
  const gold = new Set(goldFiles);
  const fileLines = new Map<string, string[] | null>();
  const linesFor = (p: string) => {
    if (!fileLines.has(p)) {
      const t = repoText(p);
      const lines = t === null ? null : t.split('\n').map(normalizeLine);
      if (lines && lines.length > 1 && lines.at(-1) === '') lines.pop();
      fileLines.set(p, lines);
    }
    return fileLines.get(p)!;
  };
  let contextLines = 0;
  let verbatim = 0;
  let inGold = 0;
  for (const b of blocks) {
    const file = linesFor(b.path);
    const span = new Set(file ? file.slice(Math.max(0, b.startLine - 1), Math.max(0, b.endLine)) : []);
    for (const l of normalizedLines(b.text)) {
      if (l === '') continue;
      contextLines++;
      if (span.has(l)) {
        verbatim++;
        if (gold.has(b.path)) inGold++;
      }
    }
  }
  if (context !== undefined) contextLines = Math.max(contextLines, normalizedLines(context).filter((l) => l !== '').length);
  let whole = 0;
  let touched = 0;
  for (const g of gold) {
    const spans = blocks.filter((b) => b.path === g);
    if (spans.length) touched++;
    const n = linesFor(g)?.length ?? 0;
    if (spans.length && covers(spans, n)) whole++;
  }
  const nGold = gold.size || 1;
  return {
    goldFileRecall: whole / nGold,
    allGold: whole === gold.size,
    noGold: touched === 0,
    goldFileTouched: touched / nGold,
    goldLineShare: contextLines ? inGold / contextLines : null,
    verbatimShare: contextLines ? verbatim / contextLines : null,
    contextLines,
  };
}

/** Whether the spans together cover lines 1..n. */
export function covers(spans: readonly { startLine: number; endLine: number }[], n: number): boolean {
  const sorted = [...spans].sort((a, b) => a.startLine - b.startLine);
  let next = 1;
  for (const s of sorted) {
    if (s.startLine > next) return false;
    next = Math.max(next, s.endLine + 1);
  }
  return next > n;
}

/** Prose metrics: what a context for an issue shows of the lines its fix edits. */
export interface ProseMetrics {
  /** Some block shows a line of a gold file. */
  goldFileShown: boolean;
  /** Some block shows a line the gold patch edits (old side). */
  editedLineShown: boolean;
  /** Every hunk of the gold patch has an edited line shown. */
  allHunksShown: boolean;
  /** Share of the gold patch's hunks with an edited line shown. */
  hunkRecall: number;
  hunks: number;
}

/**
 * The prose metrics of one context. A line counts as shown when a block of its file spans it and the block's text
 * holds the line verbatim (normalised), so a rendering that elides lines inside its span (an outline) is not
 * credited with what it left out; a blank edited line counts when spanned. `goldFiles` are the files the fix
 * modified; `edits` its old-side hunks (`goldEdits`).
 */
export function proseMetrics(
  blocks: readonly ContextBlock[],
  goldFiles: readonly string[],
  edits: readonly { path: string; hunks: readonly { lines: readonly number[] }[] }[],
  repoText: (path: string) => string | null,
): ProseMetrics {
  const shownBy = (b: ContextBlock) => new Set(normalizedLines(b.text));
  const byPath = new Map<string, { block: ContextBlock; lines: Set<string> }[]>();
  for (const b of blocks) {
    if (b.startLine <= 0 || !b.text) continue;
    const list = byPath.get(b.path) ?? byPath.set(b.path, []).get(b.path)!;
    list.push({ block: b, lines: shownBy(b) });
  }
  const fileLines = new Map<string, string[]>();
  const lineOf = (p: string, n: number) => {
    if (!fileLines.has(p)) fileLines.set(p, (repoText(p) ?? '').split('\n').map(normalizeLine));
    return fileLines.get(p)![n - 1];
  };
  const shown = (p: string, n: number) => {
    const want = lineOf(p, n);
    return (byPath.get(p) ?? []).some(({ block, lines }) =>
      block.startLine <= n && n <= block.endLine && (want === undefined || want === '' || lines.has(want)));
  };
  let hunks = 0;
  let hit = 0;
  for (const f of edits) {
    for (const h of f.hunks) {
      hunks++;
      if (h.lines.some((n) => shown(f.path, n))) hit++;
    }
  }
  return {
    goldFileShown: goldFiles.some((g) => byPath.has(g)),
    editedLineShown: hit > 0,
    allHunksShown: hunks > 0 && hit === hunks,
    hunkRecall: hunks ? hit / hunks : 0,
    hunks,
  };
}
