/**
 * The path inventory: the repository's paths a model sees before it answers
 * "which files must change?". Pure; the store supplies the paths.
 */
import { identifiers, splitIdentifier } from '../../indexer/identifiers.ts';
import { isDocPath, isTestPath } from '../../indexer/paths.ts';
import { getTokenizer, type Tokenizer, type TokenizerName } from '../../indexer/tokenizer.ts';

/** The most tokens an inventory is cut from (its share is half of min(inventory tokens, this)). */
export const INVENTORY_TOKEN_CAP = 32_000;

export interface Inventory {
  /** The kept paths, alphabetical. */
  paths: string[];
  /** Exact tokens of `text`. */
  tokens: number;
  /** Tokens of the listing of every indexed path. */
  fullTokens: number;
  /** The cut: half of min(fullTokens, 32K). */
  limit: number;
  /** Indexed paths in all. */
  total: number;
  /** The kept paths, one a line (what a model is shown). */
  text: string;
}

/**
 * Words of a path: segments split on `/`, `_`, `-`, `.` and camelCase, lower-cased.
 * @example pathWords('src/httpClient/base_adapter.py') // ['src', 'http', 'client', 'base', 'adapter', 'py']
 */
export function pathWords(path: string): string[] {
  return [...new Set(path.split(/[/_\-.\s]+/).flatMap((seg) => splitIdentifier(seg)))];
}

/** Words of an issue comparable with path words: identifiers whole and split, lower-cased. */
export function issueWords(issue: string): Set<string> {
  const out = new Set<string>();
  for (const id of identifiers(issue)) {
    out.add(id.toLowerCase());
    for (const p of splitIdentifier(id)) out.add(p);
  }
  return out;
}

/**
 * Paths ranked by the number of distinct words they share with the issue; ties
 * go to source paths before tests and docs, then shorter paths, then alphabetical.
 */
export function rankPaths(paths: readonly string[], issue: string): { path: string; shared: number }[] {
  const words = issueWords(issue);
  const kindRank = (p: string) => (isTestPath(p) || isDocPath(p) ? 1 : 0);
  return paths
    .map((path) => ({ path, shared: pathWords(path).filter((w) => words.has(w)).length, kind: kindRank(path), depth: path.split('/').length }))
    .sort((a, b) => b.shared - a.shared || a.kind - b.kind || a.depth - b.depth || a.path.length - b.path.length || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map(({ path, shared }) => ({ path, shared }));
}

// Inventory rule: "every indexed path ranked by words shared with the issue, cut to half of min(inventory tokens, 32K) tokens, then listed alphabetically".
export function buildInventory(
  paths: readonly string[],
  issue: string,
  tokenizer: Tokenizer | TokenizerName = 'cl100k_base',
): Inventory {
  const tok = typeof tokenizer === 'string' ? getTokenizer(tokenizer) : tokenizer;
  const fullTokens = tok.count(paths.join('\n'));
  const limit = Math.floor(Math.min(fullTokens, INVENTORY_TOKEN_CAP) / 2);
  const newline = tok.count('\n');
  const kept: string[] = [];
  let used = 0;
  for (const { path } of rankPaths(paths, issue)) {
    // Each line's tokens: paths begin with a non-space character, so lines count apart (the tokenizer splits there anyway).
    const cost = tok.count(path) + (kept.length ? newline : 0);
    if (used + cost > limit) break;
    kept.push(path);
    used += cost;
  }
  kept.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const text = kept.join('\n');
  return { paths: kept, tokens: tok.count(text), fullTokens, limit, total: paths.length, text };
}
