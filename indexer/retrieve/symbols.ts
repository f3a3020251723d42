/**
 * Finding objects by name (`find_symbol`): exact matches first (the name, the
 * qualified name, or the qualified name under its module path), then prefix
 * matches, then identifier-part matches (`parse config` finds
 * `parseConfigFile` and `parse_config_file`). The matching is pure; the objects
 * come from the structure the structural retriever keeps in memory when it is
 * current, else from one read of the store.
 */
import { globMatcher } from './path-glob.ts';
import { modulePath } from '../extract/source.ts';
import { identifiers, splitIdentifier } from '../identifiers.ts';
import { isTestPath } from '../paths.ts';
import { getObjects } from '../store/read.ts';
import type { DB } from '../store/open.ts';
import { getGeneration } from '../store/write.ts';
import type { ObjectKind } from '../types.ts';
import { structureGeneration, structureOf } from './structure-cache.ts';

export type SymbolMatchKind = 'exact' | 'prefix' | 'parts';

/** What a lookup needs of an object. */
export interface SymbolCandidate {
  id: string;
  path: string;
  name: string;
  qualifiedName: string;
  kind: ObjectKind;
}

export interface SymbolQuery {
  /** A name or qualified name: `flatten`, `Add.flatten`, `core.add.Add.flatten`, `Add::flatten`. */
  name: string;
  kind?: ObjectKind;
  /** A glob over repository paths (`sympy/core/**`, `**\/*.ts`); a plain folder or file path matches what it holds. */
  path?: string;
  limit: number;
}

export interface SymbolMatch {
  id: string;
  name: string;
  qualifiedName: string;
  kind: ObjectKind;
  path: string;
  startLine: number;
  endLine: number;
  signature: string;
  match: SymbolMatchKind;
}

export interface SymbolAnswer {
  query: string;
  matches: SymbolMatch[];
  /** Matches of every class before the limit. */
  total: number;
  counts: Record<SymbolMatchKind, number>;
  truncated: boolean;
}

/** An object with what matching needs derived from its names, once (objects that did not change are the same instances). */
interface Entry {
  o: SymbolCandidate;
  lowerName: string;
  lowerQualified: string;
  /** The module path plus the qualified name: `core.add.Add.flatten`. */
  full: string;
  nameParts: Set<string>;
  qualifiedParts: Set<string>;
  test: boolean;
  whole: boolean;
}
const entries = new WeakMap<SymbolCandidate, Entry>();

function entryOf(o: SymbolCandidate): Entry {
  let e = entries.get(o);
  if (!e) {
    const whole = o.kind === 'module' || o.kind === 'file';
    e = {
      o, lowerName: o.name.toLowerCase(), lowerQualified: o.qualifiedName.toLowerCase(),
      full: whole ? o.qualifiedName : `${modulePath(o.path)}.${o.qualifiedName}`,
      nameParts: new Set(splitIdentifier(o.name)), qualifiedParts: new Set(identifiers(o.qualifiedName).flatMap(splitIdentifier)),
      test: isTestPath(o.path), whole,
    };
    entries.set(o, e);
  }
  return e;
}

