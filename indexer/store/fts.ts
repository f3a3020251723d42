import { identifierParts, splitIdentifier } from '../identifiers.ts';
import type { ObjectKind, ViewKind } from '../types.ts';
import { prepared, type DB } from './open.ts';

/**
 * The one place that writes `views_fts`: which columns a view's row holds (`ftsColumns`), and the insert and delete
 * of rows. The table is contentless (the text lives once, in `file_texts`), so a row can only be deleted by
 * repeating exactly what was inserted: every writer goes through here, never through SQL of its own.
 */

/** What a view's full-text row is built from: the view and its object. */
export interface FtsView {
  kind: ViewKind;
  text: string;
}
export interface FtsObject {
  name: string;
  qualifiedName: string;
  kind: ObjectKind;
  /** The object's file. */
  path: string;
}

/** The text of the FTS `name` column for an object: the qualified name and its parts. */
export function ftsName(qualifiedName: string): string {
  const parts = qualifiedName.split(/[.:/]+/).flatMap((s) => (splitIdentifier(s).length > 1 ? splitIdentifier(s) : []));
  return `${qualifiedName.replace(/[.:/]+/g, ' ')} ${parts.join(' ')}`.trim();
}

/**
 * The columns of a view's row, in the table's column order: `name` (the object's qualified name and its parts),
 * `text` (the view text; identifiers stay whole, `_` being a token character), `parts` (the lower-cased parts of
 * every compound identifier, so `parse` finds `parseConfigFile` and `parse_config_file`).
 */
export function ftsColumns(view: FtsView, object: FtsObject): [name: string, text: string, parts: string] {
  return [ftsName(object.qualifiedName), view.text, identifierParts(view.text)];
}

/** Inserts and deletes rows of `views_fts`; the rowid is the view's id. */
export interface FtsRows {
  insert(rowid: number | bigint, view: FtsView, object: FtsObject): void;
  /** Removes the row of a view that is (still) in the index, given the view and object it was inserted from. */
  delete(rowid: number | bigint, view: FtsView, object: FtsObject): void;
}

export function ftsRows(db: DB): FtsRows {
  const ins = prepared(db, 'INSERT INTO views_fts (rowid, name, text, parts) VALUES (?, ?, ?, ?)');
  const del = prepared(db, 'DELETE FROM views_fts WHERE rowid = ?');
  return {
    insert: (rowid, view, object) => void ins.run(rowid, ...ftsColumns(view, object)),
    delete: (rowid) => void del.run(rowid),
  };
}
