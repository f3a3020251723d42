/**
 * Tree snapshots: a copy of the whole index of a tree seen before, so that going back to it (a branch switch,
 * a checkout) copies rows back instead of writing them again. A restore copies every row table and FTS5's shadow
 * tables byte for byte in one transaction: nothing is tokenized, extracted or resolved, and the index becomes
 * exactly the one that tree had (which was, and so is, what a fresh index of it holds).
 *
 * Snapshots are files beside the database (`index.db-trees/`, private like `.allot/`), each named for the tree's
 * fingerprint, and listed in the index itself (`state.tree_snapshots`) with the file's identity (`dev:ino`) and
 * size when written. A file in that folder that the list does not name, or whose identity, size or recorded
 * fingerprint differs, was not written here (planted with the repository, copied, replaced): it is deleted
 * unread, with one line, like an index.db not built in place (open.ts). They count against the extraction
 * cache's bound (`--cache-mb`): the cache keeps its own rows within it, snapshots take what is left, least
 * recently used going first.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { touchVectors } from './embeddings.ts';
import { extractorFingerprint, indexerCode } from './extraction-cache.ts';
import { fullBuildDone } from './full-build.ts';
import { countFtsDeleted, ftsStatistics, FTS_LAYOUT } from './fts.ts';
import { ensureOwnDir, openOwnFile, TREES_SUFFIX } from './own-files.ts';
import { BUILT_HERE, fileStamp, type DB } from './open.ts';
import { bumpGeneration, getState, setState } from './write.ts';

/** The tables that hold a tree's index (FTS5's shadow tables are found by name); state, the cache and vectors are the index's, not a tree's. */
const ROW_TABLES = ['files', 'file_blobs', 'objects', 'views', 'refs'];
const FTS_SHADOW = 'views_fts_';

/** The list of snapshots in `state`. */
const REGISTRY = 'tree_snapshots';

export interface SnapshotEntry {
  /** The tree's fingerprint (treeKey); also the file's name. */
  tree: string;
  /** `dev:ino:ctime` of the file as written (writtenStamp). */
  stamp: string;
  bytes: number;
  /** Files in the tree. */
  files: number;
  /** Use clock: least recently used go first. */
  used: number;
}

export const snapshotDir = (dbFile: string) => `${dbFile}${TREES_SUFFIX}`;
const snapshotFile = (dbFile: string, tree: string) => path.join(snapshotDir(dbFile), `${tree}.db`);

/** What a stored index of a tree depends on besides the tree: the indexer's code (every source and migration), the grammars, the full-text layout. */
let codeFingerprint: string | undefined;
export function indexCodeFingerprint(): string {
  if (codeFingerprint) return codeFingerprint;
  const { project, indexer } = indexerCode();
  const hash = crypto.createHash('sha1').update(extractorFingerprint()).update(FTS_LAYOUT);
  for (const dir of [indexer, path.join(project, 'migrations')]) {
    let names: string[];
    try {
      names = (fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }) as string[]).sort();
    } catch {
      continue;
    }
    for (const name of names) {
      try {
        hash.update(name).update('\0').update(fs.readFileSync(path.join(dir, name))).update('\0');
      } catch {
        /* a folder */
      }
    }
  }
  return (codeFingerprint = hash.digest('hex').slice(0, 16));
}

/** A tree's fingerprint: its files' paths and content hashes, and the code that indexes them. */
export function treeKey(files: Iterable<readonly [string, string]>): string {
  const hash = crypto.createHash('sha256').update(indexCodeFingerprint()).update('\n');
  for (const [p, h] of [...files].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) hash.update(p).update('\0').update(h).update('\n');
  return hash.digest('hex').slice(0, 32);
}

/** The registry, checked by hand (a value that is not what this code writes is an empty list). */
export function snapshotEntries(db: DB): SnapshotEntry[] {
  const raw = getState(db, REGISTRY);
  if (!raw) return [];
  try {
    const parsed = JSON.parse(raw) as unknown;
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (e): e is SnapshotEntry =>
        typeof e?.tree === 'string' && /^[0-9a-f]{32}$/.test(e.tree) && typeof e.stamp === 'string' && Number.isFinite(e.bytes) && Number.isFinite(e.files) && Number.isFinite(e.used),
    );
  } catch {
    return [];
  }
}

