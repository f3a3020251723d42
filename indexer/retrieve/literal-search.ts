/**
 * Where quoted texts occur in the source files of the index, found as reading every file would find them but
 * reading few: the full-text index names the files whose rows can hold a quote (`quoteMatch`), and only those, and
 * files whose lines the index does not hold (`linesNotHeld`) have the quote's line there, are searched for the exact
 * text. A quote without a whole token (`quoteMatch` null) is searched in every source file. SymPy, a prose query
 * quoting a message or pasting code: 150-250 ms of reading every file before; see BENCHMARKS.md for after.
 */
import { isAsidePath } from '../paths.ts';
import { heldWithoutText, linesNotHeld } from '../store/fts-coverage.ts';
import { prepared, type DB } from '../store/open.ts';
import { quoteMatch } from './quote-match.ts';

/** Where a text occurs in one file's text: its 1-based lines. */
export function linesHolding(text: string, needle: string): number[] {
  const out: number[] = [];
  let line = 1;
  let counted = 0;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) {
    for (let i = counted; i < at; i++) if (text.charCodeAt(i) === 10) line++;
    counted = at;
    if (out.at(-1) !== line) out.push(line);
  }
  return out;
}

/** The files holding a needle, by path (in path order), with its lines in each: at most `limit` files. */
export type LiteralHits = (needle: string, limit: number) => Map<string, number[]>;

export interface LiteralSearchOptions {
  /** false: every source file is read for every needle (the reference the index's answers are tested against). */
  prefilter?: boolean;
}

interface SourceFile {
  id: number;
  path: string;
  hash: string;
  size: number;
  lineCount: number;
}

/**
 * Source texts kept per connection for literal searches, up to this many characters in all: a daemon answering
 * questions reads SymPy's source (19 M characters) once, not once per question (inflating it was most of a search's cost). A
 * larger repository's files past the cap are read from the store each time.
 */
export const MAX_KEPT_TEXT = 64 * 1024 * 1024;

/** What a connection keeps across searches (an eval makes a retriever per query), per file and content. */
interface Kept {
  /** Each file's lines the full-text index does not hold whole (`linesNotHeld`), joined; '' when it holds them all. */
  notHeld: Map<number, { hash: string; lines: string }>;
  texts: Map<number, { hash: string; text: string }>;
  chars: number;
}
const kept = new WeakMap<DB, Kept>();

/**
 * A literal search over the source files of the index (not tests, docs or examples, nor text files). `search()`
 * starts one query's searches. A file is read for a quote when a full-text row of it matches the quote's phrases
 * (`quoteMatch`) or when its lines the index does not hold have the quote's line; a quote without a whole token is
 * looked for in every file.
 */
export function literalSearch(db: DB, { prefilter = true }: LiteralSearchOptions = {}): () => LiteralHits {
  let k = kept.get(db);
  if (!k) kept.set(db, (k = { notHeld: new Map(), texts: new Map(), chars: 0 }));
  const state = k;
  const sourcesSql = `SELECT id, path, hash, size, line_count AS lineCount FROM files WHERE language != 'text' ORDER BY path`;
  const textSql = 'SELECT text FROM file_texts WHERE file_id = ?';
  const rowsSql = `SELECT DISTINCT v.file_id FROM views_fts JOIN views v ON v.id = views_fts.rowid WHERE views_fts MATCH ?`;
  const read = (f: SourceFile): string => {
    const held = state.texts.get(f.id);
    if (held?.hash === f.hash) return held.text;
    const text = (prepared(db, textSql, 'pluck').get(f.id) as string | undefined) ?? '';
    if (held) {
      state.texts.delete(f.id);
      state.chars -= held.text.length;
    }
    if (state.chars + text.length <= MAX_KEPT_TEXT) {
      state.texts.set(f.id, { hash: f.hash, text });
      state.chars += text.length;
    }
    return text;
  };
  const notHeld = (f: SourceFile): string => {
    let n = state.notHeld.get(f.id);
    if (n?.hash !== f.hash) {
      // Most files are known held without reading them: SymPy's first quoting question, 450 -> 265 CPU-ms.
      const lines = heldWithoutText(db, f) ? '' : linesNotHeld(db, f.id, read(f)).join('\n');
      state.notHeld.set(f.id, (n = { hash: f.hash, lines }));
    }
    return n.lines;
  };
  return () => {
    const sources = (prepared(db, sourcesSql).all() as SourceFile[]).filter((f) => !isAsidePath(f.path));
    const live = new Set(sources.map((f) => f.id));
    for (const map of [state.notHeld, state.texts]) for (const [id, v] of map) if (!live.has(id)) {
      map.delete(id);
      if ('text' in v) state.chars -= v.text.length;
    }
    const candidates = (needle: string): SourceFile[] => {
      const q = prefilter ? quoteMatch(needle) : null;
      if (q === null) return sources;
      const rows = new Set(prepared(db, rowsSql, 'pluck').all(q.match) as number[]);
      return sources.filter((f) => rows.has(f.id) || notHeld(f).includes(q.line));
    };
    return (needle, limit) => {
      const out = new Map<string, number[]>();
      for (const f of candidates(needle)) {
        const text = read(f);
        if (!text.includes(needle)) continue;
        out.set(f.path, linesHolding(text, needle));
        if (out.size >= limit) break;
      }
      return out;
    };
  };
}
