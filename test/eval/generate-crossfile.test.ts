import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { crossfileCandidates, generateCrossfileTasks } from '../../client/eval/generate-crossfile.ts';
import { indexRepository } from '../../indexer/index-repository.ts';
import { openStore, type DB } from '../../indexer/store/open.ts';
import { copyFixture, tempDir, writeTree } from '../helpers/repo.ts';

const cleanup: string[] = [];
afterAll(() => cleanup.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

async function indexed(repo: string): Promise<DB> {
  const file = path.join(repo, '.allot', 'index.db');
  await indexRepository({ repo, db: file, workers: 0 });
  return openStore(file);
}

async function fixture(name: string): Promise<{ repo: string; db: DB; lines: (file: string, ...ranges: [number, number][]) => string }> {
  const repo = copyFixture(name);
  cleanup.push(repo);
  const db = await indexed(repo);
  const lines = (file: string, ...ranges: [number, number][]) => {
    const all = fs.readFileSync(path.join(repo, file), 'utf8').split('\n');
    return ranges.flatMap(([a, b]) => all.slice(a - 1, b)).join('\n');
  };
  return { repo, db, lines };
}

describe('cross-file tasks from the index', () => {
  it('Python: first uses of imported names, gold spans from the objects', async () => {
    const { db, lines } = await fixture('python');
    expect(crossfileCandidates(db, 'py')).toEqual([
      {
        id: 'py:tests/test_accounts.py:6', repo: 'py', path: 'tests/test_accounts.py', line: 6,
        query: lines('tests/test_accounts.py', [1, 5]),
        gold: { path: 'ledger/accounts.py', name: 'Account', startLine: 7, endLine: 21 },
      },
      {
        id: 'py:tests/test_accounts.py:7', repo: 'py', path: 'tests/test_accounts.py', line: 7,
        query: lines('tests/test_accounts.py', [1, 6]),
        gold: { path: 'ledger/accounts.py', name: 'quantize', startLine: 25, endLine: 27 },
      },
    ]);
    db.close();
  });

  it('TypeScript: aliases, one task per line, imports kept before the 30-line window', async () => {
    const { db, lines } = await fixture('typescript');
    expect(crossfileCandidates(db, 'ts')).toEqual([
      {
        // `DEFAULT_RETRIES as RETRIES`: the alias is what the file uses
        id: 'ts:src/queue.ts:50', repo: 'ts', path: 'src/queue.ts', line: 50,
        query: lines('src/queue.ts', [1, 3], [20, 49]),
        gold: { path: 'src/retry.ts', name: 'DEFAULT_RETRIES', startLine: 1, endLine: 2 },
      },
      {
        // `await sleep(backoff(n))`: both first used here; the leftmost name makes the task
        id: 'ts:src/queue.ts:61', repo: 'ts', path: 'src/queue.ts', line: 61,
        query: lines('src/queue.ts', [1, 3], [31, 60]),
        gold: { path: 'src/retry.ts', name: 'sleep', startLine: 19, endLine: 19 },
      },
      {
        id: 'ts:tests/queue.spec.ts:23', repo: 'ts', path: 'tests/queue.spec.ts', line: 23,
        query: lines('tests/queue.spec.ts', [1, 22]),
        gold: { path: 'src/retry.ts', name: 'backoff', startLine: 7, endLine: 15 },
      },
    ]);
    db.close();
  });

  it('Java: imported classes; external and static imports make no task', async () => {
    const { db, lines } = await fixture('java');
    expect(crossfileCandidates(db, 'java')).toEqual([
      {
        id: 'java:src/main/java/com/acme/inventory/Inventory.java:34', repo: 'java',
        path: 'src/main/java/com/acme/inventory/Inventory.java', line: 34,
        query: lines('src/main/java/com/acme/inventory/Inventory.java', [3, 33]),
        gold: { path: 'src/main/java/com/acme/inventory/util/Strings.java', name: 'Strings', startLine: 3, endLine: 17 },
      },
    ]);
    db.close();
  });

  it('skips comments, strings, member access, keyword arguments, object keys, re-exports, modules and same-file targets', async () => {
    const { db, lines } = await fixture('eval-crossfile');
    const tasks = crossfileCandidates(db, 'evc');
    expect(tasks.map((t) => [t.id, t.gold.name, t.gold.startLine, t.gold.endLine])).toEqual([
      ['evc:pkg/render.py:18', 'midpoint', 18, 20],
      ['evc:pkg/render.py:19', 'Point', 7, 15],
      ['evc:pkg/render.py:23', 'ORIGIN', 4, 4],
      ['evc:web/page.ts:13', 'toPoints', 3, 6],
      ['evc:web/page.ts:14', 'Ruler', 8, 10],
    ]);
    expect(tasks.map((t) => t.query)).toEqual([
      lines('pkg/render.py', [1, 17]),
      lines('pkg/render.py', [1, 18]),
      lines('pkg/render.py', [1, 22]),
      lines('web/page.ts', [1, 12]),
      lines('web/page.ts', [1, 13]),
    ]);
    expect(tasks.every((t) => t.gold.path !== t.path)).toBe(true);
    db.close();
  });

  it('keeps only the first 15 lines of a long definition and crops the query to 30 lines plus the imports', async () => {
    const repo = tempDir('allot-evgen-');
    cleanup.push(repo);
    const filler = Array.from({ length: 40 }, (_, i) => `x${i} = ${i}`);
    const body = Array.from({ length: 30 }, (_, i) => `    total += ${i}`);
    writeTree(repo, {
      'lib/long.py': ['def long_function(n):', '    total = 0', ...body, '    return total', ''].join('\n'),
      'app/main.py': ['import os', 'from lib.long import long_function', '', ...filler, 'y = long_function(3)', ''].join('\n'),
    });
    const db = await indexed(repo);
    const text = fs.readFileSync(path.join(repo, 'app/main.py'), 'utf8').split('\n');
    expect(crossfileCandidates(db, '')).toEqual([{
      id: 'app/main.py:44', repo: '', path: 'app/main.py', line: 44,
      query: [...text.slice(0, 2), ...text.slice(13, 43)].join('\n'),
      gold: { path: 'lib/long.py', name: 'long_function', startLine: 1, endLine: 15 },
    }]);
    db.close();
  });

  it('samples deterministically for a seed', async () => {
    const { db } = await fixture('eval-crossfile');
    const a = generateCrossfileTasks(db, { repo: 'r', max: 3, seed: 1 });
    expect(a).toHaveLength(3);
    expect(generateCrossfileTasks(db, { repo: 'r', max: 3, seed: 1 })).toEqual(a);
    const ids = a.map((t) => t.id);
    expect([...ids].sort((x, y) => (x < y ? -1 : 1))).toEqual(ids);
    const seeds = new Set(Array.from({ length: 8 }, (_, s) => generateCrossfileTasks(db, { repo: 'r', max: 3, seed: s }).map((t) => t.id).join()));
    expect(seeds.size).toBeGreaterThan(1);
    expect(generateCrossfileTasks(db, { repo: 'r', max: 50 })).toHaveLength(5);
    db.close();
  });
});
