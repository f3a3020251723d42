import { isTestPath } from '../paths.ts';
import type { ModuleRoots } from '../resolve/modules.ts';
import { psr4Roots } from '../resolve/psr4.ts';
import { createResolver, type ResolverObject, type ResolverReference } from '../resolve/resolve.ts';
import { viewText } from '../extract/view-text.ts';
import type { ViewKind } from '../types.ts';
import { ftsRows, type FtsObject } from './fts.ts';
import type { DB } from './open.ts';
import { bumpGeneration, setState } from './write.ts';

/** Derived views kept per (object, view kind): the first few uses, by path and line. */
export const DERIVED_PER_KIND = 5;

export interface ResolutionStats {
  references: number;
  resolved: number;
  derivedViews: number;
  changedTargets: number;
}

interface DerivedRow {
  objectId: string;
  fileId: number;
  kind: ViewKind;
  line: number;
}

/** A derived view's text is its line: it depends on no object. */
const NO_OBJECT = { kind: 'function', startLine: 0, endLine: 0, signature: '', docstring: null } as const;

/** The lines of indexed files by file id, loaded on first use. */
function fileLines(db: DB): (fileId: number) => string[] {
  const stmt = db.prepare('SELECT text FROM file_texts WHERE file_id = ?');
  const cache = new Map<number, string[]>();
  return (fileId) => {
    let lines = cache.get(fileId);
    if (!lines) {
      lines = ((stmt.get(fileId) as { text: string } | undefined)?.text ?? '').split(/\r?\n/);
      cache.set(fileId, lines);
    }
    return lines;
  };
}

/** Where the repository says its modules live: the PSR-4 roots of every indexed composer.json (a change to one marks resolution dirty like any file). */
function moduleRoots(db: DB): ModuleRoots {
  const rows = db
    .prepare("SELECT f.path, t.text FROM file_texts t JOIN files f ON f.id = t.file_id WHERE f.path = 'composer.json' OR f.path LIKE '%/composer.json' ORDER BY f.path")
    .all() as { path: string; text: string }[];
  return { psr4: rows.flatMap((r) => psr4Roots(r.path, r.text)) };
}

/**
 * Re-resolves every reference and brings the derived views (callsite, import,
 * testref) in line with the resolution, writing only what changed, in one
 * transaction that also clears the `resolution_dirty` flag.
 */
export function resolveStore(db: DB): ResolutionStats {
  const objects = db
    .prepare('SELECT o.id, f.path, o.parent_id AS parentId, o.kind, o.name FROM objects o JOIN files f ON f.id = o.file_id')
    .all() as ResolverObject[];
  const resolver = createResolver(objects, moduleRoots(db));
  const refsOf = (where: string) =>
    db
      .prepare(
        `SELECT r.id, r.source_id AS sourceId, f.path, f.language, r.kind, r.name, r.qualifier, r.module, r.alias,
                r.target_id AS targetId, o.file_id AS fileId, r.line
         FROM refs r JOIN objects o ON o.id = r.source_id JOIN files f ON f.id = o.file_id
         WHERE ${where} ORDER BY f.path, r.line, r.id`,
      )
      .iterate() as IterableIterator<ResolverReference & { targetId: string | null; fileId: number; line: number }>;

  // References stream through (imports first: they bind the names calls use);
  // only changed targets and the derived views to keep are held in memory.
  const changes: [number, string | null][] = [];
  /** Files whose references now point elsewhere: their reference-graph edges changed. */
  const retargeted = new Set<string>();
  const wanted = new Map<string, DerivedRow>();
  const perKind = new Map<string, number>();
  let references = 0;
  let resolved = 0;
  const visit = (r: ResolverReference & { targetId: string | null; fileId: number; line: number }, target: string | undefined) => {
    references++;
    if ((target ?? null) !== r.targetId) {
      changes.push([r.id, target ?? null]);
      retargeted.add(r.path);
    }
    if (!target) return;
    resolved++;
    const kind: ViewKind = r.kind === 'import' ? 'import' : isTestPath(r.path) ? 'testref' : 'callsite';
    const key = `${target}\0${r.fileId}\0${kind}\0${r.line}`;
    if (wanted.has(key)) return;
    const n = perKind.get(`${target}\0${kind}`) ?? 0;
    if (n >= DERIVED_PER_KIND) return;
    perKind.set(`${target}\0${kind}`, n + 1);
    wanted.set(key, { objectId: target, fileId: r.fileId, kind, line: r.line });
  };
  // Imports twice (see createResolver): the first pass records what every file binds, so re-exports resolve.
  const imports = [...refsOf("r.kind = 'import'")];
  for (const r of imports) resolver.resolveImport(r);
  for (const r of imports) visit(r, resolver.resolveImport(r));
  for (const r of refsOf("r.kind <> 'import'")) visit(r, resolver.resolve(r));

  const existing = db
    .prepare('SELECT id, object_id AS objectId, file_id AS fileId, kind, start_line AS line, text FROM views WHERE derived = 1')
    .all() as { id: number; objectId: string; fileId: number; kind: ViewKind; line: number; text: string }[];
  const objectOf = db.prepare(
    'SELECT o.name, o.qualified_name AS qualifiedName, o.kind, f.path FROM objects o JOIN files f ON f.id = o.file_id WHERE o.id = ?',
  );
  const setTarget = db.prepare('UPDATE refs SET target_id = ? WHERE id = ?');
  const delView = db.prepare('DELETE FROM views WHERE id = ?');
  const insView = db.prepare(
    'INSERT INTO views (object_id, file_id, kind, derived, start_line, end_line, text) VALUES (?, ?, ?, 1, ?, ?, ?)',
  );
  const fts = ftsRows(db);
  db.transaction(() => {
    for (const [id, target] of changes) setTarget.run(target, id);
    for (const v of existing) {
      const key = `${v.objectId}\0${v.fileId}\0${v.kind}\0${v.line}`;
      // A file's rows are rewritten (new file id) whenever its text changes, so an equal key means an equal line.
      if (wanted.has(key)) wanted.delete(key);
      else {
        fts.delete(v.id, v, objectOf.get(v.objectId) as FtsObject);
        delView.run(v.id);
      }
    }
    const lines = fileLines(db);
    for (const w of wanted.values()) {
      const text = viewText({ kind: w.kind, startLine: w.line, endLine: w.line }, lines(w.fileId), NO_OBJECT);
      if (!text) continue;
      const id = insView.run(w.objectId, w.fileId, w.kind, w.line, w.line, text).lastInsertRowid;
      fts.insert(id, { kind: w.kind, text }, objectOf.get(w.objectId) as FtsObject);
    }
    setState(db, 'resolution_dirty', null);
    bumpGeneration(db, retargeted);
  })();
  const derivedViews = (db.prepare('SELECT count(*) AS n FROM views WHERE derived = 1').get() as { n: number }).n;
  return { references, resolved, derivedViews, changedTargets: changes.length };
}
