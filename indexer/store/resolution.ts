import crypto from 'node:crypto';
import type { ResolverObject, ResolverReference } from '../resolve/resolve.ts';
import { bindImports, emptyResolverFiles, replaceResolverFiles, type ResolverFiles } from '../resolve/resolver-files.ts';
import type { Language, ViewKind } from '../types.ts';
import { boundHeapGrowth } from '../heap-growth.ts';
import { changedSince } from './changes.ts';
import { derivedSelection, type DerivedView } from './derived-selection.ts';
import { ftsRows, type FtsObject } from './fts.ts';
import { isComposerJson, moduleRoots } from './module-roots.ts';
import type { DB } from './open.ts';
import { viewTexts } from './view-texts.ts';
import { bumpGeneration, getGeneration, setState } from './write.ts';

/** A pass after changes to more than this share of the files resolves every reference: finding what they reach would cost more. */
export const FULL_PASS_SHARE = 0.25;

export interface ResolutionStats {
  /** References and resolved references in the store after the pass. */
  references: number;
  resolved: number;
  derivedViews: number;
  changedTargets: number;
  /** `full`: every reference was resolved again; `changes`: those the recorded changes reach. */
  mode: 'full' | 'changes';
  /** References resolved by this pass. */
  visited: number;
}

/** `targetId` is the public id of the target, `targetKey` the key the row holds (a target that went leaves a key no object has). */
type StoredRef = ResolverReference & { targetId: string | null; targetKey: number | null; fileId: number; line: number };

/** Identifies a derived view by its object, the file it lives in, its kind and its text. */
const derivedKey = (objectId: string, fileId: number, kind: string, text: string) => `${objectId}\0${fileId}\0${kind}\0${text}`;

/**
 * References a whole pass reads per batch, writing the batch's target changes before the next: the pass holds one
 * batch of references and changes, never the repository's.
 */
export const REFERENCE_BATCH = 16_384;
/** Characters of file text a pass keeps to rebuild derived views' texts (files are visited in order: a few at a time). */
export const TEXT_CHARS = 8 * 1024 * 1024;

/** What a pass holds at most: references per batch, characters of file text. Neither changes what it writes. */
export interface ResolutionBounds {
  batch?: number;
  textChars?: number;
}

/** The indexes of `rows` grouped by the file their text is in, each file's in their order. */
const inFileOrder = (rows: readonly { fileId: number }[]): Uint32Array => inFileOrderOf(rows.length, (i) => rows[i].fileId);
/** The same for `n` rows whose files `fileOf` gives. */
function inFileOrderOf(n: number, fileOf: (i: number) => number): Uint32Array {
  const files = Int32Array.from({ length: n }, (_, i) => fileOf(i));
  return new Uint32Array(n).map((_, i) => i).sort((a, b) => files[a] - files[b] || a - b);
}

/** Each file's place in path order (SQLite's, so the byte order of the paths). */
function fileRanks(db: DB): Map<number, number> {
  return new Map((db.prepare('SELECT id FROM files ORDER BY path').pluck().all() as number[]).map((id, i) => [id, i]));
}

/**
 * Visits every stored reference with its file, `size` at a time by id (the order of a plain scan of the table: a
 * whole pass does not depend on order), calling `between` after each batch, when the connection is free to write.
 * Rows are visited as they are read: none outlives its visit, so a batch leaves no garbage to grow the heap.
 */
function forEachReference(db: DB, size: number, visit: (r: StoredRef) => void, between: () => void): void {
  const files = new Map((db.prepare('SELECT id, path, language FROM files').raw().all() as [number, string, Language][]).map(([id, path, language]) => [id, { path, language }]));
  const page = db
    .prepare(
      `SELECT r.id, o.id, o.file_id, r.kind, r.name, r.qualifier, r.module, r.alias, r.line, r.target, t.id
       FROM refs r JOIN objects o ON o.key = r.source LEFT JOIN objects t ON t.key = r.target WHERE r.id > ? ORDER BY r.id LIMIT ?`,
    )
    .raw();
  type Row = [number, string, number, ResolverReference['kind'], string, string | null, string | null, string | null, number, number | null, string | null];
  for (let after = -1, n = size; n === size; between()) {
    n = 0;
    for (const [id, sourceId, fileId, kind, name, qualifier, module, alias, line, targetKey, targetId] of page.iterate(after, size) as IterableIterator<Row>) {
      const { path, language } = files.get(fileId)!;
      visit({ id, sourceId, path, language, kind, name, qualifier, module, alias, targetId, targetKey, fileId, line });
      after = id;
      n++;
    }
  }
}

