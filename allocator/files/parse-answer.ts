/**
 * Lenient reading of a model's answer: paths in lists, code fences, JSON,
 * numbering, bullets, bold, line numbers and prose, matched against the
 * inventory the model was shown; and the typed searches it asks for. Pure.
 */
import { normalizePath } from '../../indexer/paths.ts';
import type { Answer, SearchSpec } from './types.ts';

/** Searches one answer may ask for. */
export const MAX_SEARCHES = 4;

// A path-like token: word characters, dots, dashes, slashes (either way), at-signs and pluses.
const PATH_TOKEN = /[A-Za-z0-9_.\-/\\@+~$]+/g;
const SEARCH_LINE = /^\s*(?:[-*+•]|\d+[.)]|#+)?\s*[`*_]*\s*(definition|definitions|def|callers|caller|calls|string|strings)\b\s*[:=]?\s*(.+?)\s*$/i;

/**
 * Resolves one token to an inventory path: exactly, or after dropping `./`, a
 * leading `/`, diff prefixes (`a/`, `b/`) and line suffixes (`:12`, `#L12`), or as
 * the unique inventory path it is a suffix of (or that is a suffix of it, for
 * absolute paths). Null when nothing (or more than one path) matches.
 */
export function resolveAnswerPath(token: string, inventory: ReadonlySet<string>, bySuffix: Map<string, string[]>): string | null {
  let t = token.replace(/\\/g, '/').replace(/[#:](L?\d+(-L?\d+)?)?$/, '').replace(/[.,;:)`'"*]+$/, '').replace(/^[`'"(*]+/, '');
  if (!t || !/[A-Za-z]/.test(t)) return null;
  t = normalizePath(t).replace(/^\/+/, '');
  if (!t || t === '.') return null;
  if (inventory.has(t)) return t;
  const diff = /^[ab]\/(.+)$/.exec(t);
  if (diff && inventory.has(diff[1])) return diff[1];
  // The token is the tail of an inventory path (`models.py`, `requests/models.py` when listed under `src/`).
  const tails = bySuffix.get(t);
  if (tails && tails.length === 1) return tails[0];
  // An inventory path is the tail of the token (`/home/me/repo/requests/models.py`): the longest wins.
  const segs = t.split('/');
  for (let i = 1; i < segs.length; i++) {
    const tail = segs.slice(i).join('/');
    if (inventory.has(tail) && tail.includes('/')) return tail;
  }
  return null;
}

/** Every tail (1..n last segments) of each path -> the paths ending so. */
export function suffixIndex(paths: Iterable<string>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const p of paths) {
    const segs = p.split('/');
    for (let i = 0; i < segs.length; i++) {
      const tail = segs.slice(i).join('/');
      const list = out.get(tail);
      if (list) list.push(p);
      else out.set(tail, [p]);
    }
  }
  return out;
}

/** A typed search written in a line such as `definition Session.send`, `callers parse`, `string "bad header"`. */
export function parseSearchLine(line: string): SearchSpec | null {
  const m = SEARCH_LINE.exec(line.replace(/\*\*/g, ''));
  if (!m) return null;
  const word = m[1].toLowerCase();
  const kind: SearchSpec['kind'] = word.startsWith('def') ? 'definition' : word.startsWith('call') ? 'callers' : 'string';
  let rest = m[2].replace(/[`*]+$/g, '').replace(/^[`*]+/g, '').trim();
  if (kind === 'string') {
    const q = /^(["'`])([\s\S]+)\1/.exec(rest) ?? /^["“']([\s\S]+?)["”']/.exec(rest);
    rest = q ? (q[2] ?? q[1]) : rest;
    if (rest.trim().length < 3) return null;
    return { kind, query: rest };
  }
  const name = /^[`"']?([A-Za-z_$][\w$]*(?:(?:\.|::|#)[A-Za-z_$][\w$]*)*)/.exec(rest);
  if (!name) return null;
  return { kind, query: name[1].replace(/::|#/g, '.') };
}

/**
 * Reads a model's free-form answer: the paths it names (inventory paths only,
 * first mention first) and, after a `SEARCHES` heading or on lines of their own,
 * up to four typed searches.
 * @example parseAnswer('1. `src/a.py` (the parser)\n2. b.py\nSEARCHES:\ndefinition parse', inv)
 *   // { paths: ['src/a.py', 'lib/b.py'], searches: [{ kind: 'definition', query: 'parse' }] }
 */
export function parseAnswer(text: string, inventory: readonly string[] | ReadonlySet<string>, suffixes?: Map<string, string[]>): Answer {
  const inv = inventory instanceof Set ? inventory : new Set(inventory as readonly string[]);
  const tails = suffixes ?? suffixIndex(inv);
  // A model may think aloud before answering (`<think>...</think>`): only what follows counts.
  const body = text.replace(/<think>[\s\S]*?<\/think>/gi, '');
  const lines = body.split(/\r?\n/);
  const searchAt = lines.findIndex((l) => /^\s*[#*_\s]*(typed\s+)?searches\b/i.test(l));
  const fileLines = searchAt >= 0 ? lines.slice(0, searchAt) : lines;
  const paths: string[] = [];
  const searches: SearchSpec[] = [];
  for (const line of fileLines) {
    const s = parseSearchLine(line);
    if (s && !/[/\\]/.test(s.query)) {
      if (searches.length < MAX_SEARCHES) searches.push(s);
      continue;
    }
    for (const token of line.match(PATH_TOKEN) ?? []) {
      if (!/[./\\]/.test(token)) continue;
      const p = resolveAnswerPath(token, inv, tails);
      if (p && !paths.includes(p)) paths.push(p);
    }
  }
  if (searchAt >= 0) {
    const first = lines[searchAt].replace(/^\s*[#*_\s]*(typed\s+)?searches\b[*_:\s]*/i, '');
    for (const line of [first, ...lines.slice(searchAt + 1)]) {
      const s = parseSearchLine(line);
      if (s && searches.length < MAX_SEARCHES && !searches.some((x) => x.kind === s.kind && x.query === s.query)) searches.push(s);
    }
  }
  return { paths, searches };
}
