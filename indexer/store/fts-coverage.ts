import { sourceLines } from '../extract/source.ts';
import { viewWholeLines } from '../extract/view-text.ts';
import type { ViewKind } from '../types.ts';
import { prepared, type DB } from './open.ts';
import { fileObjects } from './view-texts.ts';

/**
 * The lines of a file (with something on them) the full-text index does not hold whole in one row: lines in the text
 * of none of the file's own bodies or windows, or cut there. Most files have none: their bodies partition them. Some
 * do when a view's text was cut at its size cap (a 300 KB table of rules), when its views were capped in number or
 * text, or when it was indexed as one object without views (minified code): a literal search looks for a quote in
 * those lines whatever the index says (retrieve/literal-search.ts).
 * @example linesNotHeld(db, fileId, text) // 2048 lines of SymPy's integrals/rubi/rules/sine.py, none for most files
 */
export function linesNotHeld(db: DB, fileId: number, text: string): string[] {
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
  return lines.filter((l, i) => held[i + 1] !== 1 && l.trim() !== '');
}
