import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { recordCleanClose, takeCleanClose } from './clean-close.ts';
import { registerTextFunctions } from './file-text.ts';
import { ensureFtsLayout } from './fts.ts';
import { checkOwnFile, discardDatabase, ensureDatabaseDir, isUnwritable, OwnFileError, prepareDatabaseFile, verifyDatabaseFiles, walHoldsFrames } from './own-files.ts';

export type DB = Database.Database;

/** PRAGMA application_id of every allot database ('allt'), so foreign files are recognised. */
export const APPLICATION_ID = 0x616c6c74;
const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations/', import.meta.url));

/** A database allot refuses to open or cannot use, with a one-line message for the user. */
export class StoreError extends Error {
  constructor(message: string, readonly code: 'foreign' | 'newer' | 'corrupt' | 'io' | 'unsafe' | 'readonly' | 'full') {
    super(message);
    this.name = 'StoreError';
  }
}

/**
 * What a failure of SQLite or of the file system means for the index at `at`, as a one-line StoreError; null
 * when the error is none of those (a bug, say). Used at open and wherever a query or a write may meet a damaged,
 * full or read-only store, so each gets the same words.
 */
export function storeFault(at: string | null, err: unknown): StoreError | null {
  if (err instanceof StoreError) return err;
  if (err instanceof OwnFileError) return new StoreError(err.message, 'unsafe');
  const index = at === null ? 'the index' : `the index ${at}`;
  const code = String((err as { code?: unknown })?.code ?? '');
  const detail = (err as Error)?.message ?? String(err);
  if (code === 'SQLITE_FULL' || code === 'ENOSPC' || code === 'EDQUOT') {
    return new StoreError(`the disk is full: cannot write ${index}; free some space and run the command again (what was indexed is kept)`, 'full');
  }
  if (code.startsWith('SQLITE_READONLY') || code === 'EROFS') {
    return new StoreError(`${index} is read-only (${detail}): it can be searched but not updated`, 'readonly');
  }
  if (code === 'EACCES' || code === 'EPERM' || code.startsWith('SQLITE_PERM') || code.startsWith('SQLITE_AUTH')) {
    return new StoreError(`permission denied on ${index} or its folder (${detail}); nothing was changed`, 'readonly');
  }
  if (code === 'SQLITE_NOTADB') {
    return new StoreError(`${at ?? 'the index file'} is not an allot index (not a SQLite database); it was left untouched: pass another --db, or \`allot index --rebuild\` to move it aside and start over`, 'foreign');
  }
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_IOERR_SHORT_READ') {
    return new StoreError(`${index} is damaged (${detail}): run \`allot index --rebuild\` to move it aside and index anew`, 'corrupt');
  }
  if (code === 'ENOTDIR') return new StoreError(`cannot use ${index}: ${detail} (pass another --db)`, 'io');
  if (code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_IOERR') || /^E[A-Z]+$/.test(code)) {
    return new StoreError(`cannot open ${index} (${detail})`, 'io');
  }
  return null;
}

export interface Migration { version: number; name: string; sql: string }

/** The numbered SQL files of `migrations/`, in order. */
export function loadMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return fs
    .readdirSync(dir)
    .filter((f) => /^\d+_.*\.sql$/.test(f))
    .map((f) => ({ version: Number.parseInt(f, 10), name: f, sql: fs.readFileSync(path.join(dir, f), 'utf8') }))
    .sort((a, b) => a.version - b.version);
}

const statements = new WeakMap<DB, Map<string, Database.Statement>>();

/**
 * The statement for `sql` on this connection, prepared once. Queries run the same few statements thousands of
 * times; preparing them anew each time costs time, and the native memory of discarded statements is freed only
 * when they are collected, which lets a busy daemon's resident memory creep up. `mode` is fixed per statement.
 * @example prepared(db, 'SELECT value FROM state WHERE key = ?', 'pluck').get('generation')
 */
export function prepared(db: DB, sql: string, mode: 'rows' | 'pluck' | 'raw' = 'rows'): Database.Statement {
  let byConnection = statements.get(db);
  if (!byConnection) statements.set(db, (byConnection = new Map()));
  const key = `${mode}\0${sql}`;
  let stmt = byConnection.get(key);
  if (!stmt) {
    stmt = db.prepare(sql);
    if (mode === 'pluck') stmt.pluck();
    else if (mode === 'raw') stmt.raw();
    byConnection.set(key, stmt);
  }
  return stmt;
}

export { defaultDbPath } from './location.ts';

