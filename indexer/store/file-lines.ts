/**
 * Reading a file's lines within a token budget (`read_file`): verbatim, as
 * indexed, whole lines only. When the range does not fit, it ends at the last
 * whole line that does and says where to continue.
 */
import type { Tokenizer } from '../tokenizer.ts';

export interface FileLines {
  /** First and last line shown (1-based, inclusive); `endLine` < `startLine` when nothing fit. */
  startLine: number;
  endLine: number;
  /** Lines of the whole file. */
  lineCount: number;
  tokens: number;
  /** The range asked for was cut to fit the budget. */
  truncated: boolean;
  /** With `truncated`: the first line not shown (ask again from here). */
  nextLine: number | null;
  text: string;
}

/**
 * Lines `from`..`to` of `text` (clamped to the file), as many whole lines as fit `budget` tokens, counted exactly
 * on the joined text. Throws a RangeError for a range that starts past the end. Pure.
 * @example linesWithin('a\nb\nc\n', 2, 3, 100, tok) // { startLine: 2, endLine: 3, text: 'b\nc', ... }
 */
export function linesWithin(text: string, from: number, to: number, budget: number, tokenizer: Tokenizer): FileLines {
  const lines = text.split('\n');
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  const lineCount = lines.length;
  if (from > lineCount) throw new RangeError(`startLine ${from} is past the end of the file (${lineCount} lines)`);
  const last = Math.min(to, lineCount);
  // Grow line by line on an estimate (each line's own count plus its newline), then count the joined text exactly.
  let end = from - 1;
  let estimate = 0;
  while (end < last) {
    const next = tokenizer.count(`${lines[end]}\n`);
    if (estimate + next > budget) break;
    estimate += next;
    end++;
  }
  let shown = lines.slice(from - 1, end).join('\n');
  let tokens = tokenizer.count(shown);
  while (tokens > budget && end >= from) {
    end--;
    shown = lines.slice(from - 1, end).join('\n');
    tokens = tokenizer.count(shown);
  }
  const truncated = end < last;
  return { startLine: from, endLine: end, lineCount, tokens, truncated, nextLine: truncated ? end + 1 : null, text: shown };
}
