// The quick check a writable open skips (issue 19, no-change re-run): only when the index is exactly as allot's
// writer closed it, with no WAL; every other state of the file runs the check as before, and damage written
// mid-file (its size kept, its old mtime restored) is still reported. Real SQLite files, a real index run.
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { indexRepository } from '../../indexer/index-repository.ts';
import { fileIdentity } from '../../indexer/store/clean-close.ts';
import { closeStore, openStore, quickCheckTally, StoreError } from '../../indexer/store/open.ts';
import { copyFixture } from '../helpers/repo.ts';
import { garble } from './harness.ts';

const repos: string[] = [];
afterEach(() => repos.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** A fixture indexed in place by a writer that closed cleanly: its database file. */
async function cleanlyClosed(): Promise<string> {
  const repo = copyFixture('mixed');
  repos.push(repo);
  const db = path.join(repo, '.allot/index.db');
  await indexRepository({ repo, db, workers: 0 });
  expect(fs.existsSync(`${db}-clean`)).toBe(true);
  expect(fs.existsSync(`${db}-wal`) && fs.statSync(`${db}-wal`).size > 0).toBe(false);
  return db;
}

/** What one writable open did: 'skipped' or 'checked' the file, or the StoreError code it raised. */
function openOnce(db: string, close: (d: Database.Database) => void = (d) => closeStore(d)): string {
  const before = { ...quickCheckTally };
  try {
    const d = openStore(db);
    // taken at the open: a writer killed from here on leaves no record
    expect(fs.existsSync(`${db}-clean`)).toBe(false);
    close(d);
  } catch (err) {
    if (err instanceof StoreError) return err.code;
    throw err;
  }
  if (quickCheckTally.skipped === before.skipped + 1 && quickCheckTally.run === before.run) return 'skipped';
  if (quickCheckTally.run === before.run + 1 && quickCheckTally.skipped === before.skipped) return 'checked';
  throw new Error('neither checked nor skipped');
}

/**
 * Runs `change` on the database and sets its mtime back exactly (ctime moves, as it always does): the times are
 * first pinned to a whole second, which fs.utimesSync restores to the nanosecond, and recorded by a clean close.
 */
function keepTimes(db: string, change: () => void): void {
  const second = Math.floor(Date.now() / 1000) - 60;
  fs.utimesSync(db, second, second);
  expect(openOnce(db)).toBe('checked');
  const before = fs.statSync(db, { bigint: true }).mtimeNs;
  change();
  fs.utimesSync(db, second, second);
  expect(fs.statSync(db, { bigint: true }).mtimeNs).toBe(before);
}

/** The parts of the file's identity that differ from its clean-close record. */
function moved(db: string): string[] {
  const recorded = JSON.parse(fs.readFileSync(`${db}-clean`, 'utf8'));
  const now = fileIdentity(db)!;
  return Object.keys(now).filter((k) => now[k as keyof typeof now] !== recorded[k]);
}

describe('a clean close lets the next writable open skip the quick check', () => {
  it('a clean re-open skips it, again and again; a re-index records it anew', async () => {
    const db = await cleanlyClosed();
    expect(openOnce(db)).toBe('skipped');
    expect(openOnce(db)).toBe('skipped');
    await indexRepository({ repo: path.dirname(path.dirname(db)), db, workers: 0 });
    expect(openOnce(db)).toBe('skipped');
  });

  // Each row changes the file or its record one way; the open must run the check (or report the damage).
  const cases: [string, (db: string) => void, string][] = [
    // The same size, the old mtime and header: the ctime (which no user can set back), kept in the record, catches it.
    ['16 KB of garbage mid-file, size kept, mtime restored', (db) => {
      keepTimes(db, () => garble(db));
      expect(moved(db)).toEqual(['ctimeNs']);
    }, 'corrupt'],
    ['no record', (db) => fs.rmSync(`${db}-clean`), 'checked'],
    ['a record that does not parse', (db) => fs.writeFileSync(`${db}-clean`, '{"version":1,"size":'), 'checked'],
    ['a record of another identity', (db) => {
      const r = JSON.parse(fs.readFileSync(`${db}-clean`, 'utf8'));
      fs.writeFileSync(`${db}-clean`, JSON.stringify({ ...r, mtimeNs: String(BigInt(r.mtimeNs) - 1n) }));
    }, 'checked'],
    ['a record with a field more', (db) => {
      const r = JSON.parse(fs.readFileSync(`${db}-clean`, 'utf8'));
      fs.writeFileSync(`${db}-clean`, JSON.stringify({ ...r, trusted: true }));
    }, 'checked'],
    ['the same bytes under another inode, mtime restored', (db) => keepTimes(db, () => {
      fs.copyFileSync(db, `${db}.copy`);
      fs.renameSync(`${db}.copy`, db);
    }), 'checked'],
    ['bytes appended, mtime restored', (db) => keepTimes(db, () => fs.appendFileSync(db, Buffer.alloc(4096))), 'checked'],
    ['a writer closed without its clean close (killed, or it failed)', (db) => openOnce(db, (d) => d.close()), 'checked'],
    ['a writer that ended with an error', (db) => openOnce(db, (d) => closeStore(d, { clean: false })), 'checked'],
  ];
  it.each(cases)('%s: the check runs', async (_name, change, expected) => {
    const db = await cleanlyClosed();
    change(db);
    expect(openOnce(db)).toBe(expected);
  });

  it('a WAL with frames (another writer still has it open): checked', async () => {
    const db = await cleanlyClosed();
    const other = new Database(db);
    try {
      other.pragma('wal_autocheckpoint = 0');
      other.pragma(`user_version = ${other.pragma('user_version', { simple: true })}`);
      expect(fs.statSync(`${db}-wal`).size).toBeGreaterThan(0);
      expect(openOnce(db)).toBe('checked');
    } finally {
      other.close();
    }
  });

  it('a record that is a link is refused, never followed', async () => {
    const db = await cleanlyClosed();
    const target = `${db}.elsewhere`;
    fs.renameSync(`${db}-clean`, target);
    fs.symlinkSync(target, `${db}-clean`);
    expect(() => openStore(db)).toThrow(/refusing to use .*index\.db-clean: it is a symbolic link/);
  });
});
