import crypto from 'node:crypto';
import type { FileExtraction, ObjectKind } from '../types.ts';
import { recordChanges } from './changes.ts';
import { packText } from './file-text.ts';
import { ftsRows, type FtsRows } from './fts.ts';
import { prepared, type DB } from './open.ts';
import { sourceLines } from '../extract/source.ts';
import { derivedLinesByText, derivedTextAt, textHash, viewTexts, type StoredView } from './view-texts.ts';

/**
 * The stable id of a canonical object: a hash of (normalised path, qualified
 * name, kind), with an ordinal only for same-named twins in one file.
 */
export function objectId(path: string, qualifiedName: string, kind: ObjectKind, ordinal = 0): string {
  const key = `${path}\0${qualifiedName}\0${kind}${ordinal ? `\0${ordinal}` : ''}`;
  return crypto.createHash('sha1').update(key).digest('hex').slice(0, 16);
}

/** The ids of a file's extracted objects, in extraction order: same-named twins are told apart by their ordinal. */
export function objectIds(path: string, objects: readonly Pick<FileExtraction['objects'][number], 'qualifiedName' | 'kind'>[]): string[] {
  const seen = new Map<string, number>();
  return objects.map((o) => {
    const key = `${o.qualifiedName}\0${o.kind}`;
    const ordinal = seen.get(key) ?? 0;
    seen.set(key, ordinal + 1);
    return objectId(path, o.qualifiedName, o.kind, ordinal);
  });
}

/** Statements for writing one file's rows, prepared once per connection. */
export interface FileWriter {
  /** Replaces everything the index holds for `file.path` with the extraction. */
  write(file: FileExtraction): void;
  /** Removes a path and everything that lives in it. Returns whether it was indexed. */
  remove(path: string): boolean;
}

interface IndexedView extends StoredView {
  id: number;
  /** `textHash` of an own view's text (null for derived views, and for own views written before schema 18). */
  textHash: number | null;
  fileId: number;
  name: string;
  qualifiedName: string;
  objectKind: ObjectKind;
  path: string;
}

/** A reference row as read or about to be written: id (or index), source key, kind, name, qualifier, module, alias, line. */
type StoredRefRow = [id: number, source: number | bigint, kind: string, name: string, qualifier: string | null, module: string | null, alias: string | null, line: number];

/** References by line, in row order, with what identifies the line's sequence of them (everything but ids and targets). */
function refsByLine(rows: readonly StoredRefRow[]): Map<number, { ids: number[]; of: string }> {
  const out = new Map<number, { ids: number[]; of: string }>();
  for (const [id, source, kind, name, qualifier, module, alias, line] of rows) {
    const entry = `${source}\0${kind}\0${name}\0${qualifier ?? '\u0001'}\0${module ?? '\u0001'}\0${alias ?? '\u0001'}\n`;
    const at = out.get(line);
    if (at) {
      at.ids.push(id);
      at.of += entry;
    } else out.set(line, { ids: [id], of: entry });
  }
  return out;
}

/** What resolution must look at again (see `resolution_pending`), recorded in the transaction of the write. */
export type PendingKind = 'path' | 'name' | 'target';

/** What of an object the resolver reads, besides its file: a change to it may change what names resolve to. */
const resolverKey = (o: { parentId: string | null; kind: string; name: string }) => `${o.parentId}\0${o.kind}\0${o.name}`;

/** What a view's full-text row is made of besides its object's id (which fixes the object's path, qualified name and kind). */
const rowKey = (objectId: string, name: string, kind: string, text: string | number) => `${objectId}\0${name}\0${kind}\0${text}`;

/**
 * Writes files' rows. A file written again keeps its row, the rows of objects it still has (same id) and the view
 * rows whose full-text columns would be the same (same object, kind and text: only their lines are updated), so a
 * file's rewrite costs what changed in it, not the whole file. What it no longer has is deleted, full-text rows
 * first (views whose text lives in the file, and views of its removed objects that live elsewhere). A use living in
 * the file (a derived view) of an object that stays keeps its row if the new text has a line of the same text: it
 * is moved there (a line of its old text would do as well as any) until resolution reconciles that object's uses,
 * keeping rows by that text wherever the uses' lines moved (resolution.ts); else it goes. Own views are matched by
 * their text's hash (`views.text_hash`), so only the rows that go have their old text rebuilt (for the full-text
 * delete). A line whose references are the same (same objects, kinds, names, in the same order) keeps its reference
 * rows and their targets, which resolution checks again with the file's others. Every
 * write records what resolution must look at again: the path, the names of objects that came, went or changed
 * (as the resolver sees them), and the objects whose derived views went.
 */