function saveEntries(db: DB, entries: SnapshotEntry[]): void {
  setState(db, REGISTRY, entries.length ? JSON.stringify(entries) : null);
}

export function snapshotBytes(db: DB): number {
  return snapshotEntries(db).reduce((n, e) => n + e.bytes, 0);
}

/** The index holds one whole tree, resolved: what a snapshot may keep. */
function settled(db: DB): boolean {
  return fullBuildDone(db) && !getState(db, 'resolution_dirty') && !db.prepare('SELECT 1 FROM resolution_pending LIMIT 1').get();
}

/** A second connection to the database: the copy never changes the caller's (and FTS5's structure, cached per connection, is re-read by every other one after a commit here). */
function sideConnection(dbFile: string): DB {
  const side = new Database(dbFile, { fileMustExist: true });
  side.pragma('busy_timeout = 5000');
  // Rows are copied whole in an order where a row may precede its parent; every row table is replaced in the same transaction.
  side.pragma('foreign_keys = OFF');
  side.pragma('synchronous = NORMAL');
  // FTS5's shadow tables are created and written here as the tables they are (defensive mode forbids both).
  side.unsafeMode(true);
  return side;
}

const shadowTables = (db: DB, schema = 'main') =>
  db.prepare(`SELECT name FROM ${schema}.sqlite_master WHERE type = 'table' AND name LIKE '${FTS_SHADOW}%' ORDER BY name`).pluck().all() as string[];

/** The snapshot's tables, created from the index's own schema so that `INSERT ... SELECT *` copies records as they are. */
function createSchema(side: DB, tables: string[]): void {
  const rows = side
    .prepare(`SELECT type, sql FROM main.sqlite_master WHERE sql IS NOT NULL AND type IN ('table', 'index') AND tbl_name IN (${tables.map(() => '?').join(', ')}) ORDER BY type DESC`)
    .all(...tables) as { type: string; sql: string }[];
  for (const r of rows) {
    side.exec(r.type === 'table' ? r.sql.replace(/^CREATE TABLE\s+/i, 'CREATE TABLE snap.') : r.sql.replace(/^CREATE INDEX\s+/i, 'CREATE INDEX snap.'));
  }
}

/** What a snapshot says of itself, checked against the registry before any of its rows is used. */
function readMeta(side: DB): Record<string, string> {
  return Object.fromEntries((side.prepare('SELECT key, value FROM snap.tree_snapshot').raw().all() as [string, string][]));
}

/** Deletes a snapshot file (never followed through a link) and says why, once. */
function discard(dbFile: string, name: string, why: string): void {
  process.stderr.write(`allot: tree snapshot ${path.join(snapshotDir(dbFile), name)} ${why}; discarded\n`);
  fs.rmSync(path.join(snapshotDir(dbFile), name), { force: true });
}

/**
 * Keeps a snapshot of the tree the index holds, before a run leaves it for a far one. Only a settled index (a
 * whole tree, resolved) is kept; a tree kept before is marked used. Returns whether the index's tree is now kept.
 * `roomBytes` is what the bound leaves for snapshots: past it the least recently used go (`keep`, the tree a
 * run is about to copy back, last), and a snapshot that cannot fit is not kept.
 */
