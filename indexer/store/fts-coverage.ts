import { sourceLines } from '../extract/source.ts';
import { viewWholeLines } from '../extract/view-text.ts';
import type { ViewKind } from '../types.ts';
import { prepared, type DB } from './open.ts';
import { fileObjects } from './view-texts.ts';

/**
 * Whether the full-text index holds every line of a file whole, in one row: every line with something on it lies in
 * the text of one of the file's own bodies or windows, uncut. Most files are: their bodies partition them. A file is
 * not when a view's text was cut at its size cap (a 300 KB table of rules), when its views were capped in number or
 * text, or when it was indexed as one object without views (minified code): a literal search reads such a file
 * whatever the index says (retrieve/literal-search.ts).
 * @example ftsHoldsEveryLine(db, fileId, text) // false for SymPy's integrals/rubi/rules/sine.py, true for most files
 */
export function ftsHoldsEveryLine(db: DB, fileId: number, text: string): boolean {
  const { lines } = sourceLines(text);
  const held = new Uint8Array(lines.length + 1);
  const views = prepared(
    db,
    `SELECT o.id AS objectId, v.kind, v.start_line AS startLine, v.end_line AS endLine FROM views v JOIN objects o ON o.key = v.object
     WHERE v.file_id = ? AND v.derived = 0 AND v.kind IN ('body', 'window')`,
  ).all(fileId) as { objectId: string; kind: ViewKind; startLine: number; endLine: number }[];
  const objects = views.length ? fileObjects(db, fileId) : new Map();
  for (const v of views) {
    const object = objects.get(v.objectId);
    if (object) for (const line of viewWholeLines(v, lines, object, object.children)) held[line] = 1;
  }
  return lines.every((l, i) => held[i + 1] === 1 || l.trim() === '');
}