export function fileWriter(db: DB): FileWriter {
  const fts = ftsRows(db);
  const insPending = db.prepare('INSERT OR IGNORE INTO resolution_pending (kind, key) VALUES (?, ?)');
  const pending = (kind: PendingKind, key: string) => void insPending.run(kind, key);
  const fileIdOf = db.prepare('SELECT id FROM files WHERE path = ?').pluck();
  const objectsOf = db.prepare('SELECT o.key, o.id, p.id AS parentId, o.kind, o.name FROM objects o LEFT JOIN objects p ON p.key = o.parent WHERE o.file_id = ?');
  const viewsOf = db.prepare(
    `SELECT v.id, o.id AS objectId, v.file_id AS fileId, v.kind, v.derived, v.start_line AS startLine, v.end_line AS endLine, v.text_hash AS textHash,
            o.name, o.qualified_name AS qualifiedName, o.kind AS objectKind, fo.path
     FROM views v JOIN objects o ON o.key = v.object JOIN files fo ON fo.id = o.file_id
     WHERE v.file_id = ? OR v.object IN (SELECT key FROM objects WHERE file_id = ?)`,
  );
  const delFile = db.prepare('DELETE FROM files WHERE id = ?');
  const insFile = db.prepare(
    'INSERT INTO files (path, language, hash, size, mtime_ms, line_count, parse_errors) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const updFile = db.prepare(
    'UPDATE files SET language = ?, hash = ?, size = ?, mtime_ms = ?, line_count = ?, parse_errors = ?, bindings = NULL WHERE id = ?',
  );
  const insText = db.prepare('INSERT INTO file_blobs (file_id, data) VALUES (?, ?)');
  const updText = db.prepare('UPDATE file_blobs SET data = ? WHERE file_id = ?');
  const insObject = db.prepare(
    `INSERT INTO objects (id, file_id, parent, kind, name, qualified_name, start_line, end_line, start_byte, end_byte, signature, docstring)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // An object kept by id is rewritten in place; its vector is due again (the embedding pass finds it by its text's hash).
  const updObject = db.prepare(
    `UPDATE objects SET parent = ?, name = ?, start_line = ?, end_line = ?, start_byte = ?, end_byte = ?, signature = ?, docstring = ?, embed_hash = NULL
     WHERE key = ?`,
  );
  const setParent = db.prepare('UPDATE objects SET parent = ? WHERE key = ?');
  const delObject = db.prepare('DELETE FROM objects WHERE key = ?');
  const refsOf = db
    .prepare('SELECT r.id, r.source, r.kind, r.name, r.qualifier, r.module, r.alias, r.line FROM refs r JOIN objects o ON o.key = r.source WHERE o.file_id = ? ORDER BY r.line, r.id')
    .raw();
  const delRef = db.prepare('DELETE FROM refs WHERE id = ?');
  const insView = db.prepare('INSERT INTO views (object, file_id, kind, derived, start_line, end_line, text_hash) VALUES (?, ?, ?, 0, ?, ?, ?)');
  const updView = db.prepare('UPDATE views SET start_line = ?, end_line = ? WHERE id = ?');
  const delView = db.prepare('DELETE FROM views WHERE id = ?');
  const insRef = db.prepare(
    'INSERT INTO refs (source, kind, name, qualifier, module, alias, line, target) VALUES (?, ?, ?, ?, ?, ?, ?, NULL)',
  );

  /** Names of objects that came, went or changed as the resolver sees them: references to such names resolve again. */
  const changedNames = (before: Map<string, string>, after: Map<string, string>) => {
    for (const [id, key] of before) if (after.get(id) !== key) pending('name', key.slice(key.lastIndexOf('\0') + 1));
    for (const [id, key] of after) if (before.get(id) !== key) pending('name', key.slice(key.lastIndexOf('\0') + 1));
  };
  /** A file's objects: resolver keys and store keys by public id. */
  const heldBy = (fileId: number) => {
    const rows = objectsOf.all(fileId) as { key: number; id: string; parentId: string | null; kind: string; name: string }[];
    return { held: new Map(rows.map((o) => [o.id, resolverKey(o)])), keys: new Map(rows.map((o) => [o.id, o.key])) };
  };
  /**
   * The views that go with a file, and the text each full-text row was made of, rebuilt on first use from the lines
   * they live in: every use must come before the file's text or objects change.
   */
  const viewsWith = (fileId: number) => {
    const texts = viewTexts(db);
    const text = (v: IndexedView & { text?: string }): IndexedView & { text: string } => ((v.text ??= texts(v)), v as IndexedView & { text: string });
    return { views: viewsOf.all(fileId, fileId) as (IndexedView & { text?: string })[], text };
  };
  const dropView = (v: IndexedView & { text: string }) => {
    fts.delete(v.id, v, { name: v.name, qualifiedName: v.qualifiedName, kind: v.objectKind, path: v.path });
    delView.run(v.id);
  };

  const remove = (path: string) => {
    const id = fileIdOf.get(path) as number | undefined;
    if (id === undefined) return false;
    const { held } = heldBy(id);
    const { views, text } = viewsWith(id);
    for (const v of views) {
      // A use in this file of an object elsewhere: that object may show another use instead.
      if (v.derived && v.fileId === id && !held.has(v.objectId)) pending('target', v.objectId);
      fts.delete(v.id, text(v), { name: v.name, qualifiedName: v.qualifiedName, kind: v.objectKind, path: v.path });
    }
    delFile.run(id);
    pending('path', path);
    changedNames(held, new Map());
    return true;
  };

  return {
    remove,
    write(file) {
      const ids = objectIds(file.path, file.objects);
      const parentOf = (i: number) => (file.objects[i].parent === null ? null : ids[file.objects[i].parent!]);
      let fileId = fileIdOf.get(file.path) as number | undefined;
      const { held, keys: heldKeys } = fileId === undefined ? { held: new Map<string, string>(), keys: new Map<string, number>() } : heldBy(fileId);
      const keep = new Map<string, (IndexedView & { text?: string })[]>();
      /** The view row each extracted view keeps (same object, kind and text), by index in `file.views`. */
      const reused: (IndexedView | undefined)[] = [];
      const hashes = file.views.map((v) => textHash(v.text));
      let kept = new Set<string>();
      let oldRefs = new Map<number, { ids: number[]; of: string }>();
      /** Uses living in the file that stay if the new text has their line's text. */
      const staying: (IndexedView & { text: string })[] = [];
      if (fileId === undefined) {
        fileId = Number(insFile.run(file.path, file.language, file.hash, file.size, file.mtimeMs, file.lineCount, file.parseErrors).lastInsertRowid);
        insText.run(fileId, packText(file.text));
      } else {
        // Objects kept by id (and name: every full-text row of an object repeats its name) are updated in place.
        const nameOf = (key: string) => key.slice(key.lastIndexOf('\0') + 1);
        kept = new Set(ids.filter((id, i) => held.has(id) && nameOf(held.get(id)!) === file.objects[i].name));
        const { views, text } = viewsWith(fileId);
        for (const v of views) {
          if (v.derived) {
            if (v.fileId === fileId && !held.has(v.objectId)) {
              pending('target', v.objectId);
              staying.push(text(v));
            } else if (!kept.has(v.objectId)) dropView(text(v));
            else if (v.fileId === fileId) staying.push(text(v));
          } else if (kept.has(v.objectId)) {
            // Matched by the hash of their text: only rows that go need their old text rebuilt.
            const key = rowKey(v.objectId, v.name, v.kind, v.textHash ?? textHash(text(v).text));
            (keep.get(key) ?? keep.set(key, []).get(key)!).push(v);
          } else dropView(text(v));
        }
        // Own views of kept objects keep their rows when their full-text columns are the same; the others go now,
        // while their old text can still be rebuilt.
        file.views.forEach((v, i) => {
          const o = file.objects[v.object];
          if (kept.has(ids[v.object])) reused[i] = keep.get(rowKey(ids[v.object], o.name, v.kind, hashes[i]))?.pop();
        });
        for (const left of keep.values()) for (const v of left) dropView(text(v));
        oldRefs = refsByLine(refsOf.all(fileId) as StoredRefRow[]);
        for (const [id, key] of heldKeys) if (!kept.has(id)) delObject.run(key);
        updFile.run(file.language, file.hash, file.size, file.mtimeMs, file.lineCount, file.parseErrors, fileId);
        updText.run(packText(file.text), fileId);
        if (staying.length) {
          // Only a line that holds a reference can hold a use after resolution: the row goes to the next such line
          // of its text (a use of its object there is the likely one), or goes now.
          const lines = sourceLines(file.text).lines;
          const linesOf = derivedLinesByText(lines, [...new Set(file.references.map((r) => r.line))].sort((x, y) => x - y));
          const taken = new Map<string, number>();
          for (const v of staying.sort((x, y) => x.startLine - y.startLine)) {
            if (derivedTextAt(lines, v.kind, v.startLine) === v.text) continue;
            const at = linesOf(v.kind, v.text);
            const key = rowKey(v.objectId, '', v.kind, v.text);
            const i = taken.get(key) ?? 0;
            taken.set(key, i + 1);
            if (!at.length) dropView(v);
            else updView.run(at[Math.min(i, at.length - 1)], at[Math.min(i, at.length - 1)], v.id);
          }
        }
      }
      // Store keys in extraction order; a parent extracted after its child gets its key set once it has one.
      const keys: (number | bigint)[] = [];
      const late: number[] = [];
      file.objects.forEach((o, i) => {
        const p = o.parent === null ? null : (keys[o.parent] ?? (late.push(i), null));
        if (kept.has(ids[i])) {
          keys[i] = heldKeys.get(ids[i])!;
          updObject.run(p, o.name, o.startLine, o.endLine, o.startByte, o.endByte, o.signature, o.docstring, keys[i]);
        } else keys[i] = insObject.run(ids[i], fileId, p, o.kind, o.name, o.qualifiedName, o.startLine, o.endLine, o.startByte, o.endByte, o.signature, o.docstring).lastInsertRowid;
      });
      for (const i of late) setParent.run(keys[file.objects[i].parent!], keys[i]);
      file.views.forEach((v, i) => {
        const o = file.objects[v.object];
        const reuse = reused[i];
        if (reuse) updView.run(v.startLine, v.endLine, reuse.id);
        else fts.insert(insView.run(keys[v.object], fileId, v.kind, v.startLine, v.endLine, hashes[i]).lastInsertRowid, v, { ...o, path: file.path });
      });
      pending('path', file.path);
      changedNames(held, new Map(file.objects.map((o, i) => [ids[i], resolverKey({ parentId: parentOf(i), kind: o.kind, name: o.name })])));
      // A line whose references are those it had (same objects, in the same order) keeps its rows and their targets,
      // which resolution checks again like any of the file's; the others are deleted, then inserted (target unknown).
      // Deleted first: a row id freed by a cascade may be given to a new row, which must not go with the old ones.
      const fresh = refsByLine(file.references.map((r, i) => [i, keys[r.source], r.kind, r.name, r.qualifier, r.module, r.alias, r.line] as StoredRefRow));
      for (const [line, was] of oldRefs) {
        if (fresh.get(line)?.of === was.of) fresh.delete(line);
        else for (const id of was.ids) delRef.run(id);
      }
      for (const now of fresh.values()) {
        for (const i of now.ids) {
          const r = file.references[i];
          insRef.run(keys[r.source], r.kind, r.name, r.qualifier, r.module, r.alias, r.line);
        }
      }
    },
  };
}

/** Index-wide flags (see the `state` table). */
export function setState(db: DB, key: string, value: string | null): void {
  if (value === null) prepared(db, 'DELETE FROM state WHERE key = ?').run(key);
  else prepared(db, 'INSERT INTO state (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(key, value);
}

export function getState(db: DB, key: string): string | null {
  return (prepared(db, 'SELECT value FROM state WHERE key = ?', 'pluck').get(key) as string | undefined) ?? null;
}

/**
 * Counts changes to the index: bumped in every transaction that changes files
 * or resolution, with the paths it changed (see `changes.ts`), so caches built
 * from the store (the structural retriever's) know when they are stale and what to update.
 */
export function bumpGeneration(db: DB, changed: Iterable<string> = []): number {
  db.prepare("INSERT INTO state (key, value) VALUES ('generation', '1') ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1").run();
  const generation = getGeneration(db);
  recordChanges(db, generation, changed);
  return generation;
}

export function getGeneration(db: DB): number {
  return Number(getState(db, 'generation') ?? 0);
}
