import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { APPLICATION_ID, BUILT_HERE, fileStamp, loadMigrations, openStore, StoreError } from '../../indexer/store/open.ts';
import { scratchDirs } from '../helpers/repo.ts';

const dir = scratchDirs();
const sha = (f: string) => crypto.createHash('sha1').update(fs.readFileSync(f)).digest('hex');

describe('opening the store', () => {
  it('creates a WAL database at the latest schema, marked as allot', () => {
    const file = path.join(dir(), 'nested', 'index.db');
    const db = openStore(file);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('user_version', { simple: true })).toBe(loadMigrations().at(-1)!.version);
    expect(db.pragma('application_id', { simple: true })).toBe(APPLICATION_ID);
    db.close();
    // Re-opening applies nothing and keeps the data.
    const again = openStore(file);
    expect((again.prepare('SELECT count(*) AS n FROM files').get() as { n: number }).n).toBe(0);
    again.close();
  });

  it('refuses a SQLite database of another application and leaves it untouched', () => {
    const file = path.join(dir(), 'other.db');
    const other = new Database(file);
    other.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES (\'keep me\');');
    other.close();
    const before = sha(file);
    expect(() => openStore(file)).toThrowError(StoreError);
    expect(() => openStore(file)).toThrowError(/not an allot index/);
    expect(sha(file)).toBe(before);
  });

  it('refuses a file that is not a database at all and leaves it untouched', () => {
    const file = path.join(dir(), 'index.db');
    fs.writeFileSync(file, crypto.randomBytes(8192));
    const before = sha(file);
    const err = (() => {
      try {
        openStore(file);
      } catch (e) {
        return e as StoreError;
      }
    })();
    expect(err).toBeInstanceOf(StoreError);
    expect(err!.code).toBe('foreign');
    expect(sha(file)).toBe(before);
  });

  it('refuses an index written by a newer allot', () => {
    const file = path.join(dir(), 'index.db');
    openStore(file).close();
    const raw = new Database(file);
    raw.pragma('user_version = 999');
    raw.close();
    expect(() => openStore(file)).toThrowError(/newer than this allot understands/);
  });

  /** An index at schema 1 holding a file row, stamped as built in this file (`stamped`) or as an allot before the stamp left it. */
  function schemaOne(stamped: boolean): string {
    const file = path.join(dir(), 'index.db');
    const raw = new Database(file);
    raw.exec(loadMigrations()[0].sql);
    raw.pragma(`application_id = ${APPLICATION_ID}`);
    raw.pragma('user_version = 1');
    raw.prepare("INSERT INTO files (path, language, hash, size, line_count, mtime_ms, parse_errors) VALUES ('a.py', 'python', 'h', 1, 1, 0, 0)").run();
    if (stamped) raw.prepare('INSERT INTO state (key, value) VALUES (?, ?)').run(BUILT_HERE, fileStamp(file));
    raw.close();
    return file;
  }

  it('upgrades an older index of its own when opened read-only, keeping its rows', () => {
    const db = openStore(schemaOne(true), { readonly: true });
    expect(db.readonly).toBe(true);
    expect(db.pragma('user_version', { simple: true })).toBe(loadMigrations().at(-1)!.version);
    expect(db.prepare('SELECT path FROM files').pluck().all()).toEqual(['a.py']);
    db.close();
  });

  it('rebuilds an older index without the built-here stamp once (it cannot be told from a carried copy)', () => {
    const file = schemaOne(false);
    let db = openStore(file);
    expect(db.pragma('user_version', { simple: true })).toBe(loadMigrations().at(-1)!.version);
    expect(db.prepare('SELECT count(*) FROM files').pluck().get()).toBe(0);
    db.prepare("INSERT INTO files (path, language, hash, size, line_count, mtime_ms, parse_errors) VALUES ('b.py', 'python', 'h', 1, 1, 0, 0)").run();
    db.close();
    db = openStore(file);
    expect(db.prepare('SELECT path FROM files').pluck().all()).toEqual(['b.py']);
    db.close();
  });

  it('says how to create a missing index when opened read-only', () => {
    expect(() => openStore(path.join(dir(), 'none.db'), { readonly: true })).toThrowError(/run `allot index` first/);
  });
});
