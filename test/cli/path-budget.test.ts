// `--path FILE` leaves the file's own objects out (every retriever), and a budget too small for anything says
// what did not fit and exits 2: the real CLI over a real index of the mixed fixture, in-process.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createQueryEngine } from '../../daemon/queries.ts';
import { parseAllocateOptions } from '../../allocator/options.ts';
import { allot } from '../helpers/cli.ts';
import { indexedFixture } from '../helpers/repo.ts';

const fixture = indexedFixture('mixed');

const blocksOf = (stdout: string) => (JSON.parse(stdout) as { blocks: { path: string; object: string }[] }).blocks;

describe('--path FILE', () => {
  // The query is what cart.py itself says: without the exclusion its own objects rank first.
  const query = 'Cart total subtotal add_item discount_percent';

  it('leaves the file\'s own objects out, whatever the retriever', () => {
    const engine = createQueryEngine(fixture.db, fixture.repo);
    return Promise.all(
      (['bm25', 'hybrid', 'structural'] as const).map(async (retriever) => {
        const without = await engine.context(query, parseAllocateOptions({ budget: 2048 }), { retriever });
        const withPath = await engine.context(query, parseAllocateOptions({ budget: 2048 }), { retriever, path: 'shop/cart.py' });
        if (retriever === 'bm25') expect(without.blocks.filter((b) => b.path === 'shop/cart.py').length, retriever).toBeGreaterThan(0);
        expect(withPath.blocks.filter((b) => b.path === 'shop/cart.py'), retriever).toEqual([]);
        // (structural reads the query as code: these words name nothing outside cart.py)
        if (retriever !== 'structural') expect(withPath.blocks.length, retriever).toBeGreaterThan(0);
        const hits = await engine.search(query, 20, { retriever, path: 'shop/cart.py' });
        expect(hits.filter((h) => h.fiber === 'shop/cart.py'), retriever).toEqual([]);
      }),
    );
  });

  it('takes an absolute path inside the repository, and refuses one outside it or a file that does not exist', () => {
    const abs = allot(['context', query, '--path', path.join(fixture.repo, 'shop/cart.py'), '--retriever', 'bm25', '--json', '--no-daemon'], { cwd: fixture.repo });
    expect(abs.status, abs.stderr).toBe(0);
    expect(blocksOf(abs.stdout).map((b) => b.path)).not.toContain('shop/cart.py');
    const outside = allot(['search', 'cart', '--path', '/etc/hostname', '--no-daemon'], { cwd: fixture.repo });
    expect(outside.status).toBe(2);
    expect(outside.stderr).toMatch(/^allot: --path \/etc\/hostname is outside the repository /);
    const missing = allot(['search', 'cart', '--path', 'shop/nope.py', '--no-daemon'], { cwd: fixture.repo });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/^allot: path: shop\/nope\.py is not a file of the repository .*\n$/);
  });
});

describe('tiny budgets', () => {
  it('a budget too small for anything says what did not fit, and exits 2', () => {
    const r = allot(['context', 'apply discount percent', '--budget', '10', '--no-daemon'], { cwd: fixture.repo });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/allot: nothing fit the budget of 10 tokens: \d+ object\(s\) matched; the first, apply_discount \(shop\/pricing\.py:6-10\), was allotted \d+ tokens but its descriptor line alone needs \d+: give a larger budget/);
    // JSON still prints the allocation, with the warning, and exits 2 too.
    const json = allot(['context', 'apply discount percent', '--budget', '10', '--json', '--no-daemon'], { cwd: fixture.repo });
    expect(json.status).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ blocks: [], warnings: [expect.stringMatching(/^nothing fit the budget of 10 tokens/)] });
  });

  it('names the objects a small budget left out, and keeps what fit', async () => {
    const engine = createQueryEngine(fixture.db, fixture.repo);
    const a = await engine.context('apply discount percent cart total tax', parseAllocateOptions({ budget: 90 }), { retriever: 'bm25' });
    expect(a.blocks.length).toBeGreaterThan(0);
    expect(a.warnings).toEqual([expect.stringMatching(/^\d+ of \d+ allotted object\(s\) did not fit the budget of 90 tokens: \w/)]);
    const r = allot(['context', 'apply discount percent cart total tax', '--budget', '90', '--retriever', 'bm25', '--no-daemon'], { cwd: fixture.repo });
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/allot: \d+ of \d+ allotted object\(s\) did not fit the budget of 90 tokens/);
    // A budget that fits everything has no warning.
    expect((await engine.context('apply discount percent', parseAllocateOptions({ budget: 8000 }), { retriever: 'bm25' })).warnings).toBeUndefined();
  });
});
