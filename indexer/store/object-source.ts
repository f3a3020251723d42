import { sourceLines } from '../extract/source.ts';
import type { CodeObject } from '../types.ts';
import { changedSince } from './changes.ts';
import { prepared, type DB } from './open.ts';
import { fiberObjects, getObjects } from './read.ts';
import { getGeneration } from './write.ts';

/** An object with its verbatim source lines, as the allocator reads it. */
export interface ObjectWithText extends CodeObject {
  /** Lines startLine..endLine of the indexed text, joined with `\n`. */
  text: string;
  /** Those lines, when splitting `text` gives them back (no line ends with a lone `\r`, at least one line). */
  lines?: readonly string[];
}

/**
 * An object with its lines of the file; the text is joined only when read (rendering takes the lines, and a
 * module's text is its whole file).
 */
function withLines(o: CodeObject, fileLines: readonly string[]): ObjectWithText {
  const lines = fileLines.slice(o.startLine - 1, o.endLine);
  let text: string | undefined;
  // Splitting the joined text on /\r?\n/ would also take a line's trailing `\r`, and gives one empty line for none.
  const exact = lines.length > 0 && !lines.some((l) => l.charCodeAt(l.length - 1) === 13);
  return {
    ...o,
    get text() {
      return (text ??= lines.join('\n'));
    },
    ...(exact ? { lines } : {}),
  };
}

/** What object sources remember: file lines, fibers and objects, each as the index holds it now. */
export interface SourceMemo {
  lines: Map<string, string[]>;
  fibers: Map<string, CodeObject[]>;
  objects: Map<string, CodeObject>;
  /** Characters of the remembered lines. */
  chars: number;
}

/** Characters a file's remembered lines hold (each line and one terminator), the same whether it is added or dropped. */
const charsOf = (lines: readonly string[]): number => lines.reduce((n, l) => n + l.length + 1, 0);

const emptyMemo = (): SourceMemo => ({ lines: new Map(), fibers: new Map(), objects: new Map(), chars: 0 });
/** Remembered file lines beyond this many characters start over (SymPy's 1,500 files hold 30 M). */
const MEMO_MAX_CHARS = 24_000_000;

/**
 * A memo for the object sources of one connection that follows the index: call it at the start of each query. It
 * drops the files the generations since its last call changed (the change log's paths; everything when the log no
 * longer reaches back), so what it hands out is what the index holds now, and queries stop reading and inflating
 * the same file texts again and again. (A text read while a later generation committed is dropped at the next
 * call if that generation changed its file.)
 */
export function followingMemo(db: DB): () => SourceMemo {
  let memo = emptyMemo();
  let generation = getGeneration(db);
  return () => {
    const now = getGeneration(db);
    if (now === generation && memo.chars <= MEMO_MAX_CHARS) return memo;
    const changed = now === generation ? null : changedSince(db, generation);
    generation = now;
    if (!changed || memo.chars > MEMO_MAX_CHARS) return (memo = emptyMemo());
    for (const path of changed) {
      memo.chars -= charsOf(memo.lines.get(path) ?? []);
      memo.lines.delete(path);
      memo.fibers.delete(path);
    }
    const gone = new Set(changed);
    for (const [id, o] of memo.objects) if (gone.has(o.path)) memo.objects.delete(id);
    return memo;
  };
}

/**
 * The store's side of the allocator's `ObjectSource`: objects with their
 * verbatim source from the indexed file texts, memoised per file for one query, or in `memo` across queries.
 */
export function storeObjectSource(db: DB, memo: SourceMemo = emptyMemo()): {
  objects(ids: string[]): Map<string, ObjectWithText>;
  infos(ids: string[]): Map<string, CodeObject>;
  fiberObjects(path: string): CodeObject[];
} {
  const textOf = prepared(db, 'SELECT t.text FROM file_texts t JOIN files f ON f.id = t.file_id WHERE f.path = ?', 'pluck');
  const linesOf = (path: string) => {
    let l = memo.lines.get(path);
    if (!l) {
      l = sourceLines((textOf.get(path) as string | undefined) ?? '').lines;
      memo.lines.set(path, l);
      memo.chars += charsOf(l);
    }
    return l;
  };
  const infos = (ids: string[]) => {
    const missing = ids.filter((id) => !memo.objects.has(id));
    for (const [id, o] of getObjects(db, missing)) memo.objects.set(id, o);
    // In the order asked, as `getObjects` answers.
    const out = new Map<string, CodeObject>();
    for (const id of ids) {
      const o = memo.objects.get(id);
      if (o) out.set(id, o);
    }
    return out;
  };
  return {
    objects(ids) {
      const out = new Map<string, ObjectWithText>();
      for (const [id, o] of infos(ids)) out.set(id, withLines(o, linesOf(o.path)));
      return out;
    },
    infos,
    fiberObjects(path) {
      let f = memo.fibers.get(path);
      if (!f) memo.fibers.set(path, (f = fiberObjects(db, path)));
      return f;
    },
  };
}
