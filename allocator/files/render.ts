/**
 * Rendering of `allot files`: chosen files whole and verbatim, then evidence
 * spans, each under a header with its path and line range; a block that does
 * not fit is skipped whole, never cut.
 */
import type { Tokenizer } from '../../indexer/tokenizer.ts';
import type { BlockRole, FileBlock, FileContent, FileSource, FileUnavailable, LineSpan, SkippedBlock } from './types.ts';

export const DEFAULT_FILES_BUDGET = 80_000;
/** The most one whole file may take. */
export const FILE_CAP = 60_000;
/** The most one evidence span may take. */
export const SPAN_CAP = 12_000;

/** What to render, in order. */
export interface BlockRequest extends Partial<LineSpan> {
  path: string;
  role: BlockRole;
  /** For evidence: the search that found it. */
  search?: string;
}

export interface Rendering {
  blocks: FileBlock[];
  skipped: SkippedBlock[];
  text: string;
  totalTokens: number;
  warnings: string[];
}

export interface RenderOptions {
  budget: number;
  fileCap?: number;
  spanCap?: number;
}

const isUnavailable = (c: FileContent | FileUnavailable): c is FileUnavailable => 'reason' in c;

/**
 * Lines startLine..endLine of a text, verbatim: each line keeps its own
 * terminator (`\n` or `\r\n`), the last line of the file keeps its absence of one.
 */
export function sliceLines(text: string, startLine: number, endLine: number): string {
  let line = 1;
  let start = startLine <= 1 ? 0 : -1;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) !== 10) continue;
    line++;
    if (line === startLine) start = i + 1;
    if (line === endLine + 1) return start < 0 ? '' : text.slice(start, i + 1);
  }
  return start < 0 ? '' : text.slice(start);
}

/** The header line of a block. */
export function blockHeader(b: { path: string; role: BlockRole; startLine: number; endLine: number; search?: string }, finalNewline: boolean): string {
  const what = b.role === 'file' ? 'whole file' : b.role === 'chunk' ? 'chunk' : `evidence: ${b.search ?? 'search'}`;
  return `### ${b.path}:${b.startLine}-${b.endLine} (${what}${finalNewline ? '' : '; no newline at end of file'})`;
}

/**
 * The block as it stands in the context: header, the verbatim lines, and a line
 * break when the lines lack one (the header says so), so the next header starts
 * its own line.
 */
function blockPiece(header: string, text: string): string {
  return `${header}\n${text}${text === '' || text.endsWith('\n') ? '' : '\n'}`;
}

// Rendering rule: "the chosen files whole and byte-for-byte verbatim (each capped at 60K tokens), then the evidence
// spans (each capped at 12K), each block under a header with its path and line range; a block that would push the total
// past the budget is skipped, never cut".
export function renderBlocks(requests: readonly BlockRequest[], files: Pick<FileSource, 'content'>, tokenizer: Tokenizer, options: RenderOptions): Rendering {
  const budget = Math.max(0, Math.floor(options.budget));
  const caps: Record<BlockRole, number> = { file: options.fileCap ?? FILE_CAP, evidence: options.spanCap ?? SPAN_CAP, chunk: options.spanCap ?? SPAN_CAP };
  const blocks: FileBlock[] = [];
  const pieces: string[] = [];
  const skipped: SkippedBlock[] = [];
  const warnings: string[] = [];
  const contents = new Map<string, FileContent | FileUnavailable>();
  const shown = new Set<string>();
  // Blocks are joined with a blank line; each costs its tokens with that line (the tokenizer splits before the next
  // header's `###`, so the costs add up to the whole).
  const sep = '\n';
  let used = 0;

  for (const req of requests) {
    let content = contents.get(req.path);
    if (!content) {
      content = files.content(req.path);
      contents.set(req.path, content);
      if (!isUnavailable(content) && 'warning' in content && typeof content.warning === 'string') warnings.push(content.warning);
    }
    const startLine = req.startLine ?? 1;
    const wantEnd = req.endLine ?? (isUnavailable(content) ? startLine : content.lineCount);
    if (isUnavailable(content)) {
      skipped.push({ path: req.path, role: req.role, startLine, endLine: wantEnd, tokens: 0, reason: content.message });
      continue;
    }
    const endLine = req.role === 'file' ? content.lineCount : Math.min(wantEnd, content.lineCount);
    if (req.role !== 'file' && shown.has(req.path)) continue; // the file is shown whole already
    const text = req.role === 'file' ? content.text : sliceLines(content.text, startLine, endLine);
    const last = endLine === content.lineCount;
    const header = blockHeader({ path: req.path, role: req.role, startLine: req.role === 'file' ? 1 : startLine, endLine, search: req.search }, !last || text === '' || text.endsWith('\n'));
    const piece = blockPiece(header, text);
    const tokens = tokenizer.count(piece);
    const block = { path: req.path, role: req.role, startLine: req.role === 'file' ? 1 : startLine, endLine };
    if (tokens > caps[req.role]) {
      skipped.push({ ...block, tokens, reason: `over the ${req.role === 'file' ? 'per-file' : 'per-span'} cap (${tokens} > ${caps[req.role]} tokens)` });
      continue;
    }
    const cost = tokenizer.count(piece + sep);
    if (used + cost > budget) {
      skipped.push({ ...block, tokens, reason: `would exceed the budget (${used} used + ${tokens} > ${budget} tokens)` });
      continue;
    }
    blocks.push({ ...block, tokens, text, ...(req.search ? { search: req.search } : {}) });
    pieces.push(piece);
    used += cost;
    if (req.role === 'file') shown.add(req.path);
  }

  let text = pieces.join(sep);
  let totalTokens = tokenizer.count(text);
  // The costs above are exact for the tokenizers allot uses; this only guards the promise.
  while (totalTokens > budget && blocks.length) {
    const b = blocks.pop()!;
    pieces.pop();
    skipped.push({ path: b.path, role: b.role, startLine: b.startLine, endLine: b.endLine, tokens: b.tokens, reason: `would exceed the budget once joined (${totalTokens} > ${budget} tokens)` });
    text = pieces.join(sep);
    totalTokens = tokenizer.count(text);
  }
  return { blocks, skipped, text, totalTokens, warnings };
}
