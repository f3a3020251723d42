import crypto from 'node:crypto';
import { identifierParts, splitIdentifier } from '../identifiers.ts';
import type { FileExtraction, ObjectKind } from '../types.ts';
import { recordChanges } from './changes.ts';
import { prepared, type DB } from './open.ts';

/**
 * The stable id of a canonical object: a hash of (normalised path, qualified
 * name, kind), with an ordinal only for same-named twins in one file.
 */
export function objectId(path: string, qualifiedName: string, kind: ObjectKind, ordinal = 0): string {
  const key = `${path}\0${qualifiedName}\0${kind}${ordinal ? `\0${ordinal}` : ''}`;
  return crypto.createHash('sha1').update(key).digest('hex').slice(0, 16);
}

/** The text of the FTS `name` column for an object: the qualified name and its parts. */
export function ftsName(qualifiedName: string): string {
  const parts = qualifiedName.split(/[.:/]+/).flatMap((s) => (splitIdentifier(s).length > 1 ? splitIdentifier(s) : []));
  return `${qualifiedName.replace(/[.:/]+/g, ' ')} ${parts.join(' ')}`.trim();
}

/** Statements for writing one file's rows, prepared once per connection. */
export interface FileWriter {
  /** Replaces everything the index holds for `file.path` with the extraction. */
  write(file: FileExtraction): void;
  /** Removes a path and everything that lives in it. Returns whether it was indexed. */
  remove(path: string): boolean;
}

export function fileWriter(db: DB): FileWriter {
  const del = db.prepare('DELETE FROM files WHERE path = ?');
  const insFile = db.prepare(
    'INSERT INTO files (path, language, hash, size, mtime_ms, line_count, parse_errors) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const insText = db.prepare('INSERT INTO file_texts (file_id, text) VALUES (?, ?)');
  const insObject = db.prepare(
    `INSERT INTO objects (id, file_id, parent_id, kind, name, qualified_name, start_line, end_line, start_byte, end_byte, signature, docstring)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insView = db.prepare(
    'INSERT INTO views (object_id, file_id, kind, derived, start_line, end_line, text, tokens) VALUES (?, ?, ?, 0, ?, ?, ?, ?)',
  );
  const insFts = db.prepare('INSERT INTO views_fts (rowid, name, text, parts) VALUES (?, ?, ?, ?)');
  const insRef = db.prepare(
    'INSERT INTO refs (source_id, kind, name, qualifier, module, alias, line, target_id) VALUES (?, ?, ?, ?, ?, ?, ?, NULL)',
  );
  return {
    remove: (path) => del.run(path).changes > 0,
    write(file) {
      del.run(file.path);
      const fileId = Number(
        insFile.run(file.path, file.language, file.hash, file.size, file.mtimeMs, file.lineCount, file.parseErrors).lastInsertRowid,
      );
      insText.run(fileId, file.text);
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
        const id = insView.run(ids[v.object], fileId, v.kind, v.startLine, v.endLine, v.text, v.tokens).lastInsertRowid;
        insFts.run(id, ftsName(file.objects[v.object].qualifiedName), v.text, identifierParts(v.text));
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
