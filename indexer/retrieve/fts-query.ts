import { identifiers, splitIdentifier } from '../identifiers.ts';
import { readProse, STOP_WORDS } from './prose-reading.ts';

/** Words too common in natural-language queries to help ranking, even inside code lines. */
const STOP = new Set(['a', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'for', 'from', 'how', 'in', 'is', 'it', 'of', 'on', 'or', 'the', 'this', 'to', 'what', 'when', 'where', 'which', 'with', 'does', 'do']);

/**
 * What a query term is: an `identifier` the query writes as code, two adjacent words `joined` as one identifier
 * (`parse expr` -> `parse_expr`, `parseexpr`), a plain `word`, a `part` of a compound identifier, a `number`.
 */
export type TermClass = 'identifier' | 'joined' | 'word' | 'part' | 'number';

export interface QueryTerm {
  /** Lower-cased, as the index tokenizes it (before stemming, which FTS5 applies to the query too). */
  term: string;
  class: TermClass;
  /** 0..1: how close to the query's end the term last appears (the lines at a cursor end where the cursor is). */
  recency: number;
}

const RANK: Record<TermClass, number> = { identifier: 0, joined: 1, word: 2, part: 3, number: 4 };

/**
 * The searchable terms of a free-text or code query, in order of first appearance (a joined pair after its second
 * word), each once with its strongest class: identifiers whole and split into parts, plain words (English stop
 * words left out), adjacent words joined, numbers.
 * @example queryTerms('parse expr').map((t) => t.term) // ['parse', 'expr', 'parse_expr', 'parseexpr']
 */
export function queryTerms(query: string): QueryTerm[] {
  const prose = readProse(query);
  // Each pair of adjacent words also as the one token an identifier of both would be: `parse_expr`, `parseexpr`.
  const joinedAfter = new Map<string, string[]>();
  for (const [a, b] of prose.pairs) {
    const key = b.toLowerCase();
    joinedAfter.set(key, [...(joinedAfter.get(key) ?? []), `${a}_${b}`.toLowerCase(), `${a}${b}`.toLowerCase()]);
  }
  const out = new Map<string, QueryTerm>();
  const add = (t: string, cls: TermClass, recency: number) => {
    const term = t.toLowerCase();
    if (!term || STOP.has(term)) return;
    const held = out.get(term);
    if (!held) out.set(term, { term, class: cls, recency });
    else {
      if (RANK[cls] < RANK[held.class]) held.class = cls;
      held.recency = Math.max(held.recency, recency);
    }
  };
  const lines = query.split('\n');
  lines.forEach((line, i) => {
    const recency = (i + 1) / lines.length;
    for (const id of identifiers(line)) {
      const bare = id.replace(/\$/g, '');
      const parts = splitIdentifier(id);
      const written = prose.shaped.has(id) || parts.length > 1;
      if (!written && STOP_WORDS.has(bare.toLowerCase())) continue;
      add(bare, written ? 'identifier' : 'word', recency);
      if (parts.length > 1) for (const p of parts) add(p, 'part', recency);
      for (const j of joinedAfter.get(bare.toLowerCase()) ?? []) add(j, 'joined', recency);
    }
    for (const n of line.match(/\b\d+\b/g) ?? []) add(n, 'number', recency);
  });
  return [...out.values()];
}

/** An FTS5 MATCH expression OR-ing the terms, each quoted (so `foo-bar`, `os.path` and `NOT` are never FTS syntax). */
export function ftsMatch(terms: readonly string[]): string | null {
  return terms.length ? terms.map((t) => `"${t.replace(/"/g, '""')}"`).join(' OR ') : null;
}

