/**
 * File-level retrieval over the index, for `allot files`: BM25 of a long query
 * (an issue) over whole files and over views aggregated per file, objects by
 * name, the lines that use a name, and literal strings in the indexed texts.
 * Read-only; additive to the view-level retrieval of `bm25.ts`.
 */
import type { DB } from '../store/open.ts';
import { bm25Ranked } from './bm25.ts';
import { termsOf } from './chunks.ts';

const K1 = 1.2;
const B = 0.75;
/** Query terms an FTS5 expression carries: the most informative of the issue. */
const MAX_FTS_TERMS = 48;
/** Views retrieved before aggregating per file. */
const VIEW_POOL = 400;
/** Objects of a file whose scores add up to its score. */
const OBJECTS_PER_FILE = 3;

/**
 * Words that carry no meaning for ranking code against prose: English function
 * words and keywords common to every language. Terms shorter than 2 characters
 * are dropped too.
 */
const STOP = new Set(
  ('a an and are as at be been but by can could did do does doing done for from had has have having how i if in into is it its ' +
    'just me my no not of on or our so such than that the their them then there these they this those to too us was we were what ' +
    'when where which while who why will with would you your also should may might must shall about after again all any because ' +
    'before being both each few further here more most other same some very only own over under until up down out off once ' +
    'def self return import from none true false null undefined class function var let const new else elif pass').split(/\s+/),
);

/** Query terms with their weights: identifier terms of the text (whole and parts), stop words out, weight 1 + ln(tf). */
export function queryTermWeights(text: string): Map<string, number> {
  const tf = new Map<string, number>();
  for (const t of termsOf(text)) {
    if (t.length < 2 || STOP.has(t) || /^\d+$/.test(t)) continue;
    tf.set(t, (tf.get(t) ?? 0) + 1);
  }
  return new Map([...tf].map(([t, f]) => [t, 1 + Math.log(f)]));
}

/** Term statistics of every indexed file's text, built once per instance. */
export interface FileTermIndex {
  paths: string[];
  /** Term frequencies per file (same order as `paths`). */
  tfs: Map<string, number>[];
  lengths: number[];
  avgLength: number;
  /** Document frequency of each term. */
  df: Map<string, number>;
}

export function buildFileTermIndex(db: DB, include: (path: string) => boolean = () => true): FileTermIndex {
  const rows = db.prepare('SELECT f.path, t.text FROM file_texts t JOIN files f ON f.id = t.file_id ORDER BY f.path').iterate() as IterableIterator<{ path: string; text: string }>;
  const paths: string[] = [];
  const tfs: Map<string, number>[] = [];
  const lengths: number[] = [];
  const df = new Map<string, number>();
  for (const { path, text } of rows) {
    if (!include(path)) continue;
    const tf = new Map<string, number>();
    const terms = termsOf(text);
    for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const t of tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
    paths.push(path);
    tfs.push(tf);
    lengths.push(terms.length);
  }
  const avgLength = lengths.reduce((s, n) => s + n, 0) / Math.max(1, lengths.length);
  return { paths, tfs, lengths, avgLength, df };
}

/** Inverse document frequency (BM25's, never negative). */
export function idf(index: FileTermIndex, term: string): number {
  const n = index.paths.length;
  const d = index.df.get(term) ?? 0;
  return Math.log(1 + (n - d + 0.5) / (d + 0.5));
}

/**
 * Okapi BM25 of a weighted query over whole files: sum over query terms of
 * weight * idf * saturated tf. Files scoring 0 are left out.
 */
export function fileBm25(index: FileTermIndex, weights: ReadonlyMap<string, number>): Map<string, number> {
  const q = [...weights].filter(([t]) => index.df.has(t)).map(([t, w]) => ({ t, w: w * idf(index, t) }));
  const out = new Map<string, number>();
  index.tfs.forEach((tf, i) => {
    let s = 0;
    const norm = K1 * (1 - B + (B * index.lengths[i]) / Math.max(1, index.avgLength));
    for (const { t, w } of q) {
      const f = tf.get(t);
      if (f) s += (w * f * (K1 + 1)) / (f + norm);
    }
    if (s > 0) out.set(index.paths[i], s);
  });
  return new Map([...out].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)));
}

