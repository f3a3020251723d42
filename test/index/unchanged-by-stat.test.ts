import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { indexRepository } from '../../indexer/index-repository.ts';
import { openStore } from '../../indexer/store/open.ts';
import { fileText } from '../../indexer/store/read.ts';
import { tempDir, writeTree } from '../helpers/repo.ts';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe('files unchanged by their size and time', () => {
  it('are not read again; a recent time is never trusted; a new time is read', async () => {
    const repo = tempDir();
    dirs.push(repo);
    writeTree(repo, { 'a.py': 'def one():\n    return 1\n', 'b.py': 'def two():\n    return 2\n' });
    const db = openStore(path.join(repo, '.allot', 'index.db'));
    // Just written: times within 2 s of the run are racy and recorded as unknown.
    await indexRepository({ repo, db, workers: 0 });
    expect(db.prepare('SELECT DISTINCT mtime_ms FROM files').pluck().all()).toEqual([-1]);
    const hourAgo = new Date(Math.floor(Date.now() / 1000 - 3600) * 1000);
    for (const f of ['a.py', 'b.py']) fs.utimesSync(path.join(repo, f), hourAgo, hourAgo);
    // Read again (the recorded time was unknown), found unchanged, their times recorded.
    expect(await indexRepository({ repo, db, workers: 0 })).toMatchObject({ parsed: 0, unchanged: 2 });
    expect(db.prepare('SELECT DISTINCT mtime_ms FROM files').pluck().all()).toEqual([Math.trunc(hourAgo.getTime())]);
    // Same size, same time: not read, as git trusts its index (a same-size edit that restores the time goes unseen).
    fs.writeFileSync(path.join(repo, 'a.py'), 'def uno():\n    return 1\n');
    fs.utimesSync(path.join(repo, 'a.py'), hourAgo, hourAgo);
    expect(await indexRepository({ repo, db, workers: 0 })).toMatchObject({ parsed: 0, unchanged: 2 });
    expect(fileText(db, 'a.py')).toContain('def one');
    // Any new time and the file is read.
    fs.utimesSync(path.join(repo, 'a.py'), new Date(), new Date());
    expect(await indexRepository({ repo, db, workers: 0 })).toMatchObject({ parsed: 1, unchanged: 1 });
    expect(fileText(db, 'a.py')).toContain('def uno');
    db.close();
  });
});
