/**
 * Joining: blocks become one context text, and the budget is checked on that
 * text, not on the sum of its parts.
 */
import type { Tokenizer } from '../indexer/tokenizer.ts';

/** Between two non-empty blocks. */
export const SEPARATOR = '\n\n';

export interface Joined<T> {
  text: string;
  tokens: number;
  /** The parts as finally used (some possibly shrunk). */
  parts: T[];
  /** Sum of part tokens plus separators, before any shrinking. */
  sumOfParts: number;
  /** How many shrink steps were needed. */
  shrinkSteps: number;
  /** Shrink steps per part index. */
  shrunk: number[];
}

// Exactness rule: the joined text never exceeds the budget; if joining adds tokens beyond the sum of the parts,
// the last non-empty part shrinks one line at a time (then the one before it) until the count fits.
export function joinWithinBudget<T extends { text: string; tokens: number }>(
  parts: readonly T[],
  budget: number,
  tokenizer: Tokenizer,
  shrink: (part: T, index: number) => T,
): Joined<T> {
  const current = [...parts];
  const shrunk = current.map(() => 0);
  const sepTokens = tokenizer.count(SEPARATOR);
  const nonEmpty = current.filter((p) => p.text !== '');
  const sumOfParts = nonEmpty.reduce((s, p) => s + p.tokens, 0) + Math.max(0, nonEmpty.length - 1) * sepTokens;
  const join = (): string => current.filter((p) => p.text !== '').map((p) => p.text).join(SEPARATOR);
  let text = join();
  let tokens = tokenizer.count(text);
  let shrinkSteps = 0;
  while (tokens > budget) {
    let last = current.length - 1;
    while (last >= 0 && current[last].text === '') last--;
    if (last < 0) break; // unreachable: the empty text has 0 tokens
    const next = shrink(current[last], last);
    if (next.text === current[last].text) throw new Error('joinWithinBudget: shrink made no progress');
    current[last] = next;
    shrunk[last]++;
    shrinkSteps++;
    text = join();
    tokens = tokenizer.count(text);
  }
  return { text, tokens, parts: current, sumOfParts, shrinkSteps, shrunk };
}