/** `Add::flatten`, `Add#flatten`, `Add->flatten` are written `Add.flatten` in the index. */
export function normalSymbol(name: string): string {
  return name.trim().replace(/::|#|->/g, '.').replace(/\(\)$/, '');
}

/** A path filter: a glob, or a plain path naming a file or a folder. */
export function pathFilter(glob: string | undefined): (path: string) => boolean {
  if (!glob) return () => true;
  const g = glob.replace(/^\.\//, '').replace(/\/$/, '');
  if (!/[*?[\]{}()!]/.test(g)) return (p) => p === g || p.startsWith(`${g}/`);
  return globMatcher(g);
}

interface ParsedQuery {
  exact: string;
  lower: string;
  dotted: boolean;
  parts: string[];
}

export function parseSymbolQuery(name: string): ParsedQuery {
  const exact = normalSymbol(name);
  return { exact, lower: exact.toLowerCase(), dotted: exact.includes('.'), parts: identifiers(exact).flatMap(splitIdentifier) };
}

/**
 * The match class of one object for a query (null: no match). A dotted query is matched against qualified
 * names (and module paths), a plain one against names. Pure.
 */
function matchEntry(e: Entry, q: ParsedQuery): SymbolMatchKind | null {
  const o = e.o;
  if (o.name === q.exact || o.qualifiedName === q.exact) return 'exact';
  if (q.dotted) {
    if (e.full === q.exact || e.full.endsWith(`.${q.exact}`) || (e.full.includes('.') && q.exact.endsWith(`.${e.full}`))) return 'exact';
    if (e.lowerQualified.startsWith(q.lower)) return 'prefix';
  } else if (e.lowerName.startsWith(q.lower)) return 'prefix';
  const parts = q.dotted ? e.qualifiedParts : e.nameParts;
  if (!q.parts.length) return null;
  for (const p of q.parts) if (!parts.has(p)) return null;
  return 'parts';
}

/** @example matchSymbol({ id, path: 'a.py', name: 'parse_config', qualifiedName: 'parse_config', kind: 'function' }, 'parse config') // 'parts' */
export function matchSymbol(o: SymbolCandidate, query: string): SymbolMatchKind | null {
  return matchEntry(entryOf(o), parseSymbolQuery(query));
}

const CLASS_ORDER: Record<SymbolMatchKind, number> = { exact: 0, prefix: 1, parts: 2 };

/** Within a class: definitions before whole files, code before tests, tighter names first, then by path. */
function compare(a: { e: Entry; match: SymbolMatchKind }, b: { e: Entry; match: SymbolMatchKind }): number {
  return CLASS_ORDER[a.match] - CLASS_ORDER[b.match]
    || Number(a.e.whole) - Number(b.e.whole)
    || Number(a.e.test) - Number(b.e.test)
    || (a.match === 'exact' ? 0 : a.match === 'prefix' ? a.e.o.name.length - b.e.o.name.length : a.e.qualifiedParts.size - b.e.qualifiedParts.size)
    || (a.e.o.path < b.e.o.path ? -1 : a.e.o.path > b.e.o.path ? 1 : 0)
    || (a.e.o.qualifiedName < b.e.o.qualifiedName ? -1 : a.e.o.qualifiedName > b.e.o.qualifiedName ? 1 : 0);
}

/**
 * The ranked matches of a query among `objects`. Pure.
 * @example rankSymbols(objects, { name: 'parse config', limit: 10 })
 */
export function rankSymbols(objects: Iterable<SymbolCandidate>, query: SymbolQuery): Ranked {
  return rankEntries(Array.from(objects, entryOf), query);
}

/** One text per entry, joined into one string with each entry's offset, for native substring search. */
interface Joined {
  text: string;
  starts: Int32Array;
}

/**
 * The objects of one generation with their lower-cased names, full names and identifier parts, each kind joined
 * into one string, so the objects that can match a query are found by substring search instead of a pass over
 * every object.
 */
interface SymbolTable {
  entries: Entry[];
  names: Joined;
  fulls: Joined;
  /** ` part part ` per entry: ` p ` finds exactly the entries with the part p. */
  nameParts: Joined;
  qualifiedParts: Joined;
  /** How many entries have each part (in their name; in their qualified name), to search for the rarest. */
  nameCounts: Map<string, number>;
  qualifiedCounts: Map<string, number>;
}

function partCounts(entries: readonly Entry[], parts: (e: Entry) => Set<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const e of entries) for (const p of parts(e)) counts.set(p, (counts.get(p) ?? 0) + 1);
  return counts;
}

function tableFrom(entries: Entry[]): SymbolTable {
  // Each text starts with a newline, so `\n` + a prefix finds the names that start with it.
  const join = (text: (e: Entry) => string): Joined => {
    const starts = new Int32Array(entries.length);
    let at = 1;
    const parts = entries.map((e, i) => {
      starts[i] = at;
      const t = text(e);
      at += t.length + 1;
      return t;
    });
    return { text: `\n${parts.join('\n')}\n`, starts };
  };
  return {
    entries,
    names: join((e) => e.lowerName),
    fulls: join((e) => e.full.toLowerCase()),
    nameParts: join((e) => ` ${[...e.nameParts].join(' ')} `),
    qualifiedParts: join((e) => ` ${[...e.qualifiedParts].join(' ')} `),
    nameCounts: partCounts(entries, (e) => e.nameParts),
    qualifiedCounts: partCounts(entries, (e) => e.qualifiedParts),
  };
}

/** Indexes of the entries whose text contains `needle` (a leading newline is the one before the entry's text). */
function containing(j: Joined, needle: string): Set<number> {
  const into = new Set<number>();
  const lead = needle.startsWith('\n') ? 1 : 0;
  for (let found = j.text.indexOf(needle); found >= 0; found = j.text.indexOf(needle, found + 1)) {
    const at = found + lead;
    let lo = 0;
    let hi = j.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (j.starts[mid] <= at) lo = mid;
      else hi = mid - 1;
    }
    into.add(lo);
  }
  return into;
}

/**
 * Entries that may match, found by substring search; `matchEntry` decides. An exact or prefix match of a plain
 * query starts the name with it; of a dotted one, the full name holds it, or ends with its last segment (a query
 * longer than the full name); a parts match has every part.
 */
