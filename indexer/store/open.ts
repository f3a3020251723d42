import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export type DB = Database.Database;

/** PRAGMA application_id of every allot database ('allt'), so foreign files are recognised. */
export const APPLICATION_ID = 0x616c6c74;
const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations/', import.meta.url));

/** A database allot refuses to open, with a message for the user. */
export class StoreError extends Error {
  constructor(message: string, readonly code: 'foreign' | 'newer' | 'corrupt' | 'io') {
    super(message);
    this.name = 'StoreError';
  }
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

/**
 * The one place that opens an allot database: checks that the file is an allot
 * index no newer than this code, applies pending migrations (each in its own
 * transaction, tracked by PRAGMA user_version) and sets the connection up.
 * A foreign, newer or corrupt file raises StoreError and is never modified.
 */
export function openStore(file: string, opts: { readonly?: boolean } = {}): DB {
  const exists = fs.existsSync(file) && fs.statSync(file).size > 0;
  if (!exists && opts.readonly) throw new StoreError(`no index at ${file}: run \`allot index\` first`, 'io');
  if (!exists) fs.mkdirSync(path.dirname(file), { recursive: true });
  let db: DB;
  try {
    db = new Database(file, { readonly: opts.readonly ?? false, fileMustExist: exists });
  } catch (err) {
    throw new StoreError(`cannot open ${file}: ${(err as Error).message}`, 'io');
  }
  try {
    const migrations = loadMigrations();
    const latest = migrations.at(-1)?.version ?? 0;
    let appId: number, version: number, tables: number;
    try {
      appId = db.pragma('application_id', { simple: true }) as number;
      version = db.pragma('user_version', { simple: true }) as number;
      tables = (db.prepare("SELECT count(*) AS n FROM sqlite_master").get() as { n: number }).n;
    } catch (err) {
      throw new StoreError(`${file} is not an allot index (not a SQLite database: ${(err as Error).message}); move it away or pass another --db`, 'foreign');
    }
    if (appId !== APPLICATION_ID && (tables > 0 || version !== 0)) {
      throw new StoreError(`${file} is a SQLite database but not an allot index; it was left untouched (pass another --db)`, 'foreign');
    }
    if (version > latest) {
      throw new StoreError(`${file} has index schema ${version}, newer than this allot understands (${latest}); upgrade allot or remove the index`, 'newer');
    }
    if (!opts.readonly) {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
    }
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    db.pragma('cache_size = -16384');
    if (version < latest) {
      if (opts.readonly) {
        // An older index of ours: bring its schema up to date through a writable connection, then read as asked.
        db.close();
        try {
          openStore(file).close();
        } catch (err) {
          if (err instanceof StoreError) throw err;
          throw new StoreError(`${file} needs an upgrade, which failed (${(err as Error).message}): run \`allot index\``, 'newer');
        }
        return openStore(file, opts);
      }
      for (const m of migrations.filter((m) => m.version > version)) {
        db.transaction(() => {
          db.exec(m.sql);
          db.pragma(`application_id = ${APPLICATION_ID}`);
          db.pragma(`user_version = ${m.version}`);
        })();
      }
    }
    return db;
  } catch (err) {
    db.close();
    if (err instanceof StoreError) throw err;
    throw new StoreError(`${file}: ${(err as Error).message}`, 'corrupt');
  }
}