export function takeSnapshot(db: DB, roomBytes: number, keep?: string): boolean {
  const dbFile = db.name;
  if (roomBytes <= 0 || !settled(db)) return false;
  const files = db.prepare('SELECT path, hash FROM files').raw().all() as [string, string][];
  const tree = treeKey(files);
  const entries = snapshotEntries(db);
  const clock = Math.max(0, ...entries.map((e) => e.used)) + 1;
  const kept = entries.find((e) => e.tree === tree);
  if (kept && verified(dbFile, kept)) {
    kept.used = clock;
    db.transaction(() => saveEntries(db, entries))();
    return true;
  }
  ensureOwnDir(snapshotDir(dbFile));
  const file = snapshotFile(dbFile, tree);
  fs.rmSync(file, { force: true });
  fs.rmSync(`${file}-journal`, { force: true });
  const fd = openOwnFile(file, 'create');
  fs.closeSync(fd);
  const stamp = fileStamp(file);
  const side = sideConnection(dbFile);
  let ok = false;
  try {
    side.prepare('ATTACH ? AS snap').run(file);
    // A file nobody reads until it is listed: no journal, no syncs; a crash leaves an unlisted file, deleted later.
    side.pragma('snap.journal_mode = OFF');
    side.pragma('snap.synchronous = OFF');
    if (fileStamp(file) !== stamp) throw new Error('replaced while being written');
    const tables = [...ROW_TABLES, ...shadowTables(side)];
    side.transaction(() => {
      createSchema(side, tables);
      for (const t of tables) side.exec(`INSERT INTO snap."${t}" SELECT * FROM main."${t}"`);
      side.exec('CREATE TABLE snap.tree_snapshot (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID');
      const meta = side.prepare('INSERT INTO snap.tree_snapshot (key, value) VALUES (?, ?)');
      const seq = side.prepare("SELECT seq FROM main.sqlite_sequence WHERE name = 'objects'").pluck().get() as number | undefined;
      for (const [k, v] of Object.entries({ tree, stamp, index: getState(side, BUILT_HERE) ?? '', tables: tables.join(','), objectsSeq: String(seq ?? 0) })) meta.run(k, v);
    })();
    side.exec('DETACH snap');
    ok = true;
  } finally {
    side.close();
    if (!ok) fs.rmSync(file, { force: true });
  }
  const entry: SnapshotEntry = { tree, stamp: writtenStamp(file), bytes: fs.lstatSync(file).size, files: files.length, used: clock };
  const others = entries.filter((e) => e.tree !== tree);
  db.transaction(() => saveEntries(db, [...others, entry]))();
  pruneSnapshots(db, roomBytes, keep);
  return snapshotEntries(db).some((e) => e.tree === tree);
}

/**
 * A written file's identity: device, inode and the time its inode last changed. A file put in its place (a copy,
 * or one created after deleting it, which may get the same inode number) has another change time, which no user
 * can set.
 */
function writtenStamp(file: string): string {
  const st = fs.lstatSync(file, { bigint: true });
  return `${st.dev}:${st.ino}:${st.ctimeNs}`;
}

/** The listed file is still the one written: a regular file (never a link) with the identity and size recorded. */
function verified(dbFile: string, e: SnapshotEntry): boolean {
  try {
    const st = fs.lstatSync(snapshotFile(dbFile, e.tree));
    return st.isFile() && writtenStamp(snapshotFile(dbFile, e.tree)) === e.stamp && st.size === e.bytes;
  } catch {
    return false;
  }
}

/**
 * Drops snapshots, least recently used first, until they take at most `roomBytes`; files that are not listed, or
 * no longer the file listed, are deleted without being opened.
 */
export function pruneSnapshots(db: DB, roomBytes: number, protect?: string): number {
  const dbFile = db.name;
  const dir = snapshotDir(dbFile);
  const entries = snapshotEntries(db);
  if (!entries.length && !fs.existsSync(dir)) return 0;
  const keep: SnapshotEntry[] = [];
  let total = 0;
  const unverified = new Set<string>();
  // `protect` (the tree about to be copied back) goes last of all.
  const rank = (e: SnapshotEntry) => (e.tree === protect ? Number.MAX_SAFE_INTEGER : e.used);
  for (const e of [...entries].sort((a, b) => rank(b) - rank(a))) {
    if (!verified(dbFile, e)) {
      unverified.add(`${e.tree}.db`);
      continue;
    }
    if (total + e.bytes > roomBytes) continue;
    keep.push(e);
    total += e.bytes;
  }
  if (keep.length !== entries.length) db.transaction(() => saveEntries(db, keep))();
  const names = new Set(keep.map((e) => `${e.tree}.db`));
  let dropped = 0;
  // Only a real folder is listed: through a link in its place, nothing is read or deleted.
  const present = fs.lstatSync(dir, { throwIfNoEntry: false })?.isDirectory() ? fs.readdirSync(dir) : [];
  for (const name of present) {
    if (names.has(name) || name === '.gitignore') continue;
    const listed = entries.some((e) => `${e.tree}.db` === name);
    if (!listed || unverified.has(name)) process.stderr.write(`allot: ${path.join(dir, name)} is not a snapshot this index wrote; deleted unread\n`);
    fs.rmSync(path.join(dir, name), { force: true, recursive: true });
    dropped++;
  }
  return dropped;
}

