/**
 * Where quoted texts occur in the source files of the index, found as reading every file would find them but
 * reading few: the full-text index names the files whose rows can hold a quote (`quoteMatch`), and only those, with
 * the files the index does not hold whole (`ftsHoldsEveryLine`), are read and searched for the exact text. A quote
 * without a whole token (`quoteMatch` null) is searched in every source file. SymPy, a prose query quoting a
 * message or pasting code: 150-250 ms of reading every file before; see BENCHMARKS.md for after.
 */
import { isAsidePath } from '../paths.ts';
import { ftsHoldsEveryLine } from '../store/fts-coverage.ts';
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
}

/** Per connection (an eval makes a retriever per query), which files the index holds whole, by file and content. */
const held = new WeakMap<DB, Map<number, { hash: string; whole: boolean }>>();

/**
 * A literal search over the source files of the index (not tests, docs or examples, nor text files). `search()`
 * starts one query's searches: each file is read at most once for them all. Which files the index holds whole is
 * kept across queries and retrievers, per file content (a file's views change only with its text).
 */
export function literalSearch(db: DB, { prefilter = true }: LiteralSearchOptions = {}): () => LiteralHits {
  let wholeIn = held.get(db);
  if (!wholeIn) held.set(db, (wholeIn = new Map()));
  const sourcesSql = `SELECT id, path, hash FROM files WHERE language != 'text' ORDER BY path`;
  const textSql = 'SELECT text FROM file_texts WHERE file_id = ?';
  const rowsSql = `SELECT DISTINCT v.file_id FROM views_fts JOIN views v ON v.id = views_fts.rowid WHERE views_fts MATCH ?`;
  return () => {
    const sources = (prepared(db, sourcesSql).all() as SourceFile[]).filter((f) => !isAsidePath(f.path));
    const texts = new Map<number, string>();
    const textOf = (id: number) => (prepared(db, textSql, 'pluck').get(id) as string | undefined) ?? '';
    // The texts read for this query's needles (not those read once to check them whole: every file, the first time).
    const read = (id: number): string => {
      let t = texts.get(id);
      if (t === undefined) texts.set(id, (t = textOf(id)));
      return t;
    };
    // Files whose rows may miss a line: always read. Known per content, so a daemon checks each file once.
    let unheld: Set<number> | undefined;
    const unheldFiles = () => {
      if (unheld) return unheld;
      unheld = new Set();
      const live = new Set<number>();
      for (const f of sources) {
        live.add(f.id);
        let w = wholeIn!.get(f.id);
        if (w?.hash !== f.hash) wholeIn!.set(f.id, (w = { hash: f.hash, whole: ftsHoldsEveryLine(db, f.id, texts.get(f.id) ?? textOf(f.id)) }));
        if (!w.whole) unheld.add(f.id);
      }
      for (const id of wholeIn!.keys()) if (!live.has(id)) wholeIn!.delete(id);
      return unheld;
    };
    const candidates = (needle: string): SourceFile[] => {
      const match = prefilter ? quoteMatch(needle) : null;
      if (match === null) return sources;
      const rows = new Set(prepared(db, rowsSql, 'pluck').all(match) as number[]);
      const always = unheldFiles();
      return sources.filter((f) => rows.has(f.id) || always.has(f.id));
    };
    return (needle, limit) => {
      const out = new Map<string, number[]>();
      for (const f of candidates(needle)) {
        const text = read(f.id);
        if (!text.includes(needle)) continue;
        out.set(f.path, linesHolding(text, needle));
        if (out.size >= limit) break;
      }
      return out;
    };
  };
}