/** storeFault for SQLite's own errors only (a file the query reads from the repository failing is not the index's fault). */
export function sqliteFault(at: string | null, err: unknown): StoreError | null {
  if (err instanceof StoreError) return err;
  return String((err as { code?: unknown })?.code ?? '').startsWith('SQLITE_') ? storeFault(at, err) : null;
}

/** Faults that leave an index unusable for reading (damage, a foreign file), as opposed to a full disk or a read-only one. */
export function isDamage(fault: Pick<StoreError, 'code'>): boolean {
  return fault.code === 'corrupt' || fault.code === 'foreign' || fault.code === 'unsafe' || fault.code === 'io';
}

/** What `allot index --check` runs: the full `integrity_check` and the foreign keys. */
export function checkWholeStore(db: DB, file: string): void {
  checkIntegrity(db, file, true);
  let fk: unknown[];
  try {
    fk = db.pragma('foreign_key_check') as unknown[];
  } catch (err) {
    throw storeFault(file, err) ?? err;
  }
  if (fk.length) throw new StoreError(`the index ${file} is damaged (${fk.length} rows break a foreign key): run \`allot index --rebuild\` to move it aside and index anew`, 'corrupt');
}

/**
 * A file shorter than its own header says was truncated (SQLite would read the missing pages as zeros and fail
 * later, or answer from half a table). Reads 100 bytes, so every open can afford it; `quick_check` finds the rest.
 * Only without a WAL: with one, the file may legitimately be shorter until its next checkpoint.
 */
function checkLength(file: string): void {
  // Pages still in the WAL (a checkpoint cut short by a full disk, say) are read from there: the main file may be shorter.
  if (walHoldsFrames(file)) return;
  const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  try {
    const header = Buffer.alloc(100);
    if (fs.readSync(fd, header, 0, 100, 0) < 100 || header.toString('latin1', 0, 16) !== 'SQLite format 3\0') return;
    const pageSize = header.readUInt16BE(16) === 1 ? 65536 : header.readUInt16BE(16);
    // The in-header page count is valid only when its "version-valid-for" matches the change counter.
    if (header.readUInt32BE(92) !== header.readUInt32BE(24)) return;
    const pages = header.readUInt32BE(28);
    const size = fs.fstatSync(fd).size;
    if (size < pages * pageSize) {
      throw new StoreError(`the index ${file} is damaged (truncated: ${size} bytes of ${pages * pageSize}): run \`allot index --rebuild\` to move it aside and index anew`, 'corrupt');
    }
  } finally {
    fs.closeSync(fd);
  }
}

// URI file names, for `immutable=1` below (better-sqlite3 reads this once, when its native addon loads on the
// first open, and every open is here). Paths allot passes are absolute, so none is mistaken for a URI.
process.env.SQLITE_USE_URI ??= '1';

/**
 * A read-only index in a folder this user cannot write, with no WAL to replay: SQLite cannot create the -shm a
 * WAL-mode database needs even for reading, so such an index is read as immutable (no locks, no -shm), which it
 * is for this user: nobody can write it without writing the folder too.
 */
function frozen(file: string): boolean {
  if (walHoldsFrames(file)) return false;
  try {
    fs.accessSync(path.dirname(file), fs.constants.W_OK);
    return false;
  } catch (err) {
    return isUnwritable(err);
  }
}

function immutableUri(file: string): string {
  return `${pathToFileURL(file).href}?immutable=1`;
}

/**
 * A writable open needs the database and its folder (SQLite creates -wal and -shm there) writable: said up front,
 * as what it is (SQLite would report "unable to open database file" or worse, later, half-way through a write).
 */
function checkWritable(file: string, exists: boolean): void {
  const unwritable = (p: string) => {
    try {
      fs.accessSync(p, fs.constants.W_OK);
      return false;
    } catch (err) {
      if (isUnwritable(err)) return true;
      throw err;
    }
  };
  const dir = path.dirname(file);
  if (exists && unwritable(file)) {
    throw new StoreError(`the index ${file} is read-only (not writable by you): \`allot search\` and \`allot context\` still answer from it, but it cannot be updated`, 'readonly');
  }
  if (unwritable(dir)) {
    throw new StoreError(`the folder ${dir} is not writable by you, so the index ${file} cannot be ${exists ? 'updated (searches still answer from it)' : 'created there'}`, 'readonly');
  }
}

/** The `state` key of the database file's identity (`dev:ino`) recorded by the writable open that built it in place. */
export const BUILT_HERE = 'built_here';

