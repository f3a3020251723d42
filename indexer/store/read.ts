import { getTokenizer } from '../tokenizer.ts';
import type { CodeObject, Language, ObjectKind, Reference, View, ViewKind } from '../types.ts';
import { prepared, type DB } from './open.ts';
import { viewTexts, type StoredView } from './view-texts.ts';

export interface StoreCounts {
  files: number;
  filesByLanguage: Record<string, number>;
  /** Files indexed as plain text (no grammar), by extension (`.md`, `(none)`), most first. */
  textByExtension: Record<string, number>;
  objects: number;
  views: number;
  references: number;
  resolvedReferences: number;
}

/** How much the index holds. */
export function storeCounts(db: DB): StoreCounts {
  const one = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
  const byLang = db.prepare('SELECT language, count(*) AS n FROM files GROUP BY language ORDER BY language').all() as { language: string; n: number }[];
  return {
    files: one('SELECT count(*) AS n FROM files'),
    filesByLanguage: Object.fromEntries(byLang.map((r) => [r.language, r.n])),
    textByExtension: textByExtension(db),
    objects: one('SELECT count(*) AS n FROM objects'),
    views: one('SELECT count(*) AS n FROM views'),
    references: one('SELECT count(*) AS n FROM refs'),
    resolvedReferences: one('SELECT count(*) AS n FROM refs WHERE target IS NOT NULL'),
  };
}

function textByExtension(db: DB): Record<string, number> {
  const counts = new Map<string, number>();
  for (const { path } of db.prepare("SELECT path FROM files WHERE language = 'text'").all() as { path: string }[]) {
    const base = path.slice(path.lastIndexOf('/') + 1);
    const dot = base.lastIndexOf('.');
    const ext = dot > 0 ? base.slice(dot).toLowerCase() : '(none)';
    counts.set(ext, (counts.get(ext) ?? 0) + 1);
  }
  return Object.fromEntries([...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)));
}

/** An object's columns as a `CodeObject` (`o` the object, `f` its file). */
export const OBJECT_COLUMNS = `o.id, f.path, f.language, (SELECT p.id FROM objects p WHERE p.key = o.parent) AS parentId, o.kind, o.name, o.qualified_name AS qualifiedName,
  o.start_line AS startLine, o.end_line AS endLine, o.start_byte AS startByte, o.end_byte AS endByte, o.signature, o.docstring`;

interface ObjectRow {
  id: string; path: string; language: Language; parentId: string | null; kind: ObjectKind; name: string; qualifiedName: string;
  startLine: number; endLine: number; startByte: number; endByte: number; signature: string; docstring: string | null;
}

/** Objects by id (unknown ids are absent). */
export function getObjects(db: DB, ids: string[]): Map<string, CodeObject> {
  const stmt = prepared(db, `SELECT ${OBJECT_COLUMNS} FROM objects o JOIN files f ON f.id = o.file_id WHERE o.id = ?`);
  const out = new Map<string, CodeObject>();
  for (const id of new Set(ids)) {
    const row = stmt.get(id) as ObjectRow | undefined;
    if (row) out.set(id, row);
  }
  return out;
}

/** Objects of one provenance fiber (a file), in source order. */
export function fiberObjects(db: DB, path: string): CodeObject[] {
  return db
    .prepare(`SELECT ${OBJECT_COLUMNS} FROM objects o JOIN files f ON f.id = o.file_id WHERE f.path = ? ORDER BY o.start_line, o.end_line DESC`)
    .all(path) as ObjectRow[];
}

/** Objects whose name or qualified name is `name`. */
export function findObjectsByName(db: DB, name: string): CodeObject[] {
  return db
    .prepare(`SELECT ${OBJECT_COLUMNS} FROM objects o JOIN files f ON f.id = o.file_id WHERE o.name = ? OR o.qualified_name = ? ORDER BY f.path, o.start_line`)
    .all(name, name) as ObjectRow[];
}

/** The views of an object, own views first, with their texts (rebuilt from the file's lines) and token counts. */
export function objectViews(db: DB, id: string): View[] {
  const rows = prepared(
    db,
    `SELECT v.id, ? AS objectId, v.file_id AS fileId, f.path, v.kind, v.derived, v.start_line AS startLine, v.end_line AS endLine
     FROM views v JOIN files f ON f.id = v.file_id WHERE v.object = (SELECT key FROM objects WHERE id = ?) ORDER BY v.derived, f.path, v.start_line, v.id`,
  ).all(id, id) as (StoredView & { id: number; path: string })[];
  // Own views all live in the object's file (one text to read); each derived view is a line of its using file.
  const texts = viewTexts(db);
  const tokenizer = getTokenizer();
  return rows.map(({ id: viewId, objectId, path, kind, startLine, endLine, ...r }) => {
    const text = texts({ objectId, kind, startLine, endLine, ...r });
    return { id: viewId, objectId, path, kind, startLine, endLine, text, tokens: tokenizer.count(text) };
  });
}

/** References from an object (`from`) or resolved to it (`to`). */
export function objectReferences(db: DB, id: string, direction: 'from' | 'to'): Reference[] {
  const where = direction === 'from' ? 'r.source = (SELECT key FROM objects WHERE id = ?)' : 'r.target = (SELECT key FROM objects WHERE id = ?)';
  return db
    .prepare(
      `SELECT o.id AS sourceId, f.path, r.kind, r.name, r.qualifier, r.module, r.alias, r.line, t.id AS targetId
       FROM refs r JOIN objects o ON o.key = r.source JOIN files f ON f.id = o.file_id LEFT JOIN objects t ON t.key = r.target WHERE ${where} ORDER BY f.path, r.line, r.id`,
    )
    .all(id) as Reference[];
}

/** The indexed text of a file, or null when the path is not indexed. */
export function fileText(db: DB, path: string): string | null {
  const row = prepared(db, 'SELECT t.text FROM file_texts t JOIN files f ON f.id = t.file_id WHERE f.path = ?').get(path) as { text: string } | undefined;
  return row?.text ?? null;
}

/** Every indexed path with its language, sorted. */
export function indexedFiles(db: DB): { path: string; language: Language; lineCount: number; size: number }[] {
  return db.prepare('SELECT path, language, line_count AS lineCount, size FROM files ORDER BY path').all() as {
    path: string; language: Language; lineCount: number; size: number;
  }[];
}

export type { ViewKind };
