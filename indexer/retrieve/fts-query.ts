import { identifiers, splitIdentifier } from '../identifiers.ts';

/** Words too common in natural-language queries to help ranking. */
const STOP = new Set(['a', 'an', 'and', 'are', 'as', 'at', 'be', 'by', 'for', 'from', 'how', 'in', 'is', 'it', 'of', 'on', 'or', 'the', 'this', 'to', 'what', 'when', 'where', 'which', 'with', 'does', 'do']);
const MAX_TERMS = 48;

/**
 * An FTS5 MATCH expression for a free-text or code query: every identifier
 * whole and split into parts, each quoted (so `foo-bar`, `os.path` and `NOT`
 * are never FTS syntax), OR-ed for BM25 to rank. Null when nothing is searchable.
 * @example ftsQuery('parseConfigFile(path)') // '"parseconfigfile" OR "parse" OR "config" OR "file" OR "path"'
 */
export function ftsQuery(query: string): string | null {
  const terms: string[] = [];
  const seen = new Set<string>();
  const add = (t: string) => {
    const w = t.toLowerCase();
    if (!w || STOP.has(w) || seen.has(w) || terms.length >= MAX_TERMS) return;
    seen.add(w);
    terms.push(`"${w.replace(/"/g, '""')}"`);
  };
  for (const id of identifiers(query)) {
    add(id.replace(/\$/g, ''));
    const parts = splitIdentifier(id);
    if (parts.length > 1) parts.forEach(add);
  }
  for (const n of query.match(/\b\d+\b/g) ?? []) add(n);
  return terms.length ? terms.join(' OR ') : null;
}
