import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allot } from '../helpers/cli.ts';
import { copyFixture } from '../helpers/repo.ts';

let repo: string;
beforeAll(() => {
  repo = copyFixture('mixed');
});
afterAll(() => fs.rmSync(repo, { recursive: true, force: true }));

describe('allot index and allot search (real process)', () => {
  it('indexes a repository and prints the summary', () => {
    const r = allot(['index', repo]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/files\s+8 \(python 4, text 2, typescript 2\); parsed 8, restored 0, unchanged 0, removed 0/);
    expect(r.stdout).toMatch(/objects\s+\d+/);
    expect(r.stdout).toMatch(/references\s+\d+ \(\d+ resolved\)/);
    // not a TTY: plain progress lines on stderr
    expect(r.stderr).toMatch(/indexing 8\/8 files/);
    expect(fs.existsSync(path.join(repo, '.allot/index.db'))).toBe(true);
  });

  it('searches from inside the repository, as text and as JSON', () => {
    const text = allot(['search', 'apply discount'], { cwd: path.join(repo, 'shop') });
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/shop\/pricing\.py:6-\d+ +apply_discount +\[(signature|body|docstring)\]/);
    const json = allot(['search', 'formatPrice', '--json', '--k', '3', '--repo', repo]);
    const hits = JSON.parse(json.stdout);
    expect(hits).toHaveLength(3);
    expect(hits[0]).toMatchObject({ fiber: 'web/format.ts', object: 'formatPrice', kind: 'function' });
    expect(Object.keys(hits[0])).toEqual(expect.arrayContaining(['path', 'object', 'kind', 'view', 'startLine', 'endLine', 'score']));
  });

  it('honours --db and ALLOT_DB', () => {
    const db = path.join(repo, 'elsewhere.db');
    expect(allot(['index', repo, '--db', db]).status).toBe(0);
    expect(fs.existsSync(db)).toBe(true);
    const r = allot(['search', 'Cart', '--json', '--repo', repo], { env: { ALLOT_DB: db } });
    expect(JSON.parse(r.stdout).length).toBeGreaterThan(0);
  });

  it('gives clear errors with exit code 2', () => {
    const bad = allot(['search', 'x', '--k', '0', '--repo', repo]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--k must be a positive number/);
    const foreign = path.join(repo, 'foreign.db');
    fs.writeFileSync(foreign, 'this is not a database, just text that must survive'.repeat(100));
    const r = allot(['index', repo, '--db', foreign]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/not an allot index/);
    expect(fs.readFileSync(foreign, 'utf8')).toMatch(/^this is not a database/);
    const missing = allot(['search', 'x', '--db', path.join(repo, 'none.db'), '--repo', repo]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/run `allot index` first/);
  });
});
