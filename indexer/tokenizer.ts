import { createRequire } from 'node:module';
import type { Tiktoken } from 'tiktoken';

// tiktoken compiles its WebAssembly when loaded: only commands that count tokens pay for it.
const require = createRequire(import.meta.url);

/** Tokenizers allot counts with; counts are exact for the chosen one. */
export const TOKENIZER_NAMES = ['cl100k_base', 'o200k_base'] as const;
export type TokenizerName = (typeof TOKENIZER_NAMES)[number];

export interface Tokenizer {
  readonly name: TokenizerName;
  /** Exact number of tokens of `text`. */
  count(text: string): number;
}

const PIECE = 16_384;
const cache = new Map<TokenizerName, Tokenizer>();

/**
 * Splits long text where tiktoken's pre-tokenizer splits anyway (after a newline
 * followed by a non-space character), so counting the pieces gives the exact
 * total while keeping each encode call short.
 */
function pieces(text: string): string[] {
  if (text.length <= PIECE) return [text];
  const out: string[] = [];
  let start = 0;
  while (text.length - start > PIECE) {
    let cut = -1;
    for (let i = start + PIECE; i < text.length - 1 && i < start + 4 * PIECE; i++) {
      if (text.charCodeAt(i) === 10 && !/\s/.test(text[i + 1])) { cut = i + 1; break; }
    }
    if (cut < 0) break;
    out.push(text.slice(start, cut));
    start = cut;
  }
  out.push(text.slice(start));
  return out;
}

/** Texts at least this long have their counts remembered: whole objects are counted again and again across queries. */
const MEMO_MIN_CHARS = 512;
/** The remembered texts hold at most this many characters in all (least recently used go first). */
const MEMO_MAX_CHARS = 2_000_000;

/** Exact counts of long texts, remembered: looking a string up costs far less than encoding it. */
function memoised(count: (text: string) => number): (text: string) => number {
  const memo = new Map<string, number>();
  let chars = 0;
  return (text) => {
    if (text.length < MEMO_MIN_CHARS) return count(text);
    const hit = memo.get(text);
    if (hit !== undefined) {
      memo.delete(text);
      memo.set(text, hit);
      return hit;
    }
    const n = count(text);
    memo.set(text, n);
    chars += text.length;
    for (const [old] of memo) {
      if (chars <= MEMO_MAX_CHARS) break;
      memo.delete(old);
      chars -= old.length;
    }
    return n;
  };
}

/**
 * The one tokenizer wrapper of allot.
 * @example
 *   const tok = getTokenizer('cl100k_base');
 *   tok.count('def parse(text):'); // 4
 */
export function getTokenizer(name: TokenizerName = 'cl100k_base'): Tokenizer {
  let tok = cache.get(name);
  if (!tok) {
    const enc: Tiktoken = (require('tiktoken') as typeof import('tiktoken')).get_encoding(name);
    tok = {
      name,
      // Special-token text (`<|endoftext|>`) in source is ordinary text: allow none, disallow none.
      count: memoised((text: string) => {
        let n = 0;
        for (const p of pieces(text)) n += enc.encode(p, [], []).length;
        return n;
      }),
    };
    cache.set(name, tok);
  }
  return tok;
}