function mayMatch(table: SymbolTable, q: ParsedQuery): Entry[] {
  const hits = q.dotted ? containing(table.fulls, q.lower) : containing(table.names, `\n${q.lower}`);
  // A query longer than an object's full name (`sympy.core.add.Add` for `core.add.Add`) holds it as a dotted suffix.
  if (q.dotted) {
    for (let dot = q.lower.indexOf('.'); dot >= 0; dot = q.lower.indexOf('.', dot + 1)) {
      const suffix = q.lower.slice(dot + 1);
      if (suffix.includes('.')) for (const i of containing(table.fulls, `\n${suffix}\n`)) hits.add(i);
    }
  }
  // Entries with the query's rarest part (none has a part no entry has); matchEntry checks the others on each.
  const counts = q.dotted ? table.qualifiedCounts : table.nameCounts;
  const rarest = q.parts.reduce<string | null>((a, b) => (a === null || (counts.get(b) ?? 0) < (counts.get(a) ?? 0) ? b : a), null);
  if (rarest !== null && counts.has(rarest)) for (const i of containing(q.dotted ? table.qualifiedParts : table.nameParts, ` ${rarest} `)) hits.add(i);
  return [...hits].map((i) => table.entries[i]);
}

const isTable = (t: SymbolTable | readonly Entry[]): t is SymbolTable => !Array.isArray(t);

/** The `k` smallest items in order, by binary insertion into a bounded list: n log k comparisons, not n log n. */
export function smallest<T>(items: readonly T[], k: number, cmp: (a: T, b: T) => number): T[] {
  const out: T[] = [];
  for (const item of items) {
    if (out.length === k && cmp(item, out[k - 1]) >= 0) continue;
    let lo = 0;
    let hi = out.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cmp(out[mid], item) <= 0) lo = mid + 1;
      else hi = mid;
    }
    out.splice(lo, 0, item);
    if (out.length > k) out.pop();
  }
  return out;
}

interface Ranked {
  /** The first `limit` matches, in order. */
  found: { o: SymbolCandidate; match: SymbolMatchKind }[];
  counts: Record<SymbolMatchKind, number>;
  /** All matches. */
  total: number;
}

function rankEntries(table: SymbolTable | readonly Entry[], query: SymbolQuery): Ranked {
  const q = parseSymbolQuery(query.name);
  const inPath = pathFilter(query.path);
  const found: { e: Entry; match: SymbolMatchKind }[] = [];
  const counts: Record<SymbolMatchKind, number> = { exact: 0, prefix: 0, parts: 0 };
  for (const e of isTable(table) ? mayMatch(table, q) : table) {
    if (query.kind ? e.o.kind !== query.kind : e.o.kind === 'file') continue;
    const match = matchEntry(e, q);
    if (!match || !inPath(e.o.path)) continue;
    counts[match]++;
    found.push({ e, match });
  }
  return { found: smallest(found, query.limit, compare).map((f) => ({ o: f.e.o, match: f.match })), counts, total: found.length };
}

const tables = new WeakMap<DB, { generation: number; table: SymbolTable }>();

/**
 * Every object of the index with its derived names, for this generation: from the structure the structural
 * retriever keeps when it has one that is current (it follows the change log, so this costs a pass over entries
 * that already exist), else from one read of the objects' names.
 */
function tableOf(db: DB): SymbolTable {
  const generation = getGeneration(db);
  const held = tables.get(db);
  if (held?.generation === generation) return held.table;
  let objects: Iterable<SymbolCandidate> | null = null;
  if (structureGeneration(db) !== -1) {
    const s = structureOf(db);
    if (structureGeneration(db) === generation) objects = s.objects.values();
  }
  objects ??= db.prepare('SELECT o.id, f.path, o.kind, o.name, o.qualified_name AS qualifiedName FROM objects o JOIN files f ON f.id = o.file_id').all() as SymbolCandidate[];
  const table = tableFrom(Array.from(objects, entryOf));
  tables.set(db, { generation, table });
  return table;
}

/** `find_symbol`: exact, then prefix, then identifier-part matches, each with path, lines, kind and signature. */
export function findSymbols(db: DB, query: SymbolQuery): SymbolAnswer {
  const { found: page, counts, total } = rankEntries(tableOf(db), query);
  const rows = getObjects(db, page.map((f) => f.o.id));
  const matches: SymbolMatch[] = [];
  for (const { o, match } of page) {
    const r = rows.get(o.id);
    // Gone since the structure read it (a batch committed meanwhile): the next lookup sees the new rows.
    if (!r) continue;
    matches.push({ id: r.id, name: r.name, qualifiedName: r.qualifiedName, kind: r.kind, path: r.path, startLine: r.startLine, endLine: r.endLine, signature: r.signature, match });
  }
  return { query: query.name, matches, total, counts, truncated: total > page.length };
}
