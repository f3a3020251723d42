// Tree snapshots with real git: a far switch keeps the tree it leaves, and going back to it copies the index
// back (nothing parsed, tokenized or resolved) to exactly a fresh index; a kill during the copy leaves one tree or
// the other; a snapshot file not written by this index is never read; the cache bound holds them too.
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { indexRepository } from '../../indexer/index-repository.ts';
import { seededRandom } from '../../indexer/random.ts';
import { cacheStats } from '../../indexer/store/extraction-cache.ts';
import { ftsDeleted, ftsStatistics } from '../../indexer/store/fts.ts';
import { openStore, type DB } from '../../indexer/store/open.ts';
import { snapshotDir, snapshotEntries } from '../../indexer/store/tree-snapshots.ts';
import { branchEdit, branchingPackage, commitBranch, rewriteEveryModule, type Tree } from '../helpers/branches.ts';
import { bm25Fingerprint } from '../helpers/random-edits.ts';
import { checkConsistency, dumpIndex, git, PROJECT, scratchDirs } from '../helpers/repo.ts';

const dir = scratchDirs('allot-trees-');
const QUERIES = ['parse', 'config', 'cart price', 'Thing', 'finish', 'render page cache', 'exported', 'token tree walk'];

/** A repository with branches `a` and `b`, b rewriting most of a (`edits` random edits), `a` checked out. */
function farBranches(seed: number, modules: number, edits: number): { repo: string; a: Tree; b: Tree } {
  const rand = seededRandom(seed);
  const repo = fs.realpathSync(dir());
  git(repo, 'init', '-q', '-b', 'a');
  const a = branchingPackage(rand, modules);
  commitBranch(repo, 'a', a);
  const b = structuredClone(a);
  for (let i = 0; i < edits; i++) branchEdit(b, rand);
  commitBranch(repo, 'b', b);
  git(repo, 'checkout', '-q', 'a');
  return { repo, a, b };
}

async function expectFresh(db: DB, repo: string): Promise<void> {
  expect(checkConsistency(db)).toEqual([]);
  const fresh = openStore(path.join(dir(), 'fresh.db'));
  await indexRepository({ repo, db: fresh, workers: 0 });
  expect(dumpIndex(db)).toEqual(dumpIndex(fresh));
  expect(bm25Fingerprint(db, QUERIES, 100_000)).toEqual(bm25Fingerprint(fresh, QUERIES, 100_000));
  fresh.close();
}

/** The (path, hash) pairs the index holds. */
const treeOf = (db: DB) => db.prepare('SELECT path, hash FROM files ORDER BY path').raw().all();

afterEach(() => void vi.restoreAllMocks());

