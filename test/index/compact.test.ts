import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { indexRepository } from '../../indexer/index-repository.ts';
import { COMPACT_FREE_SHARE } from '../../indexer/store/compact.ts';
import { openStore } from '../../indexer/store/open.ts';
import { checkConsistency, moduleTree, scratchDirs, writeTree } from '../helpers/repo.ts';

const dir = scratchDirs('allot-compact-');
const pages = (db: ReturnType<typeof openStore>) => ({
  total: db.pragma('page_count', { simple: true }) as number,
  free: db.pragma('freelist_count', { simple: true }) as number,
});

describe('compaction', () => {
  it('leaves no free page after a first build, and gives back the pages of files that went', async () => {
    const repo = dir();
    writeTree(repo, moduleTree(40, 12));
    const db = openStore(path.join(dir(), 'index.db'));
    await indexRepository({ repo, db, workers: 0 });
    const built = pages(db);
    expect(built.free).toBe(0);

    // A small edit leaves the file alone (free pages are reused by later writes).
    fs.appendFileSync(path.join(repo, 'pkg/d0/mod0.py'), '\n\ndef extra(x):\n    return x\n');
    await indexRepository({ repo, db, workers: 0 });
    expect(pages(db).total).toBeGreaterThanOrEqual(built.total);

    // Most files gone: far more than a fifth of the pages would be free; they are given back (the extraction
    // cache keeps the contents that went, so the file does not shrink in proportion).
    for (let i = 4; i < 40; i++) fs.rmSync(path.join(repo, `pkg/d${i % 20}/mod${i}.py`));
    await indexRepository({ repo, db, workers: 0 });
    const after = pages(db);
    expect(after.free).toBe(0);
    expect(after.total).toBeLessThan(built.total * (1 - COMPACT_FREE_SHARE));
    expect(checkConsistency(db)).toEqual([]);
    db.close();
  });
});