/**
 * The resolver the writer's connection keeps between passes, following the change log: a daemon's pass after a
 * few files changed reads those files only, and rebinds imports only when a change reaches what they read.
 * `importTargets[path][i]` is what the last binding resolved `rf.imports[path][i]` to.
 */
interface WriterResolver {
  rf: ResolverFiles;
  generation: number;
  importTargets: Map<string, (string | null)[]>;
}
const writers = new WeakMap<DB, WriterResolver>();

const OBJECT_COLUMNS = 'o.id, f.path, (SELECT p.id FROM objects p WHERE p.key = o.parent) AS parentId, o.kind, o.name';
const IMPORT_COLUMNS = 'r.id, o.id AS sourceId, f.path, f.language, r.kind, r.name, r.qualifier, r.module, r.alias';

/** Every file's objects and imports in two reads: the resolver as a fresh one would be. */
function buildResolver(db: DB): WriterResolver {
  const group = <T extends { path: string }>(rows: T[]) => {
    const out = new Map<string, T[]>();
    for (const r of rows) (out.get(r.path) ?? out.set(r.path, []).get(r.path)!).push(r);
    return out;
  };
  const objects = group(db.prepare(`SELECT ${OBJECT_COLUMNS} FROM objects o JOIN files f ON f.id = o.file_id ORDER BY f.path, o.start_byte, o.id`).all() as ResolverObject[]);
  const imports = group(
    db.prepare(`SELECT ${IMPORT_COLUMNS} FROM files f JOIN objects o ON o.file_id = f.id JOIN refs r ON r.source = o.key WHERE r.kind = 'import' ORDER BY f.path, r.line, r.id`).all() as ResolverReference[],
  );
  const rf = emptyResolverFiles(moduleRoots(db));
  replaceResolverFiles(rf, objects.keys(), (p) => objects.get(p) ?? [], (p) => imports.get(p) ?? []);
  return { rf, generation: getGeneration(db), importTargets: new Map() };
}

/**
 * What the last binding resolved an import reference to: the target noted at its place among its file's imports.
 * Places are found one file at a time (a pass reads a file's references together), not kept for every import.
 */
function importTargets(w: WriterResolver): (r: { id: number; path: string }) => string | null {
  let path: string | null = null;
  let place = new Map<number, number>();
  return (r) => {
    if (r.path !== path) {
      path = r.path;
      const held = w.rf.imports.get(path);
      place = new Map(Array.from({ length: held?.length ?? 0 }, (_, i) => [held!.id(i), i]));
    }
    const i = place.get(r.id);
    return i === undefined ? null : (w.importTargets.get(path)?.[i] ?? null);
  };
}

/** Binds the resolver's imports again if a change reached what they read, noting each import's target. Returns whether it did. */
function bindIfStale(w: WriterResolver): boolean {
  if (!w.rf.resolver.stale) return false;
  const targets = (w.importTargets = new Map());
  for (const _ of bindImports(w.rf, undefined, (r, t) => void (targets.get(r.path) ?? targets.set(r.path, []).get(r.path)!).push(t ?? null)));
  return true;
}

/**
 * Builds the resolver this connection keeps (objects, imports and their bindings) ahead of the first pass that
 * needs it: a daemon's replacement writer thread does it while the daemon is quiet, so the next save's pass reads
 * only what changed instead of the whole index.
 */
export function warmResolver(db: DB): void {
  const files = db.prepare('SELECT count(*) FROM files').pluck().get() as number;
  bindIfStale(followResolver(db, FULL_PASS_SHARE * files));
}

