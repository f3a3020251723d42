import { spawn } from 'node:child_process';
import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { IndexInterrupted, indexRepository } from '../../indexer/index-repository.ts';
import { openStore } from '../../indexer/store/open.ts';
import { fiberObjects, fileText } from '../../indexer/store/read.ts';
import { checkConsistency, dumpIndex, PROJECT, tempDir, writeTree } from '../helpers/repo.ts';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
function repoWith(files: Record<string, string | Buffer>): string {
  const root = tempDir();
  dirs.push(root);
  writeTree(root, files);
  return root;
}

/** A repository of `n` small Python modules that call each other. */
function manyModules(n: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) {
    files[`pkg/mod${i}.py`] =
      `from pkg.mod${(i + 1) % n} import work_${(i + 1) % n}\n\n\ndef work_${i}(x):\n    """Step ${i}."""\n    return work_${(i + 1) % n}(x + ${i})\n\n\nclass Worker${i}:\n    def run(self):\n        return work_${i}(1)\n`;
  }
  return files;
}

describe('bad input', () => {
  it('indexes what parses in files with syntax errors and reports them with the path', async () => {
    const repo = repoWith({
      'broken.py': 'def good(a):\n    return a\n\ndef bad(:\n    pass\n\nclass Fine:\n    def ok(self):\n        return 1\n',
    });
    const db = openStore(path.join(repo, '.allot/index.db'));
    const s = await indexRepository({ repo, db, workers: 0 });
    const names = fiberObjects(db, 'broken.py').map((o) => o.qualifiedName);
    expect(names).toEqual(expect.arrayContaining(['good', 'Fine', 'Fine.ok']));
    expect(s.problems.some((p) => p.path === 'broken.py' && /syntax error/.test(p.message))).toBe(true);
    expect(checkConsistency(db)).toEqual([]);
    db.close();
  });

  it('replaces invalid UTF-8, skips binary files, survives pathological nesting', async () => {
    const deep = `x = ${'['.repeat(3000)}1${']'.repeat(3000)}\n\ndef after():\n    return x\n`;
    const repo = repoWith({
      'latin1.py': Buffer.concat([Buffer.from('def caf'), Buffer.from([0xe9]), Buffer.from('():\n    return 1\n')]),
      'image.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]),
      'deep.py': deep,
    });
    const db = openStore(path.join(repo, '.allot/index.db'));
    const s = await indexRepository({ repo, db, workers: 0 });
    expect(s.skipped).toMatchObject({ binary: 1 });
    expect(s.skippedPaths).toEqual([{ path: 'image.png', reason: 'binary', message: 'binary content' }]);
    expect(s.problems).toContainEqual({ path: 'latin1.py', message: expect.stringMatching(/invalid UTF-8/) });
    expect(s.problems.map((p) => p.path)).not.toContain('image.png');
    expect(fileText(db, 'latin1.py')).toContain('def caf\uFFFD():');
    expect(fiberObjects(db, 'deep.py').map((o) => o.qualifiedName)).toContain('after');
    expect(checkConsistency(db)).toEqual([]);
    db.close();
  });

  it('carries on when a file vanishes between discovery and parsing', async () => {
    const repo = repoWith(manyModules(6));
    const db = openStore(path.join(repo, '.allot/index.db'));
    let deleted = false;
    const s = await indexRepository({
      repo,
      db,
      workers: 0,
      onProgress: (p) => {
        if (p.phase === 'parse' && !deleted) {
          fs.rmSync(path.join(repo, 'pkg/mod5.py'));
          deleted = true;
        }
      },
    });
    expect(s.skipped).toMatchObject({ vanished: 1 });
    expect(s.problems).toContainEqual({ path: 'pkg/mod5.py', message: 'skipped (vanished): deleted while indexing' });
    expect(s.files).toBe(5);
    expect(checkConsistency(db)).toEqual([]);
    db.close();
  });

  it('stops cleanly when asked, and the next run finishes to the same index as a fresh one', async () => {
    const repo = repoWith(manyModules(200));
    const db = openStore(path.join(repo, '.allot/index.db'));
    let seen = 0;
    await expect(indexRepository({ repo, db, workers: 0, shouldStop: () => ++seen > 70 })).rejects.toBeInstanceOf(IndexInterrupted);
    expect(checkConsistency(db)).toEqual([]);
    const partial = (db.prepare('SELECT count(*) AS n FROM files').get() as { n: number }).n;
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(200);
    const resumed = await indexRepository({ repo, db, workers: 0 });
    expect(resumed.parsed).toBe(200 - partial);
    const fresh = openStore(path.join(repo, '.allot/fresh.db'));
    await indexRepository({ repo, db: fresh, workers: 0 });
    expect(dumpIndex(db)).toEqual(dumpIndex(fresh));
    db.close();
    fresh.close();
  });

  it('recovers from kill -9 of the indexing process', async () => {
    const repo = repoWith(manyModules(600));
    const dbFile = path.join(repo, '.allot/index.db');
    const child = spawn(process.execPath, [path.join(PROJECT, 'client/bin/allot.js'), 'index', repo, '--workers', '1'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    // Listen from the start: a child that ends before the kill must fail the test, not hang it.
    const exited = new Promise((r) => child.on('exit', (_code, sig) => r(sig)));
    // Kill it once some batches are committed but before it can finish.
    let atKill = 0;
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        if (child.exitCode !== null || child.signalCode !== null) {
          clearInterval(timer);
          resolve(); // ended on its own before the kill: the assertions below say so
          return;
        }
        try {
          // A bare read-only connection: the probe must not take part in the build (openStore upgrades a schema
          // still being created through a writable open, which competes with the child for the write lock).
          const db = new Database(dbFile, { readonly: true, fileMustExist: true });
          const n = (db.prepare('SELECT count(*) AS n FROM files').get() as { n: number }).n;
          db.close();
          if (n > 0) {
            atKill = n;
            clearInterval(timer);
            child.kill('SIGKILL');
            resolve();
          }
        } catch {
          /* not created yet */
        }
      }, 20);
    });
    const signal = await exited;
    expect(signal).toBe('SIGKILL');
    expect(atKill).toBeLessThan(600);
    const db = openStore(dbFile);
    expect(checkConsistency(db)).toEqual([]);
    await indexRepository({ repo, db, workers: 0 });
    const fresh = openStore(path.join(repo, '.allot/fresh.db'));
    await indexRepository({ repo, db: fresh, workers: 0 });
    expect(dumpIndex(db)).toEqual(dumpIndex(fresh));
    db.close();
    fresh.close();
  }, 90_000);
});
