import v8 from 'node:v8';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { boundHeapGrowth, INDEXING_HEAP_GROWING_PERCENT } from '../../indexer/heap-growth.ts';
import { createParsePool } from '../../indexer/parse-pool.ts';

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
});
