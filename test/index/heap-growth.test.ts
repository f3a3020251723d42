import v8 from 'node:v8';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { boundHeapGrowth, INDEXING_HEAP_GROWING_PERCENT } from '../../indexer/heap-growth.ts';
import fs from 'node:fs';
import path from 'node:path';
import { indexRepository } from '../../indexer/index-repository.ts';
import { createParsePool } from '../../indexer/parse-pool.ts';
import { openStore } from '../../indexer/store/open.ts';
import { resolveStore } from '../../indexer/store/resolution.ts';
import { copyFixture } from '../helpers/repo.ts';

describe('heap growth while indexing', () => {
  afterEach(() => vi.restoreAllMocks());

  it('bounds heap growth from the first holder to the last release, once each, whatever the order', () => {
    const set = vi.spyOn(v8, 'setFlagsFromString');
    const a = boundHeapGrowth();
    const b = boundHeapGrowth();
    expect(set.mock.calls).toEqual([[`--heap-growing-percent=${INDEXING_HEAP_GROWING_PERCENT}`]]);
    a();
    a(); // a second release of the same holder counts once
    expect(set).toHaveBeenCalledTimes(1);
    b();
    expect(set.mock.calls.at(-1)).toEqual(['--heap-growing-percent=0']);
    expect(set).toHaveBeenCalledTimes(2);
  });

  it('is held by a parse pool until it closes', async () => {
    const set = vi.spyOn(v8, 'setFlagsFromString');
    const pool = createParsePool(0);
    expect(set.mock.calls).toEqual([[`--heap-growing-percent=${INDEXING_HEAP_GROWING_PERCENT}`]]);
    await pool.close();
    expect(set.mock.calls.at(-1)).toEqual(['--heap-growing-percent=0']);
  });

  it('is held by a resolution pass while it runs, and let go after it', async () => {
    const repo = copyFixture('python');
    try {
      const db = openStore(path.join(repo, '.allot', 'index.db'));
      await indexRepository({ repo, db, workers: 0 });
      const set = vi.spyOn(v8, 'setFlagsFromString');
      let during: unknown[][] | null = null;
      const prepare = db.prepare.bind(db);
      vi.spyOn(db, 'prepare').mockImplementation(((sql: string) => {
        during ??= set.mock.calls.slice();
        return prepare(sql);
      }) as typeof db.prepare);
      resolveStore(db, { full: true });
      expect(during).toEqual([[`--heap-growing-percent=${INDEXING_HEAP_GROWING_PERCENT}`]]);
      expect(set.mock.calls.at(-1)).toEqual(['--heap-growing-percent=0']);
      db.close();
    } finally {
      fs.rmSync(repo, { recursive: true, force: true });
    }
  });
});
