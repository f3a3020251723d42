import crypto from 'node:crypto';
import type { FileExtraction, ObjectKind } from '../types.ts';
import { recordChanges } from './changes.ts';
import { packText } from './file-text.ts';
import { ftsRows, type FtsRows } from './fts.ts';
import { prepared, type DB } from './open.ts';
import { fileViewTexts, type StoredView } from './view-texts.ts';

/**
 * The stable id of a canonical object: a hash of (normalised path, qualified
 * name, kind), with an ordinal only for same-named twins in one file.
 */
export function objectId(path: string, qualifiedName: string, kind: ObjectKind, ordinal = 0): string {
  const key = `${path}\0${qualifiedName}\0${kind}${ordinal ? `\0${ordinal}` : ''}`;
  return crypto.createHash('sha1').update(key).digest('hex').slice(0, 16);
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
  fileId: number;
  name: string;
  qualifiedName: string;
  objectKind: ObjectKind;
  path: string;
}

/**
 * Removes a file's rows: first the full-text rows of every view that goes with it (views whose text lives in the
 * file, and views of its objects that live elsewhere), then the file, whose rows cascade.
 */
function fileRemover(db: DB, fts: FtsRows): (path: string) => boolean {
  const fileId = db.prepare('SELECT id FROM files WHERE path = ?').pluck();
  const views = db.prepare(
    `SELECT v.id, v.object_id AS objectId, v.file_id AS fileId, v.kind, v.derived, v.start_line AS startLine, v.end_line AS endLine, v.text,
            o.name, o.qualified_name AS qualifiedName, o.kind AS objectKind, fo.path
     FROM views v JOIN objects o ON o.id = v.object_id JOIN files fo ON fo.id = o.file_id
     WHERE v.file_id = ? OR v.object_id IN (SELECT id FROM objects WHERE file_id = ?)`,
  );
  const del = db.prepare('DELETE FROM files WHERE id = ?');
  return (path) => {
    const id = fileId.get(path) as number | undefined;
    if (id === undefined) return false;
    // Own views of this file's objects are rebuilt from its lines; derived views keep their text.
    const texts = fileViewTexts(db, id);
    for (const v of views.all(id, id) as IndexedView[]) {
      const text = v.derived ? (v.text ?? '') : texts(v);
      fts.delete(v.id, { kind: v.kind, text }, { name: v.name, qualifiedName: v.qualifiedName, kind: v.objectKind, path: v.path });
    }
    del.run(id);
    return true;
  };
}

export function fileWriter(db: DB): FileWriter {
  const fts = ftsRows(db);
  const remove = fileRemover(db, fts);
  const insFile = db.prepare(
    'INSERT INTO files (path, language, hash, size, mtime_ms, line_count, parse_errors) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const insText = db.prepare('INSERT INTO file_blobs (file_id, data) VALUES (?, ?)');
  const insObject = db.prepare(
    `INSERT INTO objects (id, file_id, parent_id, kind, name, qualified_name, start_line, end_line, start_byte, end_byte, signature, docstring)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insView = db.prepare(
    'INSERT INTO views (object_id, file_id, kind, derived, start_line, end_line) VALUES (?, ?, ?, 0, ?, ?)',
  );
  const insRef = db.prepare(
    'INSERT INTO refs (source_id, kind, name, qualifier, module, alias, line, target_id) VALUES (?, ?, ?, ?, ?, ?, ?, NULL)',
  );
  return {
    remove,
    write(file) {
      remove(file.path);
      const fileId = Number(
        insFile.run(file.path, file.language, file.hash, file.size, file.mtimeMs, file.lineCount, file.parseErrors).lastInsertRowid,
      );
      insText.run(fileId, packText(file.text));
      const seen = new Map<string, number>();
      const ids = file.objects.map((o) => {
        const key = `${o.qualifiedName}\0${o.kind}`;
        const ordinal = seen.get(key) ?? 0;
        seen.set(key, ordinal + 1);
        return objectId(file.path, o.qualifiedName, o.kind, ordinal);
      });
      file.objects.forEach((o, i) => {
        insObject.run(
          ids[i], fileId, o.parent === null ? null : ids[o.parent], o.kind, o.name, o.qualifiedName,
          o.startLine, o.endLine, o.startByte, o.endByte, o.signature, o.docstring,
        );
      });
      for (const v of file.views) {
        const id = insView.run(ids[v.object], fileId, v.kind, v.startLine, v.endLine).lastInsertRowid;
        fts.insert(id, v, { ...file.objects[v.object], path: file.path });
      }
      for (const r of file.references) {
        insRef.run(ids[r.source], r.kind, r.name, r.qualifier, r.module, r.alias, r.line);
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