/** The writer's resolver brought up to the store's files: the changed files re-read, or all of them when too many changed. */
function followResolver(db: DB, rebuildOver: number): WriterResolver {
  const held = writers.get(db);
  const changed = held ? changedSince(db, held.generation) : null;
  // The PSR-4 roots are the resolver's own: a changed composer.json makes a new one.
  if (!held || !changed || changed.length > rebuildOver || changed.some(isComposerJson)) {
    const fresh = buildResolver(db);
    writers.set(db, fresh);
    return fresh;
  }
  const objects = db.prepare(`SELECT ${OBJECT_COLUMNS} FROM files f JOIN objects o ON o.file_id = f.id WHERE f.path = ? ORDER BY o.start_byte, o.id`);
  const imports = db.prepare(`SELECT ${IMPORT_COLUMNS} FROM files f JOIN objects o ON o.file_id = f.id JOIN refs r ON r.source = o.key WHERE f.path = ? AND r.kind = 'import' ORDER BY r.line, r.id`);
  replaceResolverFiles(held.rf, changed, (p) => objects.all(p) as ResolverObject[], (p) => imports.all(p) as ResolverReference[]);
  held.generation = getGeneration(db);
  return held;
}

/** What the last writes recorded for resolution to look at (see `resolution_pending`). */
interface Pending {
  paths: Set<string>;
  names: Set<string>;
  targets: Set<string>;
}

function readPending(db: DB): Pending {
  const p: Pending = { paths: new Set(), names: new Set(), targets: new Set() };
  for (const r of db.prepare('SELECT kind, key FROM resolution_pending').all() as { kind: string; key: string }[]) {
    (r.kind === 'path' ? p.paths : r.kind === 'name' ? p.names : p.targets).add(r.key);
  }
  return p;
}

/** What a file's imports bound (local names and wildcard sources), as a digest; null when they bound nothing. */
function bindingsDigest(rf: ResolverFiles, path: string): string | null {
  const { bindings, wildcards } = rf.resolver.saveBindings(path);
  if (!bindings?.size && !wildcards?.length) return null;
  const entries = [...(bindings ?? [])].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([local, b]) => [local, b.objectId, b.files]);
  return crypto.createHash('sha1').update(JSON.stringify([entries, wildcards ?? []])).digest('hex').slice(0, 16);
}

/**
 * Brings references and derived views (callsite, import, testref) in line with the files, writing only what
 * changed, in one transaction that also clears `resolution_dirty` and the recorded changes.
 *
 * After a few files changed, only the references those changes can reach are resolved again: those of the changed
 * files; those whose name or qualifier is the name of an object that came, went or changed (every lookup the
 * resolver makes outside a reference's own file and its imports' bindings is by one of those two); and those of
 * files whose bindings changed. Derived views are redone for the objects of changed files, the objects that lost a
 * use with the old rows, and the old and new targets of every reference that moved. The result is the same as a
 * whole pass (`full`), which runs when nothing was recorded or when many files changed.
 */
export function resolveStore(db: DB, opts: { full?: boolean } & ResolutionBounds = {}): ResolutionStats {
  // The pass reads every reference once: short-lived rows that V8's own growth factor lets pile up as old garbage.
  const releaseHeap = boundHeapGrowth();
  try {
    // One transaction: a whole pass writes each batch's targets as it goes, and a failure leaves nothing written.
    return db.transaction(() => resolvePass(db, opts.full ?? false, { batch: opts.batch ?? REFERENCE_BATCH, textChars: opts.textChars ?? TEXT_CHARS }))();
  } catch (err) {
    // Whatever the writer's resolver had taken in is not known to match the store any more.
    writers.delete(db);
    throw err;
  } finally {
    releaseHeap();
  }
}