/** An FTS5 MATCH expression of the most informative weighted terms (weight * idf), each quoted. */
export function weightedFtsQuery(weights: ReadonlyMap<string, number>, index?: FileTermIndex, max = MAX_FTS_TERMS): string | null {
  const ranked = [...weights]
    .filter(([t]) => /^[a-z0-9_]+$/.test(t) && (!index || index.df.has(t)))
    .map(([t, w]) => ({ t, s: w * (index ? idf(index, t) : 1) }))
    .sort((a, b) => b.s - a.s || (a.t < b.t ? -1 : 1))
    .slice(0, max);
  return ranked.length ? ranked.map(({ t }) => `"${t}"`).join(' OR ') : null;
}

/**
 * Views matching an FTS5 expression, aggregated per file where their text
 * lives: each object keeps its best view, a file adds up its best three objects.
 */
export function viewScoresByFile(db: DB, match: string | null, include: (path: string) => boolean = () => true): Map<string, number> {
  if (!match) return new Map();
  const rows = db
    .prepare(
      `SELECT m.rank, o.id AS objectId, f.path
       FROM (${bm25Ranked()}) m
       JOIN views v ON v.id = m.rowid JOIN objects o ON o.key = v.object JOIN files f ON f.id = v.file_id`,
    )
    .all(match, VIEW_POOL) as { rank: number; objectId: string; path: string }[];
  const best = new Map<string, { path: string; score: number }>();
  for (const r of rows) {
    if (!include(r.path)) continue;
    const key = `${r.path}\u0000${r.objectId}`;
    const cur = best.get(key);
    if (!cur || -r.rank > cur.score) best.set(key, { path: r.path, score: -r.rank });
  }
  const perFile = new Map<string, number[]>();
  for (const { path, score } of best.values()) {
    const list = perFile.get(path);
    if (list) list.push(score);
    else perFile.set(path, [score]);
  }
  const out = new Map<string, number>();
  for (const [path, scores] of perFile) {
    scores.sort((a, b) => b - a);
    out.set(path, scores.slice(0, OBJECTS_PER_FILE).reduce((s, x) => s + x, 0));
  }
  return new Map([...out].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)));
}

export interface NamedObject {
  id: string;
  path: string;
  name: string;
  qualifiedName: string;
  kind: string;
  startLine: number;
  endLine: number;
}

/**
 * Objects named `name`; a dotted name (`Session.send`, `requests.sessions.Session`)
 * matches objects with its last segment whose qualified name ends with it.
 */