/** The database file's identity now: device and inode, which a copy, an archive or a clone never keeps. */
export function fileStamp(file: string): string {
  const st = fs.lstatSync(file, { bigint: true });
  return `${st.dev}:${st.ino}`;
}

/**
 * Whether the index was built in this very file: its stamp equals the file's identity. An index.db carried with
 * a repository (committed, archived, copied) holds whatever its author planted (objects, file texts served as
 * verbatim, cache rows, an embedder row naming a model folder to load), so a file without the stamp is never read.
 */
function builtHere(db: DB, file: string): boolean {
  return db.prepare('SELECT value FROM state WHERE key = ?').pluck().get(BUILT_HERE) === fileStamp(file);
}

/** Records the file's identity as built here, in the transaction that gives a new file its first schema. */
function stampBuiltHere(db: DB, file: string): void {
  db.prepare('INSERT INTO state (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(BUILT_HERE, fileStamp(file));
}

/** What an index not built in place makes a writable open say (once) before it discards it. */
export const NOT_BUILT_HERE = 'was not built here (copied or carried with the repository)';

/** How many writable opens of this process ran `quick_check` and how many skipped it (a clean close's record matched). */
export const quickCheckTally = { run: 0, skipped: 0 };

/** The file of each writable connection openStore made, for closeStore. */
const writers = new WeakMap<DB, string>();

/**
 * Closes a connection; a writable one whose work ended well (`clean`) is checkpointed with the WAL truncated
 * first, and when the WAL is then empty the file's identity is recorded, so the next writable open of that very
 * file can skip `quick_check` (clean-close.ts says what that trusts). A writer that stops with an error closes
 * with `clean: false`: nothing is recorded and the next open checks.
 */
export function closeStore(db: DB, opts: { clean?: boolean } = {}): void {
  const file = writers.get(db);
  if (file === undefined || !db.open || opts.clean === false || db.inTransaction) {
    if (db.open) db.close();
    return;
  }
  let emptied = false;
  try {
    const [r] = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
    emptied = r?.busy === 0;
  } catch {
    // a checkpoint that fails (a full disk) leaves the WAL: no record, the next open checks
  }
  db.close();
  if (emptied) recordCleanClose(file);
}

/** `PRAGMA quick_check` (or the full `integrity_check`): a damaged index raises the one-line StoreError. */
export function checkIntegrity(db: DB, file: string, full = false): void {
  let result: string[];
  try {
    result = (db.pragma(full ? 'integrity_check(20)' : 'quick_check(20)') as { [k: string]: string }[]).map((r) => Object.values(r)[0]);
  } catch (err) {
    throw storeFault(file, err) ?? err;
  }
  if (result.length !== 1 || result[0] !== 'ok') {
    const first = result[0] ?? 'no answer';
    throw new StoreError(`the index ${file} is damaged (${full ? 'integrity' : 'quick'} check: ${first}${result.length > 1 ? ` and ${result.length - 1} more` : ''}): run \`allot index --rebuild\` to move it aside and index anew`, 'corrupt');
  }
}

/**
 * The one place that opens an allot database: checks that the file is an allot
 * index no newer than this code, applies pending migrations (each in its own
 * transaction, tracked by PRAGMA user_version) and sets the connection up.
 * A foreign, newer or corrupt file raises StoreError and is never modified.
 * The file, its -wal/-shm/-journal and a repository's `.allot/` folder are
 * never followed through symlinks (see own-files.ts). A writable open runs
 * `PRAGMA quick_check` unless told not to or the file is exactly as allot's
 * writer last closed it (clean-close.ts; a read-only one checks the file's
 * length), so a damaged index is reported before anything is written.
 * A writable open stamps the file's identity (`dev:ino`) into `state`; an
 * existing index without that stamp, or with another file's, was not built
 * here (copied, archived, committed with the repository): a writable open
 * discards it and starts empty, a read-only one refuses it (builtHere).
 * Close a writable connection with closeStore.
 */
export function openStore(file: string, opts: { readonly?: boolean; quickCheck?: boolean } = {}): DB {
  const readonly = opts.readonly ?? false;
  let ino: number | null;
  let exists: boolean;
  let closedCleanly = false;
  try {
    ensureDatabaseDir(file, { create: !readonly });
    exists = (checkOwnFile(file)?.size ?? 0) > 0;
    if (!exists && readonly) throw new StoreError(`no index at ${file}: run \`allot index\` first`, 'io');
    if (!readonly) checkWritable(file, exists);
    ino = prepareDatabaseFile(file, { readonly });
    if (exists) checkLength(file);
    // Taken (the record removed) before SQLite opens the file, so no write of this writer can leave it standing.
    if (!readonly) closedCleanly = takeCleanClose(file) && exists;
  } catch (err) {
    const dir = path.dirname(file);
    if (isUnwritable(err) && !fs.existsSync(dir)) {
      throw new StoreError(`cannot create ${dir} for the index: ${path.dirname(dir)} is not writable by you (pass --db to keep the index elsewhere)`, 'readonly');
    }
    throw storeFault(file, err) ?? err;
  }
  let db: DB;
  try {
    db = new Database(readonly && frozen(file) ? immutableUri(file) : file, { readonly, fileMustExist: true });
  } catch (err) {
    throw storeFault(file, err) ?? new StoreError(`cannot open ${file}: ${(err as Error).message}`, 'io');
  }
  try {
    // The schema's own functions (file texts are stored deflated) before anything reads it.
    registerTextFunctions(db);
    const migrations = loadMigrations();
    const latest = migrations.at(-1)?.version ?? 0;
    let appId: number, version: number, tables: number;
    try {
      appId = db.pragma('application_id', { simple: true }) as number;
      version = db.pragma('user_version', { simple: true }) as number;
      tables = (db.prepare("SELECT count(*) AS n FROM sqlite_master").get() as { n: number }).n;
    } catch (err) {
      throw storeFault(file, err) ?? err;
    }
    if (appId !== APPLICATION_ID && (tables > 0 || version !== 0)) {
      throw new StoreError(`${file} is a SQLite database but not an allot index; it was left untouched (pass another --db)`, 'foreign');
    }
    if (version > latest) {
      throw new StoreError(`${file} has index schema ${version}, newer than this allot understands (${latest}); upgrade allot or remove the index`, 'newer');
    }
    if (!readonly) {
      if (exists && opts.quickCheck !== false) {
        if (closedCleanly) quickCheckTally.skipped++;
        else {
          quickCheckTally.run++;
          checkIntegrity(db, file);
        }
      }
      if (version > 0 && !builtHere(db, file)) {
        db.close();
        // Another process discarded and recreated it since this one opened it: open what is there now instead.
        if (ino !== null && fs.lstatSync(file).ino !== ino) return openStore(file, opts);
        // Discarded before anything reads it, then created empty and stamped by the open below.
        process.stderr.write(`allot: the index ${file} ${NOT_BUILT_HERE}; rebuilding it\n`);
        discardDatabase(file);
        return openStore(file, opts);
      }
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
    } else if (version === latest && !builtHere(db, file)) {
      // A reader never serves it: the writer (`allot index`, the daemon) discards and rebuilds it first.
      throw new StoreError(`the index ${file} ${NOT_BUILT_HERE}, so it is not read: run \`allot index\` to rebuild it`, 'foreign');
    }
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    db.pragma('cache_size = -16384');
    verifyDatabaseFiles(file, ino);
    if (version < latest) {
      if (readonly) {
        // An older index of ours: bring its schema up to date through a writable connection, then read as asked.
        db.close();
        try {
          openStore(file).close();
        } catch (err) {
          if (err instanceof StoreError && err.code !== 'readonly') throw err;
          throw new StoreError(`${file} needs an upgrade, which failed (${(err as Error).message}): run \`allot index\``, 'newer');
        }
        return openStore(file, opts);
      }
      for (const [i, m] of migrations.filter((m) => m.version > version).entries()) {
        db.transaction(() => {
          db.exec(m.sql);
          db.pragma(`application_id = ${APPLICATION_ID}`);
          db.pragma(`user_version = ${m.version}`);
          // Stamped in the same transaction that gives the file its first schema: another process opening it while
          // it is being created must never see an allot index without its stamp (and take it for a carried one).
          // An existing index was stamped when it was created (one without the stamp was discarded above).
          if (version === 0 && i === 0) stampBuiltHere(db, file);
        })();
      }
    }
    // Full-text rows built with another layout (a migration recreated the table) are rebuilt from the views.
    if (!opts.readonly) {
      ensureFtsLayout(db);
      writers.set(db, file);
    }
    return db;
  } catch (err) {
    db.close();
    if (err instanceof StoreError) throw err;
    throw storeFault(file, err) ?? new StoreError(`${file}: ${(err as Error).message}`, 'corrupt');
  }
}