function resolvePass(db: DB, forceFull: boolean, { batch, textChars }: Required<ResolutionBounds>): ResolutionStats {
  const pending = readPending(db);
  const files = db.prepare('SELECT count(*) FROM files').pluck().get() as number;
  const full = forceFull || pending.paths.size === 0 || pending.paths.size > FULL_PASS_SHARE * files || [...pending.paths].some(isComposerJson);
  const w = followResolver(db, FULL_PASS_SHARE * files);
  const { rf } = w;
  const rebound = bindIfStale(w);
  const importTarget = importTargets(w);

  // Bindings that changed: every file's when imports were bound again, else only the changed files' (their rows are new).
  const storedDigest = db.prepare('SELECT bindings FROM files WHERE path = ?').pluck();
  const digestFiles = rebound || full
    ? new Set([...rf.imports.keys(), ...(db.prepare('SELECT path FROM files WHERE bindings IS NOT NULL').pluck().all() as string[])])
    : new Set([...pending.paths].filter((p) => rf.byFile.has(p)));
  const newDigests: [string | null, string][] = [];
  const rebindFiles = new Set<string>();
  for (const path of digestFiles) {
    const digest = bindingsDigest(rf, path);
    if (digest !== ((storedDigest.get(path) as string | null | undefined) ?? null)) {
      newDigests.push([digest, path]);
      rebindFiles.add(path);
    }
  }

  const refColumns = `r.id, o.id AS sourceId, f.path, f.language, r.kind, r.name, r.qualifier, r.module, r.alias, t.id AS targetId, r.target AS targetKey, o.file_id AS fileId, r.line`;
  const refsFrom = `refs r JOIN objects o ON o.key = r.source JOIN files f ON f.id = o.file_id LEFT JOIN objects t ON t.key = r.target`;
  const setTarget = db.prepare('UPDATE refs SET target = (SELECT key FROM objects WHERE id = ?) WHERE id = ?');
  /** Target changes not written yet: a whole pass writes them batch by batch. */
  const changes: [number, string | null][] = [];
  let changedTargets = 0;
  /** Rows of what queries read (targets, derived views) this pass changed: none leaves the generation as it was. */
  let written = 0;
  const writeTargets = () => {
    for (const [id, target] of changes) written += setTarget.run(target, id).changes;
    changedTargets += changes.length;
    changes.length = 0;
  };
  /** Files whose references now point elsewhere: their reference-graph edges changed. */
  const retargeted = new Set<string>();
  /** Objects that gained or lost a reference: their derived views are redone (a whole pass redoes every one). */
  const moved = new Set<string>();
  let visited = 0;
  const settle = (r: StoredRef, target: string | null) => {
    visited++;
    if (target === r.targetId && (target !== null || r.targetKey === null)) return;
    changes.push([r.id, target]);
    retargeted.add(r.path);
    if (full) return;
    if (r.targetId) moved.add(r.targetId);
    if (target) moved.add(target);
  };

  // Derived views: each (target, view kind) keeps its first uses by path and line, whatever order references come in.
  const rank = fileRanks(db);
  const selection = derivedSelection(rank);
  const want = selection.want;
  if (full) {
    // Every reference, a batch at a time (the selection does not depend on order).
    const visit = (r: StoredRef) => {
      const target = (r.kind === 'import' ? importTarget(r) : rf.resolver.resolve(r)) ?? null;
      settle(r, target);
      if (target) want(r, target);
    };
    forEachReference(db, batch, visit, writeTargets);
  } else {
    const seen = new Set<number>();
    const visit = (r: StoredRef) => {
      if (seen.has(r.id)) return;
      seen.add(r.id);
      settle(r, (r.kind === 'import' ? importTarget(r) : rf.resolver.resolve(r)) ?? null);
    };
    if (rebound) {
      // Imports were bound again: any of them may resolve elsewhere now.
      const stored = db.prepare(`SELECT ${refColumns} FROM ${refsFrom} WHERE r.id = ?`);
      const rows = db.prepare("SELECT r.id, f.path, t.id, r.target FROM refs r JOIN objects o ON o.key = r.source JOIN files f ON f.id = o.file_id LEFT JOIN objects t ON t.key = r.target WHERE r.kind = 'import' ORDER BY f.path");
      for (const [id, path, targetId, targetKey] of rows.raw().all() as [number, string, string | null, number | null][]) {
        if ((importTarget({ id, path }) ?? null) !== targetId || (targetId === null && targetKey !== null)) visit(stored.get(id) as StoredRef);
      }
    }
    const ofFile = db.prepare(`SELECT ${refColumns} FROM ${refsFrom} WHERE f.path = ? ORDER BY r.line, r.id`);
    for (const path of new Set([...pending.paths, ...rebindFiles])) {
      for (const r of ofFile.iterate(path) as IterableIterator<StoredRef>) visit(r);
    }
    if (pending.names.size) {
      const names = JSON.stringify([...pending.names]);
      const byName = db.prepare(
        `SELECT ${refColumns} FROM ${refsFrom} WHERE r.kind <> 'import' AND (r.name IN (SELECT value FROM json_each(@names)) OR r.qualifier IN (SELECT value FROM json_each(@names)))`,
      );
      for (const r of byName.iterate({ names }) as IterableIterator<StoredRef>) visit(r);
    }
  }
  const setDigest = db.prepare('UPDATE files SET bindings = ? WHERE path = ?');
  const objectOf = db.prepare(
    'SELECT o.name, o.qualified_name AS qualifiedName, o.kind, f.path FROM objects o JOIN files f ON f.id = o.file_id WHERE o.id = ?',
  );
  const delView = db.prepare('DELETE FROM views WHERE id = ?');
  const insView = db.prepare(
    'INSERT INTO views (object, file_id, kind, derived, start_line, end_line) VALUES ((SELECT key FROM objects WHERE id = ?), ?, ?, 1, ?, ?)',
  );
  const fts = ftsRows(db);
  const texts = viewTexts(db, { maxChars: textChars });
  const derivedText = (v: DerivedView) =>
    texts({ objectId: v.objectId, fileId: v.fileId, kind: v.kind, derived: 1, startLine: v.line, endLine: v.line });
  type ExistingView = { id: number; objectId: string; fileId: number; kind: ViewKind; line: number };
  const existingColumns = 'v.id, o.id AS objectId, v.file_id AS fileId, v.kind, v.start_line AS line';
  const derivedFrom = 'views v JOIN objects o ON o.key = v.object';
  const moveView = db.prepare('UPDATE views SET start_line = ?, end_line = ? WHERE id = ?');
  /** Files written since the last pass: the lines of their uses may have moved. */
  const fileIdOf = db.prepare('SELECT id FROM files WHERE path = ?').pluck();
  const rewritten = new Set([...pending.paths].map((p) => fileIdOf.get(p) as number | undefined).filter((id) => id !== undefined));
  const drop = (v: ExistingView) => {
    written++;
    fts.delete(v.id, { kind: v.kind, text: derivedText(v) }, objectOf.get(v.objectId) as FtsObject);
    delView.run(v.id);
  };
  /**
   * Makes the derived views of `existing` (all of them, or one object's) those selected for them. A stored derived
   * view's line always has the text its full-text row was made of (a file's write keeps a use in it only on a line
   * of the same text, write.ts), so an equal key means an equal row. In a rewritten file a use not selected on its
   * line takes the place of a selected one on a line of the same text (only its line numbers are updated): a
   * full-text row depends on the text alone, so a switch that shifts lines costs no full-text work for uses that stayed.
   */
  const reconcile = (existing: ExistingView[]) => {
    const wanted = selection.take();
    const left: ExistingView[] = [];
    // In file order (stable: views of one file keep theirs), so texts are rebuilt from a few files at a time.
    for (const i of inFileOrder(existing)) {
      const v = existing[i];
      if (wanted.match(v.objectId, v.fileId, v.kind, v.line)) continue;
      if (rewritten.has(v.fileId)) left.push(v);
      else drop(v);
    }
    const rows = wanted.unstored();
    if (left.length) {
      // Rows of one text listed in selection order (a file's rows keep their order in `inFileOrder`).
      const byText = new Map<string, number[]>();
      for (const i of inFileOrderOf(rows.length, (i) => wanted.fileId(rows[i]))) {
        if (!rewritten.has(wanted.fileId(rows[i]))) continue;
        const w = wanted.view(rows[i]);
        const text = derivedText(w);
        if (!text) continue;
        const tk = derivedKey(w.objectId, w.fileId, w.kind, text);
        (byText.get(tk) ?? byText.set(tk, []).get(tk)!).push(rows[i]);
      }
      for (const v of left) {
        const e = byText.get(derivedKey(v.objectId, v.fileId, v.kind, derivedText(v)))?.shift();
        if (e === undefined) drop(v);
        else {
          const { line } = wanted.view(e);
          if (line !== v.line) written += moveView.run(line, line, v.id).changes;
          wanted.markStored(e);
        }
      }
    }
    // Views are inserted in selection order (their ids as ever); their texts, read file by file, decide which are
    // inserted (a blank line has none) and make their full-text rows: two passes in file order, one in selection order.
    const insert = rows.filter((e) => !wanted.isStored(e));
    const hasText = new Uint8Array(insert.length);
    const order = inFileOrderOf(insert.length, (i) => wanted.fileId(insert[i]));
    for (const i of order) hasText[i] = derivedText(wanted.view(insert[i])) ? 1 : 0;
    const rowids = new Float64Array(insert.length);
    insert.forEach((e, i) => {
      if (!hasText[i]) return;
      const w = wanted.view(e);
      rowids[i] = Number(insView.run(w.objectId, w.fileId, w.kind, w.line, w.line).lastInsertRowid);
      written++;
    });
    for (const i of order) {
      if (!hasText[i]) continue;
      const w = wanted.view(insert[i]);
      fts.insert(rowids[i], { kind: w.kind, text: derivedText(w) }, objectOf.get(w.objectId) as FtsObject);
    }
  };

  {
    writeTargets();
    for (const d of newDigests) setDigest.run(...d);
    if (full) {
      reconcile(db.prepare(`SELECT ${existingColumns} FROM ${derivedFrom} WHERE v.derived = 1`).all() as ExistingView[]);
    } else {
      // The objects of changed files lost their uses elsewhere with the old rows; others lost or gained one.
      const targets = new Set([...pending.targets, ...moved]);
      for (const path of pending.paths) for (const id of rf.byFile.get(path) ?? []) targets.add(id);
      const uses = db.prepare(`SELECT r.kind, f.path, o.file_id AS fileId, r.line FROM ${refsFrom} WHERE r.target = (SELECT key FROM objects WHERE id = ?) ORDER BY f.path, r.line, r.id`);
      const derivedOf = db.prepare(`SELECT ${existingColumns} FROM ${derivedFrom} WHERE v.object = (SELECT key FROM objects WHERE id = ?) AND v.derived = 1`);
      const exists = db.prepare('SELECT 1 FROM objects WHERE id = ?').pluck();
      for (const target of [...targets].sort()) {
        if (!exists.get(target)) continue;
        for (const r of uses.iterate(target) as IterableIterator<{ kind: string; path: string; fileId: number; line: number }>) want(r, target);
        reconcile(derivedOf.all(target) as ExistingView[]);
      }
    }
    db.prepare('DELETE FROM resolution_pending').run();
    setState(db, 'resolution_dirty', null);
    // A pass that changed nothing queries read keeps the generation: answers kept at it stay valid (kept-answers.ts).
    if (written > 0) bumpGeneration(db, retargeted);
  }
  // The pass's own commit changed no file the resolver reads.
  w.generation = getGeneration(db);
  const count = (sql: string) => db.prepare(sql).pluck().get() as number;
  return {
    references: count('SELECT count(*) FROM refs'),
    resolved: count('SELECT count(*) FROM refs WHERE target IS NOT NULL'),
    derivedViews: count('SELECT count(*) FROM views WHERE derived = 1'),
    changedTargets,
    mode: full ? 'full' : 'changes',
    visited,
  };
}
