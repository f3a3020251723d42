/**
 * Which full-text rows can hold a quoted text: the FTS5 expression that every row holding a line with the quote
 * matches, so a literal search reads only the files of those rows (literal-search.ts). The rule must never miss:
 * a file left out is a hit lost, so only tokens the index is sure to hold as written are asked for.
 *
 * A quote is found as a substring, so its first and last words may be parts of longer tokens (`rror: x` in
 * `Error: x`), and the stemmer (porter) makes a part's stem no prefix of the whole's: those are left out. A word
 * with a separator on both sides inside the quote is a whole token of the text, stemmed the same way in the query
 * and in the index, and whole tokens with only separators between them are consecutive tokens there: a phrase.
 * Only ASCII is read as such: a non-ASCII character may be a letter to the tokenizer (unicode61), so a word next to
 * one is left out and the phrase breaks there.
 */

/** Characters the index's tokenizer joins into tokens, in ASCII (`tokenchars '_'`, migrations/008_fts_fields.sql). */
const TOKEN = /[A-Za-z0-9_]/;

/**
 * The phrases (runs of whole tokens, lower-cased) of one line of a quote: `start`/`end` tell whether the line begins or
 * ends the quote (where a word may be part of a longer one).
 * @example linePhrases('rror: no host "x"', true, true) // [['no', 'host', 'x']]
 */
export function linePhrases(line: string, start: boolean, end: boolean): string[][] {
  const out: string[][] = [];
  let phrase: string[] = [];
  const cut = () => {
    if (phrase.length) out.push(phrase);
    phrase = [];
  };
  let i = 0;
  while (i < line.length) {
    if (!TOKEN.test(line[i])) {
      if (line.charCodeAt(i) > 127) cut();
      i++;
      continue;
    }
    const from = i;
    while (i < line.length && TOKEN.test(line[i])) i++;
    const before = from > 0 ? line.charCodeAt(from - 1) : start ? -1 : 10;
    const after = i < line.length ? line.charCodeAt(i) : end ? -1 : 10;
    // A separator known on both sides (a line break inside the quote is one): the token is whole.
    if (before >= 0 && before <= 127 && after >= 0 && after <= 127) phrase.push(line.slice(from, i).toLowerCase());
    else cut();
  }
  cut();
  return out;
}

/** What narrows where a quote can be: the FTS5 expression, and the line of the quote it was made from. */
export interface QuoteMatch {
  /** Every full-text row holding a line with `line` in it matches this. */
  match: string;
  /** A piece of the quote that lies within one line of any text holding the quote (no line break, no trailing `\r`). */
  line: string;
}

/**
 * The FTS5 expression every full-text row holding a line of `quote` matches, or null when the quote has no whole
 * token (a single word, two words quoted as a fragment, `name = value`): then nothing narrows where it may be. Its
 * lines may lie in different views, so one line is asked for: the one with the most whole tokens, its phrases AND-ed.
 * @example quoteMatch('raise ValueError("percent out of range")')?.match // '"valueerror percent out of range"'
 */
export function quoteMatch(quote: string): QuoteMatch | null {
  const lines = quote.split('\n');
  let best: { phrases: string[][]; line: string } | undefined;
  let bestTokens = 0;
  lines.forEach((line, i) => {
    const phrases = linePhrases(line, i === 0, i === lines.length - 1);
    const tokens = phrases.reduce((n, p) => n + p.length, 0);
    if (tokens > bestTokens) [best, bestTokens] = [{ phrases, line: line.replace(/\r$/, '') }, tokens];
  });
  return best ? { match: askedFor(best.phrases).map((p) => `"${p.join(' ')}"`).join(' AND '), line: best.line } : null;
}

/**
 * A phrase query costs as many doclists as it has tokens, and common ones (`self`, `0`, `path`) are long: a pasted
 * line of 10 tokens took 10 ms where 3 of them name nearly the same files. Any run of a phrase's tokens is a phrase
 * the text holds too, so a quote asks for at most `MAX_PHRASES` runs of at most `MAX_PHRASE_TOKENS` tokens: the runs of
 * the longest tokens (long tokens are rare). SymPy, 2306 quotes of issues and pasted code: 2.7 -> 1.1 ms of FTS5 a
 * quote, 10% more files to read.
 */
export const MAX_PHRASE_TOKENS = 3;
export const MAX_PHRASES = 2;

function askedFor(phrases: readonly string[][]): string[][] {
  const runs = phrases.map((p) => {
    let best = { run: p, chars: -1 };
    for (let i = 0; i + Math.min(MAX_PHRASE_TOKENS, p.length) <= p.length; i++) {
      const run = p.slice(i, i + MAX_PHRASE_TOKENS);
      const chars = run.reduce((n, t) => n + t.length, 0);
      if (chars > best.chars) best = { run, chars };
    }
    return best;
  });
  return runs.sort((a, b) => b.chars - a.chars).slice(0, MAX_PHRASES).map((r) => r.run);
}
