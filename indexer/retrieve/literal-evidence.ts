/**
 * What an issue quotes from the code, found there: an error message, a line of code or a flag that only a few source
 * files hold literally points at the objects spanning those lines. A question's words find where its topic is talked
 * about; the reporter's pasted message or line names where it is written, which is often where the fix goes.
 */
import type { DB } from '../store/open.ts';
import { primaryViewReader } from '../store/primary-view.ts';
import type { Candidate, ObjectKind } from '../types.ts';
import { issueSignals, messageFragments, stripEnvironment } from './issue-signals.ts';
import { literalSearch, type LiteralSearchOptions } from './literal-search.ts';
import type { Retriever } from './retriever.ts';

/** A literal found in more source files than this is too common to point anywhere (the localizer's rule). */
export const MAX_LITERAL_FILES = 3;
/** Quoted texts looked up per query: a reproduction pastes many lines, its first ones say most. */
const MAX_QUOTES = 12;

/** One thing the query quotes, as the texts to look for: the first alternative found anywhere counts. */
export type Quote = readonly string[];

/**
 * The texts a query quotes from code, each as alternatives tried in order: messages (whole, then their longest
 * fragments between formatted values), source lines of its code blocks, flags and hyphenated names as string
 * literals. A query quoting nothing (most questions, every title without a flag) gives none, and costs no scan.
 * @example quotedTexts('Running `pytest --collect-only` is long') // [['"--collect-only"', "'--collect-only'"]]
 */
export function quotedTexts(query: string): Quote[] {
  const s = issueSignals(stripEnvironment(query));
  const out: Quote[] = [];
  for (const m of s.messages) {
    const f = messageFragments(m);
    if (f.length) out.push(f);
  }
  for (const line of s.codeLines) out.push([line]);
  for (const sym of s.symbols) out.push([`"${sym}"`, `'${sym}'`]);
  return out.slice(0, MAX_QUOTES);
}

/**
 * Scores objects by the quotes found in them: each quote found in 1..`MAX_LITERAL_FILES` files gives the innermost
 * object spanning each of its lines 1 / (files holding it); a quote in more files, or in none, gives nothing.
 * `hits(needle)` lists a needle's lines per file; `innermost(path, line)` the object spanning a line.
 * @example quoteScores([['a b c d e f']], () => new Map([['x.py', [3]]]), () => 'o1') // Map { 'o1' => 1 }
 */
export function quoteScores(
  quotes: readonly Quote[],
  hits: (needle: string) => ReadonlyMap<string, readonly number[]>,
  innermost: (path: string, line: number) => string | undefined,
): Map<string, number> {
  const score = new Map<string, number>();
  for (const alternatives of quotes) {
    for (const needle of alternatives) {
      const found = hits(needle);
      if (found.size === 0) continue;
      if (found.size <= MAX_LITERAL_FILES) {
        const ids = new Set<string>();
        for (const [p, lines] of found) for (const n of lines) {
          const id = innermost(p, n);
          if (id) ids.add(id);
        }
        for (const id of ids) score.set(id, (score.get(id) ?? 0) + 1 / found.size);
      }
      break;
    }
  }
  return score;
}

/**
 * Retrieval by quoted literals (`quotedTexts`) in the source files of the index (not tests, docs or examples, whose
 * copies of a message say nothing of where it is raised): the objects spanning them, best first. Reads only the files
 * the full-text index says can hold a quote (literal-search.ts), and searches a quote's alternatives only up to the
 * first one found.
 */
export function literalRetriever(db: DB, options: LiteralSearchOptions = {}): Retriever {
  const viewOf = primaryViewReader(db);
  const search = literalSearch(db, options);
  const spanning = db.prepare(
    `SELECT o.id, o.kind, o.qualified_name AS name FROM objects o JOIN files f ON f.id = o.file_id
     WHERE f.path = ? AND o.start_line <= ? AND o.end_line >= ? AND o.kind NOT IN ('module', 'file')
     ORDER BY o.start_line DESC, o.end_line ASC LIMIT 1`,
  );
  // The fusion asks again at other depths for the same query: the search is made once.
  let last: { query: string; ranked: Candidate[] } | undefined;
  const ranked = (query: string): Candidate[] => {
    if (last?.query === query) return last.ranked;
    last = { query, ranked: rank(query) };
    return last.ranked;
  };
  const rank = (query: string): Candidate[] => {
    const quotes = quotedTexts(query);
    if (!quotes.length) return [];
    // Per query: a map kept across queries would grow for the daemon's whole life.
    const found = new Map<string, { kind: string; name: string; path: string }>();
    const hits = search();
    // One file more than a quote may be in tells it is too common: no need to find the others.
    const scores = quoteScores(quotes, (n) => hits(n, MAX_LITERAL_FILES + 1), (p, line) => {
      const o = spanning.get(p, line, line) as { id: string; kind: string; name: string } | undefined;
      if (o) found.set(o.id, { kind: o.kind, name: o.name, path: p });
      return o?.id;
    });
    const out: Candidate[] = [];
    for (const [id, score] of [...scores].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))) {
      const o = found.get(id)!;
      const v = viewOf(id);
      if (!v) continue;
      out.push({
        viewId: v.id, objectId: id, fiber: o.path, path: o.path, objectName: o.name, objectKind: o.kind as ObjectKind,
        viewKind: v.kind, startLine: v.startLine, endLine: v.endLine, score, reason: 'quoted in the query (literal)',
      });
    }
    return out;
  };
  return { name: 'literal', retrieve: (query, k) => (k <= 0 ? [] : ranked(query).slice(0, k)) };
}
