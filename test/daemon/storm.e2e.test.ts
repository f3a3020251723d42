// A `git checkout` that rewrites thousands of files under a running daemon:
// absorbed as one batch, and afterwards the index equals a fresh index.
import fs from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { indexRepository } from '../../indexer/index-repository.ts';
import { openStore } from '../../indexer/store/open.ts';
import { isSettled, killDaemons, serve, settled, waitFor } from '../helpers/daemon.ts';
import { checkConsistency, dumpIndex, git, tempDir, writeTree } from '../helpers/repo.ts';

// whatever happens, no daemon outlives this file
afterAll(killDaemons);

/** Files on the branch checked out last: the checkout rewrites or creates all of them. */
const FILES = 2000;
/** Files on the starting branch (kept small so the start-up index is quick): rewritten or deleted by the checkout. */
const BASE = 300;
const dirs: string[] = [];
afterAll(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function tree(variant: string, from: number, to: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = from; i < to; i++) {
    files[`src/p${i % 25}/m${i}.py`] = `def ${variant}_${i}(x):\n    """${variant} step ${i}."""\n    return x + ${i}\n\n\nclass ${variant[0].toUpperCase()}${variant.slice(1)}${i}:\n    def run(self):\n        return ${variant}_${i}(1)\n`;
  }
  return files;
}

describe('git checkout storm', () => {
  it(`absorbs a checkout writing ${FILES} files as one batch, ending equal to a fresh index; switching back restores it`, { timeout: 180_000 }, async () => {
    const repo = fs.realpathSync(tempDir('allot-storm-'));
    dirs.push(repo);
    git(repo, 'init', '-q', '-b', 'main');
    writeTree(repo, tree('alpha', 0, BASE));
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'alpha');
    git(repo, 'checkout', '-q', '-b', 'beta');
    // beta rewrites the first BASE - 50 files, deletes 50, and creates the rest, some in new folders
    fs.rmSync(path.join(repo, 'src'), { recursive: true });
    writeTree(repo, { ...tree('beta', 0, BASE - 50), ...tree('beta', BASE, FILES - 100), ...Object.fromEntries(Object.entries(tree('gamma', FILES, FILES + 150)).map(([p, t]) => [p.replace('src/', 'extra/'), t])) });
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'beta');
    git(repo, 'checkout', '-q', 'main');

    const d = await serve(repo);
    // What the batches logged since `mark` parsed, restored and removed, one triple per batch.
    const batchesSince = (mark: number) => [...d.log().slice(mark).matchAll(/indexed .*?: (\d+) parsed, (\d+) restored, (\d+) removed/g)].map((m) => m.slice(1).map(Number));
    const sum = (batches: number[][]) => batches.reduce((t, [p, r, x]) => [t[0] + p, t[1] + r, t[2] + x], [0, 0, 0]);
    // The fresh index of the tree checked out now, built outside the repository.
    const freshDir = tempDir('allot-storm-fresh-');
    dirs.push(freshDir);
    const freshDump = async (name: string) => {
      const fresh = openStore(path.join(freshDir, `${name}.db`));
      await indexRepository({ repo, db: fresh });
      const dump = dumpIndex(fresh);
      fresh.close();
      return dump;
    };
    // The daemon's status once it is settled after batch number `batches` with the index equal to `expected`.
    const untilFresh = (batches: number, expected: ReturnType<typeof dumpIndex>, what: string) =>
      waitFor(
        async () => {
          const s = await d.client.status();
          if (!isSettled(s) || s.indexing.batches === batches) return null;
          const db = openStore(path.join(repo, '.allot/index.db'), { readonly: true });
          try {
            return isDeepStrictEqual(dumpIndex(db), expected) ? s : null;
          } finally {
            db.close();
          }
        },
        what,
        60_000,
        250,
      );
    try {
      const before = await settled(d.client, 40_000);
      expect(before.index.files).toBe(BASE);

      const firstMark = d.log().length;
      git(repo, 'checkout', '-q', 'beta');
      const after = await untilFresh(before.indexing.batches, await freshDump('beta'), 'the index to equal a fresh index of the checked-out tree');
      expect(after.index.files).toBe(FILES);
      // One batch on a quiet machine; a checkout that pauses on a busy one may come as two: together they parse
      // each of its files once and remove the 50 it deleted.
      const first = batchesSince(firstMark);
      expect(first.length).toBe(after.indexing.batches - before.indexing.batches);
      expect(first.length).toBeLessThanOrEqual(2);
      expect(sum(first)).toEqual([FILES, 0, 50]);
      expect(after.indexing.lastBatch).toMatchObject({ error: null });
      if (first.length === 1) expect(after.indexing.lastBatch).toMatchObject({ full: true, parsed: FILES, removed: 50 });
      const db = openStore(path.join(repo, '.allot/index.db'), { readonly: true });
      expect(checkConsistency(db)).toEqual([]);
      db.close();

      // Back to the first branch: every file's content was indexed before, so its batches restore and parse nothing.
      const logMark = d.log().length;
      git(repo, 'checkout', '-q', 'main');
      const back = await untilFresh(after.indexing.batches, await freshDump('main'), 'the index to equal a fresh index of the first branch again');
      // As above, one or two batches: together they restore the branch and parse nothing.
      const batches = batchesSince(logMark);
      expect(batches.length).toBe(back.indexing.batches - after.indexing.batches);
      expect(sum(batches)).toEqual([0, BASE, FILES - (BASE - 50)]);
      expect(back.cache.entries).toBeGreaterThanOrEqual(FILES);
    } finally {
      await d.stop();
    }
  });
});