describe('tree snapshots', () => {
  it('A -> B -> A copies A back from its snapshot: nothing parsed or resolved, a fresh index, and writes go on after it', async () => {
    const { repo, a, b } = farBranches(1, 16, 14);
    const changed = Object.keys(b).filter((p) => a[p] !== b[p]).length;
    expect(changed).toBeGreaterThan(Object.keys(a).length / 4);
    const db = openStore(path.join(repo, '.allot/index.db'));
    await indexRepository({ repo, db, workers: 0 });
    const atA = treeOf(db);
    git(repo, 'checkout', '-q', 'b');
    const toB = await indexRepository({ repo, db, workers: 0 });
    expect(toB.trees).toEqual({ kept: true, restored: false });
    expect(snapshotEntries(db)).toHaveLength(1);
    // FTS5 structure cached by this connection before the copy (a query), which the copy must not leave stale.
    bm25Fingerprint(db, QUERIES, 10);

    git(repo, 'checkout', '-q', 'a');
    const [deletedAtB, rowsAtB] = [ftsDeleted(db), ftsStatistics(db).rows];
    const back = await indexRepository({ repo, db, workers: 0 });
    expect(back).toMatchObject({ parsed: 0, resolution: null, trees: { kept: true, restored: true } });
    // Every full-text row of B the copy replaced counts as deleted (readers keep document-frequency bounds by it).
    expect(ftsDeleted(db) - deletedAtB).toBeGreaterThanOrEqual(rowsAtB);
    expect(back.restored).toBe(Object.keys(a).filter((p) => a[p] !== b[p]).length);
    expect(treeOf(db)).toEqual(atA);
    await expectFresh(db, repo);
    // Every file's size and time are those on disk: the next run reads nothing.
    expect(await indexRepository({ repo, db, workers: 0 })).toMatchObject({ parsed: 0, restored: 0, resolution: null });

    // The same connection writes on (an edit after the copy), and FTS5's own check agrees.
    fs.appendFileSync(path.join(repo, 'pkg/mod3.py'), '\n\ndef after_restore(x):\n    return x\n');
    expect(await indexRepository({ repo, db, workers: 0 })).toMatchObject({ parsed: 1 });
    db.exec("INSERT INTO views_fts(views_fts) VALUES('integrity-check')");
    await expectFresh(db, repo);

    // And back to B, kept when A was left again: copied back too.
    git(repo, 'checkout', '-q', '.');
    git(repo, 'checkout', '-q', 'b');
    expect((await indexRepository({ repo, db, workers: 0 })).trees?.restored).toBe(true);
    await expectFresh(db, repo);
    db.close();
  });

  it('never reads a snapshot it did not write: a planted file is deleted unread, a replaced one discarded with one line', async () => {
    const { repo } = farBranches(2, 16, 14);
    const dbFile = path.join(repo, '.allot/index.db');
    const db = openStore(dbFile);
    await indexRepository({ repo, db, workers: 0 });
    git(repo, 'checkout', '-q', 'b');
    await indexRepository({ repo, db, workers: 0 });
    const [kept] = snapshotEntries(db);
    const file = path.join(snapshotDir(dbFile), `${kept.tree}.db`);
    // The same bytes with a planted object, put in its place (another file: a copy, a clone, an archive).
    const forged = path.join(dir(), 'forged.db');
    fs.copyFileSync(file, forged);
    const raw = new Database(forged);
    raw.prepare("UPDATE objects SET name = 'planted'").run();
    raw.close();
    fs.rmSync(file);
    fs.copyFileSync(forged, file);
    // And a file the index never listed, named like one.
    const planted = path.join(snapshotDir(dbFile), `${'f'.repeat(32)}.db`);
    fs.copyFileSync(forged, planted);
    const said: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => (said.push(String(s)), true));

    git(repo, 'checkout', '-q', 'a');
    const back = await indexRepository({ repo, db, workers: 0 });
    vi.restoreAllMocks();
    expect(back.trees?.restored).toBe(false);
    expect(db.prepare("SELECT count(*) FROM objects WHERE name = 'planted'").pluck().get()).toBe(0);
    expect(said.filter((l) => l.includes(`${kept.tree}.db`))).toHaveLength(1);
    expect(fs.existsSync(planted)).toBe(false);
    expect(said.some((l) => l.includes(planted) && l.includes('deleted unread'))).toBe(true);
    await expectFresh(db, repo);
    db.close();
  });

  it('never writes, lists or deletes through a link where the snapshots folder goes', async () => {
    const { repo } = farBranches(5, 16, 14);
    const dbFile = path.join(repo, '.allot/index.db');
    const db = openStore(dbFile);
    await indexRepository({ repo, db, workers: 0 });
    const outside = dir();
    fs.writeFileSync(path.join(outside, 'keep.db'), 'not allot\'s');
    fs.symlinkSync(outside, snapshotDir(dbFile));
    git(repo, 'checkout', '-q', 'b');
    const s = await indexRepository({ repo, db, workers: 0 });
    expect(s.trees).toEqual({ kept: false, restored: false });
    expect(s.problems.some((p) => p.message.includes('not kept') && p.message.includes('symbolic link'))).toBe(true);
    expect(fs.readdirSync(outside)).toEqual(['keep.db']);
    await expectFresh(db, repo);
    db.close();
  });

  it('honours the cache bound: snapshots take only what the extraction cache leaves, least recently used going first', async () => {
    const { repo } = farBranches(3, 16, 14);
    const probeDb = openStore(path.join(dir(), 'probe.db'));
    await indexRepository({ repo, db: probeDb, workers: 0 });
    git(repo, 'checkout', '-q', 'b');
    await indexRepository({ repo, db: probeDb, workers: 0 });
    const cache = cacheStats(probeDb).bytes;
    const one = snapshotEntries(probeDb)[0].bytes;
    probeDb.close();
    git(repo, 'checkout', '-q', 'a');

    // Room for the cache and one snapshot, not two.
    const bound = cache + Math.floor(one * 1.5);
    const dbFile = path.join(repo, '.allot/index.db');
    const db = openStore(dbFile);
    await indexRepository({ repo, db, workers: 0, cacheMaxBytes: bound });
    for (const branch of ['b', 'a', 'b', 'a']) {
      git(repo, 'checkout', '-q', branch);
      const s = await indexRepository({ repo, db, workers: 0 });
      const listed = snapshotEntries(db);
      expect(s.cache.bytes + listed.reduce((n, e) => n + e.bytes, 0), branch).toBeLessThanOrEqual(bound);
      expect(listed.length).toBeLessThanOrEqual(1);
      // The tree gone back to is looked up before the tree left is kept: keeping that one never evicts it.
      expect(s.trees?.restored, branch).toBe(branch === 'a');
      const files = fs.readdirSync(snapshotDir(dbFile)).filter((n) => n.endsWith('.db'));
      expect(files.sort()).toEqual(listed.map((e) => `${e.tree}.db`).sort());
      await expectFresh(db, repo);
    }
    // A bound with no room for a snapshot keeps none, and switches still end in a fresh index.
    await indexRepository({ repo, db, workers: 0, cacheMaxBytes: cache });
    expect(snapshotEntries(db)).toEqual([]);
    git(repo, 'checkout', '-q', 'b');
    expect((await indexRepository({ repo, db, workers: 0 })).trees).toEqual({ kept: false, restored: false });
    await expectFresh(db, repo);
    db.close();
  });

  it('kill -9 during a restore leaves the index of one tree or the other, and the next run ends in a fresh index', { timeout: 180_000 }, async () => {
    const { repo } = farBranches(4, 400, 0);
    rewriteEveryModule(repo);
    const dbFile = path.join(repo, '.allot/index.db');
    let db = openStore(dbFile);
    await indexRepository({ repo, db, workers: 0 });
    const atA = treeOf(db);
    git(repo, 'checkout', '-q', 'b');
    await indexRepository({ repo, db, workers: 0 });
    const atB = treeOf(db);
    db.close();

    for (const [from, to] of [['b', 'a'], ['a', 'b']]) {
      git(repo, 'checkout', '-q', to);
      const wal = () => fs.statSync(`${dbFile}-wal`, { throwIfNoEntry: false })?.size ?? 0;
      const start = wal();
      const child = spawn(process.execPath, [path.join(PROJECT, 'client/bin/allot.js'), 'index', repo, '--workers', '0'], { stdio: 'ignore' });
      // Killed once the copy is writing pages (the WAL grows), before or after its commit.
      await new Promise<void>((resolve) => {
        const timer = setInterval(() => {
          if (wal() > start + 256 * 1024 || child.exitCode !== null) {
            clearInterval(timer);
            child.kill('SIGKILL');
            resolve();
          }
        }, 1);
      });
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.on('exit', r)));
      db = openStore(dbFile);
      expect(checkConsistency(db)).toEqual([]);
      expect([atA, atB], `${from} -> ${to}`).toContainEqual(treeOf(db));
      const rest = await indexRepository({ repo, db, workers: 0 });
      expect(rest.parsed).toBe(0);
      await expectFresh(db, repo);
      db.close();
    }
  });
});
