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

const cache = new Map<TokenizerName, Tokenizer>();

/**
 * Whether a piece of tiktoken's pre-tokenizer can never span the newline before `text[i]`, so that the tokens
 * of the text are those of the text up to `i` plus those of the text from `i`. True when the line at `i` holds
 * a non-blank character after spaces and tabs: every piece that contains a newline ends at it (a run of blanks
 * ending with newlines, or punctuation followed by newlines) unless another newline follows after blanks only,
 * and the pattern never looks behind. In o200k a punctuation piece also takes a '/' right after the newline,
 * so a line that starts with '/' is never cut. (Checked against whole-text encoding in test/index/tokenizer.test.ts.)
 */
export function cutsBefore(text: string, i: number): boolean {
  let j = i;
  let c = text.charCodeAt(j);
  while (c === 32 || c === 9) c = text.charCodeAt(++j);
  if (j >= text.length || c <= 32 || c === 0x7f || c === 0x85) return false;
  if (j === i && c === 47) return false;
  return c < 0x7f || !/\s/.test(text[j]);
}

/** The text cut at every newline before a line `cutsBefore` allows: counting the chunks one by one gives the exact total. */
export function chunks(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', nl + 1)) {
    if (!cutsBefore(text, nl + 1)) continue;
    out.push(text.slice(start, nl + 1));
    start = nl + 1;
  }
  out.push(text.slice(start));
  return out;
}

/**
 * Characters of chunk texts whose counts are remembered, per tokenizer (two generations of half each): about the
 * lines 200 different context queries on SymPy render and count (4.7 M characters), at most some 30 MB of heap.
 */
const MEMO_MAX_CHARS = 16_000_000;
/** Chunks longer than this are counted without being remembered (a minified line is rarely counted twice). */
const MEMO_MAX_CHUNK = 65_536;

/**
 * Exact counts through remembered chunk counts. A rendering is a window of an object's lines with a descriptor:
 * the windows tried while growing, an outline's variants and the same objects across queries share most lines,
 * so each line is encoded once and a count costs a lookup per line. Least recently used chunks go first (a
 * generation is dropped once the young one is full).
 */
function chunked(encode: (text: string) => number): (text: string) => number {
  let young = new Map<string, number>();
  let old = new Map<string, number>();
  let chars = 0;
  const one = (chunk: string): number => {
    let n = young.get(chunk);
    if (n !== undefined) return n;
    if (chunk.length > MEMO_MAX_CHUNK) return encode(chunk);
    n = old.get(chunk) ?? encode(chunk);
    // A chunk is a slice of a larger text, which it would keep alive: remember a copy of its own.
    young.set(Buffer.from(chunk).toString(), n);
    chars += chunk.length;
    if (chars > MEMO_MAX_CHARS / 2) {
      old = young;
      young = new Map();
      chars = 0;
    }
    return n;
  };
  return (text) => {
    let n = 0;
    for (const c of chunks(text)) n += one(c);
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
      count: chunked((text: string) => enc.encode(text, [], []).length),
    };
    cache.set(name, tok);
  }
  return tok;
}
