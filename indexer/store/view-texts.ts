import { lineAt, lineStarts, sourceLines } from '../extract/source.ts';
import { viewText, type ViewTextObject } from '../extract/view-text.ts';
import type { ViewKind } from '../types.ts';
import { prepared, type DB } from './open.ts';

/** A stored view row, as far as its text depends on it. */
export interface StoredView {
  objectId: string;
  /** The file whose lines hold the view's text (the using file for a derived view). */
  fileId: number;
  kind: ViewKind;
  derived: number;
  startLine: number;
  endLine: number;
}

/**
 * A 53-bit hash of a view's text (cyrb53: two multiplicative 32-bit lanes), stored with own views (`views.text_hash`)
 * so a file's rewrite tells which rows keep their full-text columns without rebuilding the old texts. Two different
 * texts of one object's view of one kind hashing alike (about 1 in 2^53 per edit) would leave that row's old text.
 */
export function textHash(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** A derived view's text is its line: it depends on no object. */
const NO_OBJECT: ViewTextObject = { kind: 'function', startLine: 0, endLine: 0, signature: '', docstring: null };

/**
 * Where each derived-view text is found among `candidates` (1-based lines of `lines`, ascending): the lines whose
 * use would have that text, for a view of `kind`, in line order. Built on first use.
 */
export function derivedLinesByText(lines: readonly string[], candidates: readonly number[]): (kind: ViewKind, text: string) => readonly number[] {
  const byKind = new Map<ViewKind, Map<string, number[]>>();
  return (kind, text) => {
    let at = byKind.get(kind);
    if (!at) {
      byKind.set(kind, (at = new Map()));
      for (const line of candidates) {
        const t = derivedTextAt(lines, kind, line);
        (at.get(t) ?? at.set(t, []).get(t)!).push(line);
      }
    }
    return at.get(text) ?? [];
  };
}

/** The text of a derived view of `kind` on `line` of `lines`. */
export const derivedTextAt = (lines: readonly string[], kind: ViewKind, line: number): string =>
  viewText({ kind, startLine: line, endLine: line }, lines, NO_OBJECT);

type FileObjects = Map<string, ViewTextObject & { children: [number, number][] }>;

/**
 * The texts of stored views, rebuilt by the rule extraction used (extract/view-text.ts) from the lines of the file
 * each lives in: an own view from its object too, a derived view (call site, import, test reference) from its one
 * line. A view's file never changes while the view exists, and a file's rewrite keeps a derived view living in it
 * only on a line of the same text (write.ts), so this is always the text its full-text row was inserted with. Each file's text, and its
 * objects for own views, are read on the first view that needs them and kept while the files kept hold at most
 * `maxChars` characters (the least recently used go first): a pass over the whole repository that asks file by file
 * holds a few files, not the repository's text.
 */
export function viewTexts(db: DB, opts: { maxChars?: number } = {}): (view: StoredView) => string {
  const maxChars = opts.maxChars ?? Infinity;
  const textOf = prepared(db, 'SELECT text FROM file_texts WHERE file_id = ?', 'pluck');
  const objectsOf = prepared(
    db,
    `SELECT o.id, p.id AS parentId, o.kind, o.start_line AS startLine, o.end_line AS endLine, o.signature, o.docstring
     FROM objects o LEFT JOIN objects p ON p.key = o.parent WHERE o.file_id = ?`,
  );
  const files = new Map<number, CachedFile>();
  let kept = 0;
  const file = (fileId: number) => {
    let f = files.get(fileId);
    if (f) {
      // Most recently used last: Map keeps insertion order.
      files.delete(fileId);
      files.set(fileId, f);
      return f;
    }
    f = { text: (textOf.get(fileId) as string | undefined) ?? '' };
    for (const [id, old] of files) {
      if (kept + f.text.length <= maxChars) break;
      files.delete(id);
      kept -= old.text.length;
    }
    files.set(fileId, f);
    kept += f.text.length;
    return f;
  };
  const objects = (fileId: number): FileObjects => {
    const rows = objectsOf.all(fileId) as (ViewTextObject & { id: string; parentId: string | null })[];
    const out: FileObjects = new Map(rows.map((o) => [o.id, { ...o, children: [] }]));
    for (const o of rows) if (o.parentId !== null) out.get(o.parentId)?.children.push([o.startLine, o.endLine]);
    return out;
  };
  return (view) => {
    const f = file(view.fileId);
    // A derived view's text is its one line: the line alone, as line 1 (a file's lines are split only for own views).
    if (view.derived) return derivedTextAt([lineAt(f.text, (f.starts ??= lineStarts(f.text)), view.startLine)], view.kind, 1);
    const object = (f.objects ??= objects(view.fileId)).get(view.objectId);
    return object ? viewText(view, (f.lines ??= sourceLines(f.text).lines), object, object.children) : '';
  };
}

/** A file's text as `viewTexts` keeps it: where its lines start (4 bytes a line), its lines split when an own view needs them. */
interface CachedFile {
  text: string;
  starts?: Uint32Array;
  lines?: string[];
  objects?: FileObjects;
}
