import { identifierParts, splitIdentifier } from '../identifiers.ts';
import { isAsidePath } from '../paths.ts';
import type { ObjectKind, ViewKind } from '../types.ts';
import { prepared, type DB } from './open.ts';
import { viewTexts, type StoredView } from './view-texts.ts';

/**
 * The one place that writes `views_fts`: which columns a view's row holds (`ftsColumns`), and the insert and delete
 * of rows. The table is contentless (the text lives once, in `file_texts`), and a contentless row is deleted with
 * FTS5's 'delete' command given exactly the values it was inserted with: that is what keeps BM25's statistics (row
 * count, column lengths) those of the rows that exist, so an index after any edits ranks as a fresh one.
 * (`contentless_delete = 1` deletes by rowid, but leaves the deleted rows in the statistics for good.)
 * Every writer goes through here, never through SQL of its own.
 */

/**
 * The version of what `ftsColumns` produces and of the table's definition. Bump it (with a migration that deletes
 * `state.fts_layout`, or that recreates the table) whenever either changes: rows inserted by other code cannot be
 * deleted by this code, so the store rebuilds every row (`ensureFtsLayout`) when the stored layout differs.
 */
export const FTS_LAYOUT = '2';

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
 * The table's columns, in order: one per field, so BM25 weighs each field at query time (`bm25(views_fts, w...)`):
 * - `name`: the object's qualified name and its parts, on the object's signature row (a module's body row, a text
 *   file's windows), so an object's name counts once, not once per view;
 * - `signature`, `docstring`, `body` (a text file's windows too): the own views' text, identifiers whole (`_` is a
 *   token character);
 * - `derived`: the text of lines elsewhere that use the object (call sites, imports, test references) and the parts
 *   of their identifiers;
 * - `parts`: the lower-cased parts of every compound identifier of an own view, so `parse` finds `parseConfigFile`;
 * - `aside`: every field of a row whose object lives in a test, example or documentation file (`isAsidePath`), so
 *   those rank below the code unless a query asks for them.
 * The tokenizer stems English words (porter over unicode61): `cookies` finds `cookie`, `formatted` finds `format`.
 */
export const FTS_COLUMNS = ['name', 'signature', 'docstring', 'body', 'derived', 'parts', 'aside'] as const;
export type FtsColumn = (typeof FTS_COLUMNS)[number];

/** The row's name field: on the view that stands for the object (its signature; a module's body; a file's windows). */
function carriesName(view: FtsView, object: FtsObject): boolean {
  if (view.kind === 'signature' || view.kind === 'window') return true;
  return view.kind === 'body' && object.kind === 'module';
}

/** The columns of a view's row, in `FTS_COLUMNS` order. */
export function ftsColumns(view: FtsView, object: FtsObject): string[] {
  const row: Record<FtsColumn, string> = { name: '', signature: '', docstring: '', body: '', derived: '', parts: '', aside: '' };
  const name = carriesName(view, object) ? nameColumn(object.qualifiedName) : '';
  const parts = identifierParts(view.text);
  const derived = view.kind === 'callsite' || view.kind === 'import' || view.kind === 'testref';
  if (isAsidePath(object.path)) row.aside = [name, view.text, parts].filter(Boolean).join(' ');
  else if (derived) row.derived = parts ? `${view.text} ${parts}` : view.text;
  else {
    row.name = name;
    row[view.kind === 'signature' ? 'signature' : view.kind === 'docstring' ? 'docstring' : 'body'] = view.text;
    row.parts = parts;
  }
  return FTS_COLUMNS.map((c) => row[c]);
}

// An object's views come one after another: its name column is built once.
let lastName = { qualifiedName: '', column: '' };
function nameColumn(qualifiedName: string): string {
  if (qualifiedName !== lastName.qualifiedName) lastName = { qualifiedName, column: ftsName(qualifiedName) };
  return lastName.column;
}

/** Inserts and deletes rows of `views_fts`; the rowid is the view's id. */
export interface FtsRows {
  insert(rowid: number | bigint, view: FtsView, object: FtsObject): void;
  /** Removes the row of a view that is in the index, given the view and object it was inserted from. */
  delete(rowid: number | bigint, view: FtsView, object: FtsObject): void;
}

const statements = new WeakMap<DB, FtsRows>();

export function ftsRows(db: DB): FtsRows {
  let rows = statements.get(db);
  if (!rows) {
    const columns = FTS_COLUMNS.join(', ');
    const values = FTS_COLUMNS.map(() => '?').join(', ');
    const ins = db.prepare(`INSERT INTO views_fts (rowid, ${columns}) VALUES (?, ${values})`);
    const del = db.prepare(`INSERT INTO views_fts (views_fts, rowid, ${columns}) VALUES ('delete', ?, ${values})`);
    rows = {
      insert: (rowid, view, object) => void ins.run(rowid, ...ftsColumns(view, object)),
      delete: (rowid, view, object) => {
        del.run(rowid, ...ftsColumns(view, object));
        countFtsDeleted(db, 1);
      },
    };
    statements.set(db, rows);
  }
  return rows;
}

/**
 * Empties the full-text index and inserts the row of every view again, file by file (views whose text lives in the
 * file), then records the layout. Run inside the caller's transaction. Returns the number of rows.
 */
export function rebuildFts(db: DB): number {
  // Every row goes; a migration that recreated the table dropped the views' rows without counting them.
  const views = db.prepare('SELECT count(*) FROM views').pluck().get() as number;
  countFtsDeleted(db, Math.max(ftsStatistics(db).rows, views));
  db.prepare("INSERT INTO views_fts (views_fts) VALUES ('delete-all')").run();
  const fts = ftsRows(db);
  const files = db.prepare('SELECT id FROM files ORDER BY id').pluck().all() as number[];
  const viewsOf = db.prepare(
    `SELECT v.id, o.id AS objectId, v.file_id AS fileId, v.kind, v.derived, v.start_line AS startLine, v.end_line AS endLine,
            o.name, o.qualified_name AS qualifiedName, o.kind AS objectKind, f.path
     FROM views v JOIN objects o ON o.key = v.object JOIN files f ON f.id = o.file_id WHERE v.file_id = ? ORDER BY v.id`,
  );
  let n = 0;
  for (const fileId of files) {
    const texts = viewTexts(db);
    for (const v of viewsOf.all(fileId) as (StoredView & { id: number; name: string; qualifiedName: string; objectKind: ObjectKind; path: string })[]) {
      fts.insert(v.id, { kind: v.kind, text: texts(v) }, { name: v.name, qualifiedName: v.qualifiedName, kind: v.objectKind, path: v.path });
      n++;
    }
  }
  db.prepare("INSERT INTO state (key, value) VALUES ('fts_layout', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(FTS_LAYOUT);
  return n;
}

/** The layout the stored rows were built with (null: unknown, rows to rebuild). */
export function storedFtsLayout(db: DB): string | null {
  return (db.prepare("SELECT value FROM state WHERE key = 'fts_layout'").pluck().get() as string | undefined) ?? null;
}

/** Rebuilds the full-text rows, in one transaction, when they were built with another layout (after a migration). */
export function ensureFtsLayout(db: DB): boolean {
  if (storedFtsLayout(db) === FTS_LAYOUT) return false;
  db.transaction(() => rebuildFts(db))();
  return true;
}

/**
 * Rows ever deleted from the full-text index (state `fts_deleted`, written in the transaction of the delete). A term
 * held by at least n rows when the count was c is held by at least n - (ftsDeleted now - c) rows: a reader keeps a
 * lower bound on a document frequency across index generations without counting again (term-selection.ts).
 */
export function ftsDeleted(db: DB): number {
  return Number((prepared(db, "SELECT value FROM state WHERE key = 'fts_deleted'", 'pluck').get() as string | undefined) ?? 0);
}

/** In the caller's transaction: counts n full-text rows deleted (every delete of a row is counted, by any writer). */
export function countFtsDeleted(db: DB, n: number): void {
  prepared(db, "INSERT INTO state (key, value) VALUES ('fts_deleted', ?) ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + excluded.value").run(String(n));
}

/** What BM25 normalises by: the rows FTS5 counts and their tokens per column (its "averages" record). */
export interface FtsStatistics {
  rows: number;
  tokens: number[];
}

/** FTS5's varints: big-endian groups of 7 bits, the high bit set on all but the last; a ninth byte holds 8 bits. */
function readVarints(buf: Uint8Array): number[] {
  const out: number[] = [];
  let i = 0;
  while (i < buf.length) {
    let v = 0;
    for (let k = 0; i < buf.length; k++) {
      const b = buf[i++];
      if (k === 8) { v = v * 256 + b; break; }
      v = v * 128 + (b & 0x7f);
      if (!(b & 0x80)) break;
    }
    out.push(v);
  }
  return out;
}

/** The statistics BM25 reads, from the averages record (rowid 1 of the table's `_data` shadow table). */
export function ftsStatistics(db: DB): FtsStatistics {
  const block = db.prepare('SELECT block FROM views_fts_data WHERE id = 1').pluck().get() as Uint8Array | undefined;
  const [rows = 0, ...tokens] = block ? readVarints(block) : [];
  return { rows, tokens };
}