export function objectsNamed(db: DB, name: string): NamedObject[] {
  const parts = name.split('.').filter(Boolean);
  const last = parts.at(-1);
  if (!last) return [];
  const rows = db
    .prepare(
      `SELECT o.id, f.path, o.name, o.qualified_name AS qualifiedName, o.kind, o.start_line AS startLine, o.end_line AS endLine
       FROM objects o JOIN files f ON f.id = o.file_id WHERE o.name = ? ORDER BY f.path, o.start_line`,
    )
    .all(last) as NamedObject[];
  if (parts.length === 1) return rows;
  const dotted = parts.join('.');
  return rows.filter((r) => {
    const q = r.qualifiedName;
    if (q === dotted || q.endsWith(`.${dotted}`)) return true;
    // A module path written with the file's own module name: `pkg.mod.Class` for `Class` in `pkg/mod.py`.
    const modulePath = r.path.replace(/\.[^./]+$/, '').replace(/\/__init__$/, '').replace(/\//g, '.');
    const full = `${modulePath}.${q}`;
    return full === dotted || full.endsWith(`.${dotted}`);
  });
}

export interface UsingLine {
  path: string;
  line: number;
  from: string;
}

/** Lines that call, import or inherit an object named `name`: references resolved to such objects, then unresolved ones by name. */
export function usesOf(db: DB, name: string, limit = 200): UsingLine[] {
  const last = name.split('.').filter(Boolean).at(-1);
  if (!last) return [];
  const targetSet = new Set(objectsNamed(db, name).map((o) => o.id));
  const rows = db
    .prepare(
      `SELECT f.path, r.line, o.qualified_name AS "from", t.id AS targetId, r.target IS NOT NULL AS resolved
       FROM refs r JOIN objects o ON o.key = r.source JOIN files f ON f.id = o.file_id LEFT JOIN objects t ON t.key = r.target
       WHERE r.name = ? AND (r.alias IS NULL OR r.alias = r.name) ORDER BY f.path, r.line LIMIT ?`,
    )
    .all(last, limit * 4) as (UsingLine & { targetId: string | null; resolved: number })[];
  const resolved = rows.filter((r) => r.targetId !== null && targetSet.has(r.targetId));
  const unresolved = rows.filter((r) => !r.resolved);
  return [...resolved, ...unresolved].slice(0, limit).map(({ path, line, from }) => ({ path, line, from }));
}

/** Lines of indexed texts containing `text` literally (case-sensitive), in path order, at most `limit`. */
export function literalLines(db: DB, text: string, limit = 50): { path: string; line: number }[] {
  if (!text) return [];
  const rows = db
    .prepare('SELECT f.path, t.text FROM file_texts t JOIN files f ON f.id = t.file_id WHERE instr(t.text, ?) > 0 ORDER BY f.path')
    .all(text) as { path: string; text: string }[];
  const out: { path: string; line: number }[] = [];
  for (const r of rows) {
    let line = 1;
    let counted = 0;
    for (let at = r.text.indexOf(text); at >= 0 && out.length < limit; at = r.text.indexOf(text, at + text.length)) {
      for (let i = counted; i < at; i++) if (r.text.charCodeAt(i) === 10) line++;
      counted = at;
      if (out.at(-1)?.path !== r.path || out.at(-1)?.line !== line) out.push({ path: r.path, line });
    }
    if (out.length >= limit) break;
  }
  return out;
}

/** Lines per chunk of the chunk-bm25 baseline. */
export const CHUNK_LINES = 20;

/**
 * The chunk-bm25 baseline's ranking over the whole index: every included file
 * cut into 20-line chunks, Okapi BM25 of the weighted query over all of them
 * (IDF over chunks), best first; chunks scoring 0 are left out.
 */
export function chunkBm25(db: DB, weights: ReadonlyMap<string, number>, include: (path: string) => boolean = () => true, chunkLines = CHUNK_LINES): { path: string; startLine: number; endLine: number; score: number }[] {
  const rows = db.prepare('SELECT f.path, t.text FROM file_texts t JOIN files f ON f.id = t.file_id ORDER BY f.path').iterate() as IterableIterator<{ path: string; text: string }>;
  const chunks: { path: string; startLine: number; endLine: number; tf: Map<string, number>; length: number }[] = [];
  const df = new Map<string, number>();
  for (const { path, text } of rows) {
    if (!include(path)) continue;
    const lines = text.split(/\r?\n/);
    if (lines.length > 1 && lines.at(-1) === '') lines.pop();
    for (let start = 0; start < lines.length; start += chunkLines) {
      const end = Math.min(lines.length, start + chunkLines);
      const terms = termsOf(lines.slice(start, end).join('\n'));
      const tf = new Map<string, number>();
      for (const t of terms) if (weights.has(t)) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const t of tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
      chunks.push({ path, startLine: start + 1, endLine: end, tf, length: terms.length });
    }
  }
  const n = chunks.length;
  const avg = chunks.reduce((s, c) => s + c.length, 0) / Math.max(1, n);
  const q = [...weights].filter(([t]) => df.has(t)).map(([t, w]) => ({ t, w: w * Math.log(1 + (n - df.get(t)! + 0.5) / (df.get(t)! + 0.5)) }));
  const out: { path: string; startLine: number; endLine: number; score: number }[] = [];
  for (const c of chunks) {
    let s = 0;
    const norm = K1 * (1 - B + (B * c.length) / Math.max(1, avg));
    for (const { t, w } of q) {
      const f = c.tf.get(t);
      if (f) s += (w * f * (K1 + 1)) / (f + norm);
    }
    if (s > 0) out.push({ path: c.path, startLine: c.startLine, endLine: c.endLine, score: s });
  }
  return out.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : a.startLine - b.startLine));
}
