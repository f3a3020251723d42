import { sourceLines } from '../extract/source.ts';
import { viewText, type ViewTextObject } from '../extract/view-text.ts';
import type { ViewKind } from '../types.ts';
import type { DB } from './open.ts';

/** A stored view row, as far as its text depends on it. */
export interface StoredView {
  objectId: string;
  kind: ViewKind;
  derived: number;
  startLine: number;
  endLine: number;
  /** Kept for derived views only. */
  text: string | null;
}

/**
 * The texts of the views stored in one file's rows: a derived view keeps its line; an own view (of an object of
 * this file) is rebuilt from the file's lines and its object by the rule extraction used (extract/view-text.ts).
 * The file's text and objects are read on the first own view asked for.
 */
export function fileViewTexts(db: DB, fileId: number): (view: StoredView) => string {
  let lines: string[] | undefined;
  let objects: Map<string, ViewTextObject & { children: [number, number][] }> | undefined;
  const load = () => {
    const text = (db.prepare('SELECT text FROM file_texts WHERE file_id = ?').pluck().get(fileId) as string | undefined) ?? '';
    lines = sourceLines(text).lines;
    const rows = db
      .prepare(
        `SELECT o.id, p.id AS parentId, o.kind, o.start_line AS startLine, o.end_line AS endLine, o.signature, o.docstring
         FROM objects o LEFT JOIN objects p ON p.key = o.parent WHERE o.file_id = ?`,
      )
      .all(fileId) as (ViewTextObject & { id: string; parentId: string | null })[];
    objects = new Map(rows.map((o) => [o.id, { ...o, children: [] }]));
    for (const o of rows) if (o.parentId !== null) objects.get(o.parentId)?.children.push([o.startLine, o.endLine]);
  };
  return (view) => {
    if (view.derived) return view.text ?? '';
    if (!objects) load();
    const object = objects!.get(view.objectId);
    return object ? viewText(view, lines!, object, object.children) : '';
  };
}
