// Faults: kill -9 in the middle of indexing, then `allot start`; a repository
// that disappears under a running daemon.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connect, stopDaemonProcess } from '../../client/lib/index.ts';
import { isAlive } from '../../daemon/lifecycle.ts';
import { indexRepository } from '../../indexer/index-repository.ts';
import { openStore } from '../../indexer/store/open.ts';
import { getState } from '../../indexer/store/write.ts';
import { allotAsync, caughtIndexing, killDaemons, serve, settled, track, waitFor } from '../helpers/daemon.ts';
import { checkConsistency, copyFixture, dumpIndex, moduleTree, tempDir, writeTree } from '../helpers/repo.ts';

// (the tests run concurrently: folders are removed once all are done)
const dirs: string[] = [];
afterAll(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** A fresh index of the tree as it is now, built outside the repository. */
async function freshDump(repo: string): Promise<Record<string, unknown[]>> {
  const dir = tempDir('allot-fresh-');
  dirs.push(dir);
  const db = openStore(path.join(dir, 'index.db'));
  try {
    await indexRepository({ repo, db });
    return dumpIndex(db);
  } finally {
    db.close();
  }
}

function daemonDump(repo: string): { dump: Record<string, unknown[]>; problems: string[] } {
  const db = openStore(path.join(repo, '.allot/index.db'), { readonly: true });
  try {
    return { dump: dumpIndex(db), problems: checkConsistency(db) };
  } finally {
    db.close();
  }
}

const FILES = 200;

/** A daemon on a fresh repository of FILES modules, caught early in its start-up run (a batch committed, most to do). */
async function indexingDaemon(prefix: string) {
  const repo = fs.realpathSync(tempDir(prefix));
  dirs.push(repo);
  writeTree(repo, moduleTree(FILES));
  return { repo, d: await caughtIndexing(repo) };
}

describe.concurrent('daemon faults', () => {
  it('kill -9 during indexing, then allot start: consistent, and caught up with what changed while it was down', { timeout: 120_000 }, async () => {
    // Kill it once a batch of files is committed, before the start-up run can finish.
    const { repo, d } = await indexingDaemon('allot-kill-');
    d.child.kill('SIGKILL');
    expect((await d.exited).signal).toBe('SIGKILL');
    // its pid file is left behind, stale; the index is consistent and unfinished
    expect(fs.existsSync(path.join(repo, '.allot/daemon.pid'))).toBe(true);
    const db = openStore(path.join(repo, '.allot/index.db'), { readonly: true });
    const files = (db.prepare('SELECT count(*) AS n FROM files').get() as { n: number }).n;
    expect(files < FILES || getState(db, 'resolution_dirty') !== null).toBe(true);
    expect(checkConsistency(db)).toEqual([]);
    db.close();

    // changed while no daemon ran
    writeTree(repo, { 'pkg/d3/mod3.py': 'def renamed_while_down():\n    return 3\n', 'added/new_module.py': 'def added_while_down():\n    pass\n' });
    fs.rmSync(path.join(repo, 'pkg/d4/mod4.py'));
    fs.rmSync(path.join(repo, 'pkg/d5'), { recursive: true });

    const started = await allotAsync(['start', repo]);
    expect(started.status, started.stderr).toBe(0);
    const allot = await connect({ repo });
    track(allot.info.pid);
    try {
      expect(allot.info.pid).not.toBe(d.child.pid);
      await settled(allot, 40_000);
      const after = daemonDump(repo);
      expect(after.problems).toEqual([]);
      expect(after.dump).toEqual(await freshDump(repo));
      expect((await allot.search({ query: 'added_while_down', k: 1 }))[0]).toMatchObject({ path: 'added/new_module.py' });
    } finally {
      allot.close();
      await stopDaemonProcess(repo);
    }
  });

  it('on SIGTERM in the middle of indexing, ends the transaction, closes the index and removes its pid file', { timeout: 60_000 }, async () => {
    const { repo, d } = await indexingDaemon('allot-term-');
    const t0 = Date.now();
    expect(await d.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(d.log()).toMatch(/stopping: SIGTERM[\s\S]*stopped/);
    expect(fs.existsSync(path.join(repo, '.allot/daemon.pid'))).toBe(false);
    expect(fs.existsSync(path.join(repo, '.allot/daemon.json'))).toBe(false);
    const db = openStore(path.join(repo, '.allot/index.db'), { readonly: true });
    const files = (db.prepare('SELECT count(*) AS n FROM files').get() as { n: number }).n;
    expect(files < FILES || getState(db, 'resolution_dirty') !== null).toBe(true);
    expect(checkConsistency(db)).toEqual([]);
    db.close();
  });

  it('keeps serving, with a clear error, when the repository disappears', async () => {
    const repo = fs.realpathSync(copyFixture('mixed'));
    dirs.push(repo);
    const d = await serve(repo);
    try {
      await settled(d.client);
      fs.rmSync(repo, { recursive: true, force: true });
      const s = await waitFor(async () => {
        const st = await d.client.status();
        return st.lastError ? st : null;
      }, 'the daemon to notice');
      expect(s.lastError?.message).toMatch(/no longer exists; serving the last index/);
      expect(s.watcher.state).toBe('stopped');
      // and it did not bring the folder back (say, by creating a new, empty index there)
      expect(fs.existsSync(repo)).toBe(false);
      // queries are still answered from the index it has open
      expect((await d.client.search({ query: 'apply discount', k: 1 }))[0]).toMatchObject({ object: 'apply_discount' });
      expect((await d.client.status()).pid).toBe(d.child.pid);
    } finally {
      expect(await d.stop()).toEqual({ code: 0, signal: null });
    }
    expect(isAlive(d.child.pid!)).toBe(false);
  });
});
