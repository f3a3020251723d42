/**
 * Who uses an object (`find_references`): the resolved references to it, each
 * with the file and line, the object enclosing the use, and the line's text as
 * indexed. A use from test code is marked `test`: that is how tests reference
 * what they test.
 */
import { lineAt, lineStarts } from '../extract/source.ts';
import { isTestPath } from '../paths.ts';
import type { ObjectKind, ReferenceFilter, ReferenceKind } from '../types.ts';
import { prepared, type DB } from './open.ts';
import { fileText } from './read.ts';

export type { ReferenceFilter };

export interface ReferenceSite {
  /** The object referenced. */
  targetId: string;
  kind: ReferenceKind;
  /** The use is in test code. */
  test: boolean;
  path: string;
  line: number;
  /** The object the use sits in (a module for top-level code). */
  enclosing: { id: string; name: string; qualifiedName: string; kind: ObjectKind; startLine: number; endLine: number };
  /** The line as indexed, without its line break. */
  text: string;
}

export interface ReferenceList {
  references: ReferenceSite[];
  /** Every reference that passed the filter, before the limit. */
  total: number;
  /** All references to the targets by kind, tests counted apart. */
  counts: Record<ReferenceFilter, number>;
  truncated: boolean;
}

interface Row {
  targetId: string;
  kind: ReferenceKind;
  line: number;
  path: string;
  id: string;
  name: string;
  qualifiedName: string;
  objectKind: ObjectKind;
  startLine: number;
  endLine: number;
}

/**
 * The references resolved to any of `targets`: uses from code before uses from tests, then by path and line.
 * @example referencesTo(db, ['f9b695053d321eb7'], { limit: 50 })
 */
export function referencesTo(db: DB, targets: readonly string[], opts: { kinds?: readonly ReferenceFilter[]; limit: number }): ReferenceList {
  const stmt = prepared(
    db,
    `SELECT ? AS targetId, r.kind, r.line, f.path, o.id, o.name, o.qualified_name AS qualifiedName, o.kind AS objectKind,
            o.start_line AS startLine, o.end_line AS endLine
     FROM refs r JOIN objects o ON o.key = r.source JOIN files f ON f.id = o.file_id WHERE r.target = (SELECT key FROM objects WHERE id = ?)`,
  );
  const rows: (Row & { test: boolean })[] = [];
  for (const id of new Set(targets)) for (const r of stmt.all(id, id) as Row[]) rows.push({ ...r, test: isTestPath(r.path) });
  const counts: Record<ReferenceFilter, number> = { call: 0, import: 0, inherit: 0, test: 0 };
  for (const r of rows) counts[r.test ? 'test' : r.kind]++;
  const wanted = opts.kinds?.length ? new Set(opts.kinds) : null;
  const kept = wanted ? rows.filter((r) => (r.test ? wanted.has('test') || wanted.has(r.kind) : wanted.has(r.kind))) : rows;
  kept.sort((a, b) => Number(a.test) - Number(b.test) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) || a.line - b.line || (a.targetId < b.targetId ? -1 : 1));
  const page = kept.slice(0, opts.limit);
  // Each file's text and line starts, read once for its references.
  const texts = new Map<string, { text: string; starts: Uint32Array } | null>();
  const references = page.map((r): ReferenceSite => {
    if (!texts.has(r.path)) {
      const text = fileText(db, r.path);
      texts.set(r.path, text == null ? null : { text, starts: lineStarts(text) });
    }
    const file = texts.get(r.path);
    return {
      targetId: r.targetId, kind: r.kind, test: r.test, path: r.path, line: r.line,
      enclosing: { id: r.id, name: r.name, qualifiedName: r.qualifiedName, kind: r.objectKind, startLine: r.startLine, endLine: r.endLine },
      text: file ? lineAt(file.text, file.starts, r.line) : '',
    };
  });
  return { references, total: kept.length, counts, truncated: kept.length > page.length };
}