/** The listed snapshot of this tree, when its file is still the one written; null otherwise. */
export function findSnapshot(db: DB, tree: string): SnapshotEntry | null {
  const e = snapshotEntries(db).find((x) => x.tree === tree);
  if (!e) return null;
  if (!verified(db.name, e)) {
    db.transaction(() => saveEntries(db, snapshotEntries(db).filter((x) => x.tree !== tree)))();
    discard(db.name, `${tree}.db`, 'is not the file this index wrote (replaced, resized or moved)');
    return null;
  }
  return e;
}

/** A file of the tree on disk: what its row must record so the next run finds it unchanged by its size and time. */
export interface DiskFile {
  path: string;
  size: number;
  mtimeMs: number;
}

/**
 * Replaces the index's tree with the snapshot's, in one transaction on a second connection: every row table and
 * FTS5's shadow tables copied back record by record, files' sizes and times set to what is on disk, the
 * resolution bookkeeping cleared (the snapshot was resolved), and a new generation whose change log starts
 * afresh, so every cache of the old tree (the daemon's structure and answers, the writer's resolver) is rebuilt
 * whole. A snapshot whose own record disagrees with the registry, or that SQLite finds damaged, is discarded and
 * the index is left as it was. Returns whether the tree was restored.
 */
export function restoreSnapshot(db: DB, e: SnapshotEntry, disk: DiskFile[]): boolean {
  const dbFile = db.name;
  const file = snapshotFile(dbFile, e.tree);
  const side = sideConnection(dbFile);
  try {
    // Read only: the copy never changes the file (nor its change time).
    side.prepare('ATTACH ? AS snap').run(`${pathToFileURL(file).href}?mode=ro`);
    const meta = readMeta(side);
    const tables = [...ROW_TABLES, ...shadowTables(side)];
    if (meta.tree !== e.tree || !e.stamp.startsWith(`${meta.stamp}:`) || meta.index !== getState(side, BUILT_HERE) || meta.tables !== tables.join(',')) {
      throw new SnapshotMismatch('does not match its record in the index');
    }
    const setDisk = side.prepare('UPDATE files SET size = ?, mtime_ms = ? WHERE path = ? AND (size IS NOT ? OR mtime_ms IS NOT ?)');
    side.transaction(() => {
      // Every full-text row the copy replaces counts as deleted: readers keep document-frequency bounds by that count.
      countFtsDeleted(side, ftsStatistics(side).rows);
      for (const t of tables) {
        side.exec(`DELETE FROM main."${t}"`);
        side.exec(`INSERT INTO main."${t}" SELECT * FROM snap."${t}"`);
      }
      // Object keys are never handed out twice, whichever tree gave them.
      side.prepare("UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = 'objects'").run(Number(meta.objectsSeq));
      side.exec('DELETE FROM resolution_pending');
      setState(side, 'resolution_dirty', null);
      for (const f of disk) setDisk.run(f.size, f.mtimeMs, f.path, f.size, f.mtimeMs);
      const generation = bumpGeneration(side);
      setState(side, 'change_log_floor', String(generation));
      // Objects now carry the snapshot's text hashes: what holds vectors by object reads them again.
      touchVectors(side);
      const entries = snapshotEntries(side);
      const clock = Math.max(0, ...entries.map((x) => x.used)) + 1;
      saveEntries(side, entries.map((x) => (x.tree === e.tree ? { ...x, used: clock } : x)));
    })();
    side.exec('DETACH snap');
    side.close();
    // FTS5 keeps the table's structure per connection and checks it for others' commits only when a cursor opens
    // (a query, a write; `PRAGMA integrity_check` opens none): one opens here, so the caller's connection re-reads it.
    db.prepare('SELECT 1 FROM views_fts WHERE rowid = -1').get();
    return true;
  } catch (err) {
    const code = String((err as { code?: unknown })?.code ?? '');
    if (!(err instanceof SnapshotMismatch) && !code.startsWith('SQLITE_CORRUPT') && code !== 'SQLITE_NOTADB' && !code.startsWith('SQLITE_ERROR')) throw err;
    side.close();
    db.transaction(() => saveEntries(db, snapshotEntries(db).filter((x) => x.tree !== e.tree)))();
    discard(dbFile, `${e.tree}.db`, err instanceof SnapshotMismatch ? err.message : `is damaged (${(err as Error).message})`);
    return false;
  } finally {
    if (side.open) side.close();
  }
}

class SnapshotMismatch extends Error {}

