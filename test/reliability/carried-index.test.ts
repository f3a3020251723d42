// An index.db carried inside a repository (committed with `git add -f`, unpacked from an archive, copied with the
// folder) holds whatever its author planted: objects, file texts served as verbatim, an embedder row naming a
// model folder for queries to load. allot trusts only the file it built in place (its `dev:ino` stamp): a carried
// one is discarded by the writer and refused by readers. Real SQLite files, real index runs.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { activeEmbedder } from '../../indexer/embed/active.ts';
import { indexRepository } from '../../indexer/index-repository.ts';
import { compactStore } from '../../indexer/store/compact.ts';
import { closeStore, openStore, StoreError } from '../../indexer/store/open.ts';
import { moveDatabaseAside } from '../../indexer/store/own-files.ts';
import { copyFixture } from '../helpers/repo.ts';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

const PLANTED = 'planted_by_the_repository';

/** A fixture indexed in place, then planted with an object name and a 'transformers' embedder naming a folder outside the repository. */
async function plantedRepo(): Promise<{ repo: string; db: string; outside: string }> {
  const repo = copyFixture('mixed');
  const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'allot-outside-'));
  dirs.push(repo, outside);
  const db = path.join(repo, '.allot/index.db');
  await indexRepository({ repo, db, workers: 0 });
  const d = openStore(db);
  d.prepare('UPDATE objects SET name = ? WHERE key = (SELECT min(key) FROM objects)').run(PLANTED);
  d.prepare("INSERT INTO embedders (model, kind, data) VALUES ('planted@1', 'transformers', ?)").run(Buffer.from(outside));
  d.prepare("INSERT INTO state (key, value) VALUES ('dense_model', 'planted@1') ON CONFLICT(key) DO UPDATE SET value = excluded.value").run();
  closeStore(d);
  return { repo, db, outside };
}

/** The repository copied whole to a new folder (`cp -a`: new inodes, every byte and time kept). */
function carried(repo: string): { repo: string; db: string } {
  const to = fs.mkdtempSync(path.join(os.tmpdir(), 'allot-carried-'));
  dirs.push(to);
  execFileSync('cp', ['-a', `${repo}/.`, to]);
  return { repo: to, db: path.join(to, '.allot/index.db') };
}

function plantedCount(db: string): number {
  const d = openStore(db, { readonly: true });
  try {
    return d.prepare('SELECT count(*) FROM objects WHERE name = ?').pluck().get(PLANTED) as number;
  } finally {
    d.close();
  }
}

describe('an index.db carried with the repository', () => {
  it('in place, the planted rows are what the index holds (the control)', async () => {
    const { db } = await plantedRepo();
    expect(plantedCount(db)).toBe(1);
  });

  it('is refused by a reader before any writer ran, with a one-line reason', async () => {
    const { repo } = await plantedRepo();
    const copy = carried(repo);
    let err: unknown;
    try {
      openStore(copy.db, { readonly: true });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(StoreError);
    expect((err as Error).message).toMatch(/was not built here \(copied or carried with the repository\).*allot index/);
    expect((err as Error).message).not.toMatch(/\n/);
  });

  it('is discarded by `allot index`: no planted object, no planted embedder, every file extracted anew', async () => {
    const { repo, outside } = await plantedRepo();
    const copy = carried(repo);
    const summary = await indexRepository({ repo: copy.repo, db: copy.db, workers: 0 });
    // Rebuilt from the repository: nothing was taken as unchanged from the carried file.
    expect(summary.unchanged).toBe(0);
    expect(summary.parsed + summary.restored).toBe(summary.files);
    expect(summary.restored).toBe(0);
    expect(plantedCount(copy.db)).toBe(0);
    const d = openStore(copy.db, { readonly: true });
    try {
      expect(d.prepare('SELECT count(*) FROM embedders').pluck().get()).toBe(0);
      const dense = await activeEmbedder(d);
      expect(dense.on).toBe(false);
      if (!dense.on) expect(dense.reason).not.toContain(outside);
    } finally {
      d.close();
    }
    // The copy is now allot's own: the next run trusts it (nothing re-extracted).
    const again = await indexRepository({ repo: copy.repo, db: copy.db, workers: 0 });
    expect(again.parsed + again.restored).toBe(0);
    expect(again.unchanged).toBe(again.files);
  });

  it('a database file put in place of allot\'s own (same folder, new inode) is discarded too', async () => {
    const { repo, db } = await plantedRepo();
    fs.copyFileSync(db, `${db}.other`);
    fs.renameSync(`${db}.other`, db);
    const summary = await indexRepository({ repo, db, workers: 0 });
    expect(summary.unchanged).toBe(0);
    expect(plantedCount(db)).toBe(0);
  });
});

describe('an index allot rewrote itself', () => {
  it('compacted (VACUUM) is trusted on the next open: nothing re-extracted', async () => {
    const repo = copyFixture('mixed');
    dirs.push(repo);
    const db = path.join(repo, '.allot/index.db');
    const first = await indexRepository({ repo, db, workers: 0 });
    expect(first.parsed).toBeGreaterThan(0);
    const d = openStore(db);
    expect(compactStore(d, { firstBuild: true })).toBe(true);
    closeStore(d);
    const again = await indexRepository({ repo, db, workers: 0 });
    expect(again.parsed + again.restored).toBe(0);
    expect(again.unchanged).toBe(first.files);
  });

  it('rebuilt (`--rebuild` moves it aside) is trusted on the next open: nothing re-extracted', async () => {
    const repo = copyFixture('mixed');
    dirs.push(repo);
    const db = path.join(repo, '.allot/index.db');
    await indexRepository({ repo, db, workers: 0 });
    expect(moveDatabaseAside(db)).not.toBeNull();
    const rebuilt = await indexRepository({ repo, db, workers: 0 });
    expect(rebuilt.parsed).toBeGreaterThan(0);
    const again = await indexRepository({ repo, db, workers: 0 });
    expect(again.parsed + again.restored).toBe(0);
    expect(again.unchanged).toBe(rebuilt.files);
  });
});
