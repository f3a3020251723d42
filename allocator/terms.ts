/**
 * Identifier-like tokens ("terms"): how the allocator decides that an object or
 * a source line matches the query. Not tokenizer tokens.
 */
import { splitIdentifier } from '../indexer/identifiers.ts';

/**
 * Words too common to tie an object to a query: English function words and
 * keywords shared by the indexed languages. Terms shorter than 3 characters are
 * dropped before this list applies, so it holds only longer words.
 */
export const STOP_TERMS: ReadonlySet<string> = new Set([
  'the', 'and', 'for', 'with', 'from', 'that', 'this', 'these', 'those', 'into', 'onto', 'are', 'was', 'were',
  'has', 'have', 'had', 'does', 'did', 'not', 'but', 'all', 'any', 'can', 'how', 'what', 'where', 'when', 'which',
  'who', 'why', 'its', 'our', 'you', 'your', 'use', 'used', 'using', 'via', 'out', 'then', 'than', 'there', 'here',
  'def', 'function', 'func', 'return', 'returns', 'const', 'let', 'var', 'class', 'self', 'new', 'import', 'export',
  'public', 'private', 'protected', 'static', 'void', 'int', 'str', 'string', 'bool', 'none', 'null', 'true',
  'false', 'async', 'await', 'type', 'interface', 'package', 'struct', 'impl', 'pub', 'mut', 'elif', 'else',
  'while', 'pass', 'lambda', 'undefined', 'extends', 'implements',
]);

/** Shortest term kept: shorter ones (`id`, `fs`, `x`) match almost everything. */
export const MIN_TERM_LENGTH = 3;

const WORD = /[\p{L}\p{N}_$]+/gu;
const ASCII = /^[\x00-\x7f]*$/;
// Non-ASCII words: camelCase / PascalCase / ACRONYMCase parts; snake_case splits at `_` (in no class).
const PART = /\p{Lu}+(?!\p{Ll})|\p{Lu}?[\p{Ll}\p{Lm}]+|[\p{Lo}\p{Lt}]+|\p{N}+/gu;

// ASCII words split exactly as the index splits them (so a term the retriever matched is a term here);
// other words (non-ASCII identifiers, CJK) split at Unicode case boundaries.
const parts = (word: string): string[] =>
  ASCII.test(word) ? splitIdentifier(word) : (word.match(PART) ?? []).map((p) => p.toLowerCase());

/**
 * Splits text into identifier parts: words are split at camelCase and
 * snake_case boundaries (indexer/identifiers.ts for ASCII), lowercased; digits-only parts, parts shorter than
 * MIN_TERM_LENGTH and STOP_TERMS are dropped. Distinct, in order of appearance.
 * @example terms('parseHTTPConfig(read_file)') // ['parse', 'http', 'config', 'read', 'file']
 */
export function terms(text: string): string[] {
  const seen = new Set<string>();
  for (const word of text.match(WORD) ?? []) {
    for (const t of parts(word)) {
      if (/^\p{N}+$/u.test(t) || [...t].length < MIN_TERM_LENGTH || STOP_TERMS.has(t)) continue;
      seen.add(t);
    }
  }
  return [...seen];
}

/** Query terms found in `text`, in query order. */
export function sharedTerms(queryTerms: readonly string[], text: string): string[] {
  if (queryTerms.length === 0) return [];
  // Every term of an ASCII text is a lower-cased piece of it: one that holds no query term as a substring shares
  // none, and is not split (the anchor of a long object reads each of its lines, for each window tried).
  if (ASCII.test(text)) {
    const lower = text.toLowerCase();
    if (!queryTerms.some((t) => lower.includes(t))) return [];
  }
  const own = new Set(terms(text));
  return queryTerms.filter((t) => own.has(t));
}
