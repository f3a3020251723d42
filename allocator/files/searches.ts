/**
 * Typed evidence: a few searches of three kinds (`definition NAME`, `callers
 * NAME`, `string "TEXT"`), chosen by a model when there is one, otherwise
 * derived from the issue; each adds short spans from files not already chosen.
 */
import { isFixTarget } from './fix-targets.ts';
import { issueSignals, messageFragments, type IssueSignals } from '../../indexer/retrieve/issue-signals.ts';
import { parseSearchLine } from './parse-answer.ts';
import type { FileSource, LineSpan, SearchRecord, SearchSpec } from './types.ts';

/** Searches run for one selection. */
export const MAX_SEARCHES = 4;
/** New files one search may add spans from. */
export const FILES_PER_SEARCH = 2;
/** Files in all: whole files plus files evidence comes from. */
export const MAX_FILES = 8;
/** Lines shown around a calling line or a string. */
export const CONTEXT_LINES = 3;
/** Spans one search adds per file. */
const SPANS_PER_FILE = 3;

/** An evidence span with the search that found it. */
export interface EvidenceSpan extends LineSpan {
  search: string;
}

/** `definition parse`, `callers Session.send`, `string "bad header"`: the search as written. */
export function searchLabel(s: SearchSpec): string {
  return s.kind === 'string' ? `string ${JSON.stringify(s.query)}` : `${s.kind} ${s.query}`;
}

/**
 * Parses a search written by a person or a model.
 * @example parseSearch('callers Session.send') // { kind: 'callers', query: 'Session.send' }
 */
export function parseSearch(text: string): SearchSpec | null {
  return parseSearchLine(text);
}

const isSource = isFixTarget;
const sourceFirst = (p: string): number => (isSource(p) ? 0 : 1);

/**
 * Candidate spans of one search, grouped by file, source files first. Searches
 * derived from the issue look in source files only; a model's or a caller's
 * searches may land in tests and docs too (they asked).
 */
function spansOf(spec: SearchSpec & { origin: SearchRecord['origin'] }, files: FileSource): Map<string, LineSpan[]> {
  let spans: LineSpan[];
  if (spec.kind === 'definition') {
    spans = files.definitions(spec.query).map(({ path, startLine, endLine }) => ({ path, startLine, endLine }));
  } else {
    const hits = spec.kind === 'callers'
      ? files.callers(spec.query).map(({ path, line }) => ({ path, line }))
      : files.strings(spec.query, 100);
    spans = hits.map(({ path, line }) => ({ path, startLine: Math.max(1, line - CONTEXT_LINES), endLine: line + CONTEXT_LINES }));
  }
  if (spec.origin === 'issue') spans = spans.filter((s) => isSource(s.path));
  const byFile = new Map<string, LineSpan[]>();
  for (const s of [...spans].sort((a, b) => sourceFirst(a.path) - sourceFirst(b.path))) {
    const list = byFile.get(s.path) ?? [];
    byFile.set(s.path, list);
    list.push(s);
  }
  return byFile;
}

/** Overlapping or adjacent spans of one file become one. */
export function mergeSpans<T extends LineSpan>(spans: readonly T[]): T[] {
  const sorted = [...spans].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.startLine - b.startLine));
  const out: T[] = [];
  for (const s of sorted) {
    const last = out.at(-1);
    if (last && last.path === s.path && s.startLine <= last.endLine + 1) last.endLine = Math.max(last.endLine, s.endLine);
    else out.push({ ...s });
  }
  return out;
}

// Evidence rule: "each adds short spans (the defining object, or the calling lines with a few lines around) from at
// most two files not already chosen, eight files in all".
export function runSearches(
  searches: readonly (SearchSpec & { origin: SearchRecord['origin'] })[],
  files: FileSource,
  chosen: readonly string[],
): { records: SearchRecord[]; spans: EvidenceSpan[] } {
  const taken = new Set(chosen);
  const records: SearchRecord[] = [];
  const spans: EvidenceSpan[] = [];
  for (const spec of searches.slice(0, MAX_SEARCHES)) {
    const byFile = spansOf(spec, files);
    const found = [...byFile.values()].reduce((n, l) => n + l.length, 0);
    const added: LineSpan[] = [];
    let newFiles = 0;
    for (const [path, list] of byFile) {
      if (taken.has(path)) continue;
      if (newFiles >= FILES_PER_SEARCH || taken.size >= MAX_FILES) break;
      newFiles++;
      taken.add(path);
      for (const s of mergeSpans(list).slice(0, SPANS_PER_FILE)) {
        added.push(s);
        spans.push({ ...s, search: searchLabel(spec) });
      }
    }
    records.push({ kind: spec.kind, query: spec.query, origin: spec.origin, found, added });
  }
  return { records, spans };
}

/**
 * Searches derived from the issue when no model chose them: messages it quotes
 * that the source holds, then definitions of the names it writes as code that
 * few files define, then callers of the most mentioned such name.
 */
export function deriveSearches(issue: string, files: FileSource, chosen: readonly string[], signals: IssueSignals = issueSignals(issue)): SearchSpec[] {
  const out: SearchSpec[] = [];
  const has = (s: SearchSpec) => out.some((x) => x.kind === s.kind && x.query === s.query);
  const chosenSet = new Set(chosen);

  for (const message of signals.messages.slice(0, 6)) {
    if (out.length >= 2) break;
    for (const fragment of messageFragments(message)) {
      const hits = files.strings(fragment, 20).filter((h) => isSource(h.path));
      if (!hits.length) continue;
      const spec: SearchSpec = { kind: 'string', query: fragment };
      if (!has(spec) && hits.some((h) => !chosenSet.has(h.path))) out.push(spec);
      break;
    }
  }

  // Names written as code (snake_case, camelCase, or called), defined in one source file.
  const named = [...signals.identifiers]
    .filter(([id, v]) => v.shaped && id.length >= 5 && (/_|[a-z][A-Z]/.test(id.replace(/^_+|_+$/g, '')) || v.count >= 2))
    .map(([id, v]) => ({ id, count: v.count, defs: files.definitions(id).filter((d) => isSource(d.path) && d.kind !== 'module') }))
    .filter((x) => x.defs.length > 0 && new Set(x.defs.map((d) => d.path)).size === 1)
    .sort((a, b) => b.count - a.count || (a.id < b.id ? -1 : 1));
  for (const x of named) {
    if (out.length >= MAX_SEARCHES - 1) break;
    if (x.defs.every((d) => chosenSet.has(d.path))) continue;
    const spec: SearchSpec = { kind: 'definition', query: x.id };
    if (!has(spec)) out.push(spec);
  }
  // Who calls the function the issue is about (it is defined in a chosen file): the fix may change them too.
  const callable = named.find((x) => x.defs.some((d) => chosenSet.has(d.path) && (d.kind === 'function' || d.kind === 'method')));
  if (callable && out.length < MAX_SEARCHES) {
    const callers = new Set(files.callers(callable.id).map((c) => c.path).filter((p) => isSource(p) && !chosenSet.has(p)));
    if (callers.size > 0 && callers.size <= FILES_PER_SEARCH * 2) out.push({ kind: 'callers', query: callable.id });
  }
  return out.slice(0, MAX_SEARCHES);
}
