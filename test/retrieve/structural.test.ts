import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildContext } from '../../allocator/context.ts';
import { indexRepository } from '../../indexer/index-repository.ts';
import { bm25Retriever } from '../../indexer/retrieve/bm25.ts';
import { parseFrames } from '../../indexer/retrieve/frames.ts';
import { buildGraph, personalizedPageRank } from '../../indexer/retrieve/graph.ts';
import { loadQueryLanguages, readQuery } from '../../indexer/retrieve/query-reading.ts';
import type { LoadedLanguage } from '../../indexer/languages/registry.ts';
import type { CodeLanguage } from '../../indexer/types.ts';
import type { Retriever } from '../../indexer/retrieve/retriever.ts';
import { hybridOf, retrieverFor } from '../../indexer/retrieve/select.ts';
import { storeObjectSource } from '../../indexer/store/object-source.ts';
import { openStore, type DB } from '../../indexer/store/open.ts';
import { indexInPlace, tempDir, writeTree } from '../helpers/repo.ts';

describe('stack-trace frames', () => {
  it('reads Python, V8, Java, Go and Rust frames', () => {
    const python = `Traceback (most recent call last):
  File "/home/u/shop/cart.py", line 19, in total
    return with_tax(apply_discount(self.subtotal(), discount_percent))
  File "/home/u/shop/pricing.py", line 9, in apply_discount
    raise ValueError("percent out of range")
ValueError: percent out of range`;
    expect(parseFrames(python)).toEqual([
      { path: '/home/u/shop/cart.py', line: 19, name: 'total' },
      { path: '/home/u/shop/pricing.py', line: 9, name: 'apply_discount' },
    ]);
    const v8 = `TypeError: Cannot read properties of undefined (reading 'price')
    at ReceiptRenderer.render (/app/web/api.ts:12:45)
    at Array.map (<anonymous>)
    at file:///app/web/format.js:4:10`;
    expect(parseFrames(v8)).toEqual([
      { path: '/app/web/api.ts', line: 12, name: 'render' },
      { path: '/app/web/format.js', line: 4, name: null },
    ]);
    const java = `java.lang.IllegalStateException: empty
\tat com.acme.store.Inventory.remove(Inventory.java:42)
\tat com.acme.Main.main(Main.java:7)`;
    expect(parseFrames(java)).toEqual([
      { path: 'com/acme/store/Inventory.java', line: 42, name: 'remove' },
      { path: 'com/acme/Main.java', line: 7, name: 'main' },
    ]);
    expect(parseFrames('goroutine 1 [running]:\nmain.main()\n\t/src/kv/store/memory.go:42 +0x1d')).toEqual([{ path: '/src/kv/store/memory.go', line: 42, name: null }]);
    expect(parseFrames("thread 'main' panicked at src/shapes.rs:10:5:")).toEqual([{ path: 'src/shapes.rs', line: 10, name: null }]);
  });
});

describe('query reading', () => {
  it('parses code queries for imports, aliases and calls, and tells used from unused imports', async () => {
    const g = await loadQueryLanguages();
    const r = readQuery('from shop.pricing import (apply_discount,\n    with_tax as gross)\nimport os.path\n\ntotal = gross(price)\n', g);
    expect(r.language).toBe('python');
    expect(r.imports.map((i) => [i.module, i.name, i.alias])).toEqual([
      ['shop.pricing', 'apply_discount', null],
      ['shop.pricing', 'with_tax', 'gross'],
      ['os.path', 'os.path', null],
    ]);
    expect(r.calls.map((c) => c.name)).toEqual(['gross']);
    expect(r.used.has('gross')).toBe(true);
    expect(r.used.has('apply_discount')).toBe(false);
    const ts = readQuery("import { formatPrice as fp } from './format';\nconst x = fp(1);", g);
    expect(ts.language).toBe('typescript');
    expect(ts.imports[0]).toMatchObject({ module: './format', name: 'formatPrice', alias: 'fp' });
    expect(readQuery('why does the cart total ignore discounts?', g).language).toBeNull();
  });

  it('reads a query once per text and path, and reads it again once the grammar it lacked has loaded', async () => {
    const g = await loadQueryLanguages();
    const text = 'from shop.pricing import apply_discount\n\ntotal = apply_discount(price)\n';
    const first = readQuery(text, g);
    expect(readQuery(text, g)).toBe(first); // the same reading, not parsed again
    expect(readQuery(text, g, 'shop/cart.py')).not.toBe(first); // another path reads relative imports otherwise
    // Without the grammar the query is only lexed, and that reading is not kept: once the grammar is in, it parses.
    const later = new Map<CodeLanguage, LoadedLanguage>();
    expect(readQuery(text, later).imports).toEqual([]);
    later.set('python', g.get('python')!);
    expect(readQuery(text, later).imports.map((i) => i.name)).toEqual(['apply_discount']);
  });
});

describe('personalized PageRank', () => {
  const ids = ['a', 'b', 'c', 'd', 'e'];
  const edges: [string, string][] = [['a', 'b'], ['b', 'c'], ['c', 'a'], ['c', 'd'], ['d', 'e']];
  /** Plain power iteration of PPR on the same graph: the reference the local push must approach. */
  function powerIteration(seeds: Map<number, number>, alpha = 0.15): number[] {
    const g = buildGraph(ids, edges);
    const n = ids.length;
    const s = Array.from({ length: n }, (_, i) => seeds.get(i) ?? 0);
    let p = [...s];
    for (let it = 0; it < 500; it++) {
      const next = s.map((x) => alpha * x);
      for (let u = 0; u < n; u++) {
        const d = g.adjacency[u].length;
        for (const v of g.adjacency[u]) next[v] += ((1 - alpha) * p[u]) / d;
      }
      p = next;
    }
    return p;
  }
  it('approaches power iteration, whatever the order edges were given in', () => {
    const seeds = new Map([[0, 1]]);
    const exact = powerIteration(seeds);
    for (const order of [edges, [...edges].reverse()]) {
      const ppr = personalizedPageRank(buildGraph(ids, order), seeds, { epsilon: 1e-7 });
      ids.forEach((_, i) => expect(ppr.get(i) ?? 0).toBeCloseTo(exact[i], 4));
    }
  });
});

describe('the default fusion', () => {
  it('asks BM25 for a quarter of the depth on code queries (structure supplies the heads), the full depth on prose', () => {
    const asked: Record<string, number[]> = { structural: [], bm25: [] };
    const scripted = (name: 'structural' | 'bm25'): Retriever => ({ name, retrieve: (_q, k) => (asked[name].push(k), []) });
    const hybrid = hybridOf(scripted('structural'), scripted('bm25'), null);
    hybrid.retrieve('from shop.pricing import apply_discount\n\ntotal = ', 64);
    hybrid.retrieve('where are discounts applied', 64);
    hybridOf(scripted('structural'), scripted('bm25'), null, { codeFile: 'web/app.py' }).retrieve('where are discounts applied', 64);
    hybrid.retrieve('import x', 20);
    expect(asked).toEqual({ structural: [64, 64, 64, 20], bm25: [16, 64, 16, 10] });
  });
});

describe('the structural retriever over a real index', () => {
  let repo: string;
  let db: DB;
  const callers: Record<string, string> = {};
  for (let i = 0; i < 8; i++) {
    callers[`shop/report${i}.py`] = `from shop.pricing import apply_discount\n\n\ndef discounted_total_${i}(amount, percent):\n    """Apply the discount of percent to the amount for report ${i}."""\n    return apply_discount(amount, percent) + apply_discount(amount, percent / 2)\n`;
  }
  beforeAll(async () => {
    repo = tempDir();
    writeTree(repo, {
      'shop/__init__.py': '',
      'shop/pricing.py': 'def apply_discount(cost, rate):\n    return cost * (100 - rate) / 100\n\n\ndef with_tax(cost):\n    return cost * 1.2\n',
      ...callers,
      'web/app.py': 'from shop.pricing import with_tax\n',
    });
    db = await indexInPlace(repo);
  });
  afterAll(() => {
    db.close();
    fs.rmSync(repo, { recursive: true, force: true });
  });

  const query = 'from shop.pricing import apply_discount\n\n\ndef discounted_total(amount, percent):\n    """Apply the discount of percent to the amount."""\n    return ';

  it('finds the imported definition that BM25 alone leaves out of the context, and says why', async () => {
    const objects = (name: 'bm25' | 'structural' | 'hybrid', noFill = false) =>
      retrieverFor(db, name, { path: 'web/new_report.py' }).then((r) => buildContext(query, r, storeObjectSource(db), { budget: 2048, noFill }));
    // BM25's K slots leave it out (its fill may still reach it, ranked far down).
    const bm25 = await objects('bm25', true);
    expect(bm25.blocks.map((b) => b.path)).not.toContain('shop/pricing.py');
    for (const name of ['structural', 'hybrid'] as const) {
      const a = await objects(name);
      expect(a.blocks[0]).toMatchObject({ path: 'shop/pricing.py', object: 'apply_discount' });
    }
    const [first] = (await retrieverFor(db, 'structural')).retrieve(query, 5);
    expect(first.reason).toBe('structural: imported by the query as apply_discount');
  });

  it('marks what a code query names as found through structure (rendered as heads), not what prose or a frame points at', async () => {
    const structural = await retrieverFor(db, 'structural');
    expect(structural.retrieve(query, 5)[0]).toMatchObject({ objectName: 'apply_discount', viaStructure: true });
    const hybrid = (await retrieverFor(db, 'hybrid')).retrieve(query, 20).filter((c) => c.objectName === 'apply_discount');
    expect(hybrid.length).toBeGreaterThan(0);
    for (const c of hybrid) expect(c.viaStructure).toBe(true);
    const prose = structural.retrieve('why does apply_discount round the cost badly', 5);
    expect(prose.map((c) => c.objectName)).toContain('apply_discount');
    for (const c of prose) expect(c.viaStructure).toBeUndefined();
    const trace = 'Traceback (most recent call last):\n  File "/srv/app/shop/pricing.py", line 2, in apply_discount\nZeroDivisionError';
    const [framed] = structural.retrieve(trace, 5);
    expect(framed).toMatchObject({ objectName: 'apply_discount', reason: 'structural: named in a traceback frame (shop/pricing.py:2)' });
    expect(framed.viaStructure).toBeUndefined();
  });

  it('follows changes to the index: after an edit it answers as a fresh index of the same tree does', async () => {
    const structural = await retrieverFor(db, 'structural');
    expect(structural.retrieve(query, 3)[0].objectName).toBe('apply_discount');
    fs.writeFileSync(path.join(repo, 'shop/pricing.py'), 'from shop.rates import apply_discount\n');
    writeTree(repo, { 'shop/rates.py': '# moved here\ndef apply_discount(cost, rate):\n    return cost - rate\n' });
    await indexRepository({ repo, db, workers: 0 });
    const after = structural.retrieve(query, 10).map((c) => [c.path, c.objectName, c.reason]);
    expect(after[0]).toEqual(['shop/rates.py', 'apply_discount', 'structural: imported by the query as apply_discount']);
    const fresh = openStore(path.join(repo, '.allot/fresh.db'));
    await indexRepository({ repo, db: fresh, workers: 0 });
    expect((await retrieverFor(fresh, 'structural')).retrieve(query, 10).map((c) => [c.path, c.objectName, c.reason])).toEqual(after);
    fresh.close();
  });

  it('points at the object a traceback frame names', async () => {
    const trace = 'Traceback (most recent call last):\n  File "/srv/app/shop/rates.py", line 3, in apply_discount\nZeroDivisionError';
    const [first] = (await retrieverFor(db, 'structural')).retrieve(trace, 5);
    expect(first.reason).toBe('structural: named in a traceback frame (shop/rates.py:3)');
    expect(bm25Retriever(db).retrieve(trace, 5).length).toBeGreaterThan(0);
  });
});

describe('names the file already used before the cursor', () => {
  let repo: string;
  let db: DB;
  // The query holds the imports and the last lines before the cursor; `with_tax` was used further up, out of it.
  const file = [
    'from shop.pricing import apply_discount, with_tax', // 1
    '', // 2
    'def gross(amount):', // 3
    '    return with_tax(amount)', // 4
    '', // 5
    '', // 6
    'def net(x, y):', // 7
    '    """The net figure."""', // 8
    '    return apply_discount(x, y)', // 9
  ].join('\n');
  const query = 'from shop.pricing import apply_discount, with_tax\n\ndef net(x, y):\n    """The net figure."""\n    return ';
  beforeAll(async () => {
    repo = tempDir();
    writeTree(repo, {
      'shop/__init__.py': '',
      'shop/pricing.py': 'def apply_discount(cost, rate):\n    return cost * (100 - rate) / 100\n\n\ndef with_tax(cost):\n    return cost * 1.2\n',
      'web/checkout.py': `${file}\n`,
      // Above the cursor only prose names `with_tax`; the module `pricing` is called through there.
      'web/notes.py': ['from shop.pricing import apply_discount, with_tax', '# with_tax is for later', 'NOTE = "with_tax(x)"', '', 'def net(x, y):', '    """The net figure."""', '    return apply_discount(x, y)'].join('\n') + '\n',
      'web/report.py': ['from shop import pricing', '', 'def gross(cost, rate):', '    return pricing.with_tax(cost, rate)', '', 'def net(x, y):', '    """The net figure."""', '    return x'].join('\n') + '\n',
    });
    db = await indexInPlace(repo);
  });
  afterAll(() => {
    db.close();
    fs.rmSync(repo, { recursive: true, force: true });
  });
  const scores = async (line?: number) => {
    const r = await retrieverFor(db, 'structural', { path: 'web/checkout.py', ...(line ? { line } : {}) });
    return Object.fromEntries(r.retrieve(query, 10).map((c) => [c.objectName, c.score]));
  };

  it('ranks an import the lines above the query used below one not used yet', async () => {
    const before = await scores(9);
    expect(before.apply_discount).toBeGreaterThan(before.with_tax);
  });

  it('does not count a name its strings or comments mention as used, in the query\'s lines too once the file is read', async () => {
    const r = await retrieverFor(db, 'structural', { path: 'web/notes.py', line: 7 });
    const got = Object.fromEntries(r.retrieve(query, 10).map((c) => [c.objectName, c.score]));
    // Both pending (neither is used by code): the prior orders them, the first imported first, each above a used import.
    expect(got.apply_discount).toBeGreaterThan(got.with_tax);
    expect(got.with_tax).toBeGreaterThan((await scores(9)).with_tax);
    // The query holds the comment and the string: read alone, they count as uses; with the cursor, the file's code decides.
    const noted = 'from shop.pricing import apply_discount, with_tax\n# with_tax is for later\nNOTE = "with_tax(x)"\n\ndef net(x, y):\n    """The net figure."""\n    return ';
    const scored = async (line?: number) => Object.fromEntries((await retrieverFor(db, 'structural', { path: 'web/notes.py', ...(line ? { line } : {}) })).retrieve(noted, 10).map((c) => [c.objectName, c.score]));
    const blind = await scored();
    expect(blind.with_tax).toBeLessThan(blind.apply_discount);
    const read = await scored(7);
    // Pending instead of used (the comment's words lift it equally in both readings): one step up, and its prior.
    expect(read.with_tax - blind.with_tax).toBeGreaterThanOrEqual(1);
    expect(read.with_tax - blind.with_tax).toBeLessThanOrEqual(2);
    // Pending in both readings: only its prior moves with what else is pending (a used import is a whole step below).
    expect(Math.abs(read.apply_discount - blind.apply_discount)).toBeLessThan(1);
  });

  it('keeps a module the lines above called through as a pending receiver: its members stay candidates', async () => {
    const q = 'from shop import pricing\n\ndef net(x, y):\n    """The net figure."""\n    return ';
    const members = async (line?: number) => {
      const r = await retrieverFor(db, 'structural', { path: 'web/report.py', ...(line ? { line } : {}) });
      return r.retrieve(q, 10).filter((c) => c.reason.includes('member of')).map((c) => [c.objectName, c.score]);
    };
    const blind = await members();
    expect(blind.length).toBeGreaterThan(0);
    expect(await members(8)).toEqual(blind);
  });

  it('reads only the lines before the cursor: a use at or after it is the future, and no cursor reads none', async () => {
    const blind = await scores();
    // Both pending: above the name once used (below), ordered by their prior.
    expect(Math.min(blind.with_tax, blind.apply_discount)).toBeGreaterThan((await scores(5)).with_tax);
    // At line 4 the use of `with_tax` is the cursor's own line: not written yet.
    expect(await scores(4)).toEqual(blind);
    expect((await scores(5)).with_tax).toBeLessThan(blind.with_tax);
  });
});

describe('used identifiers', () => {
  it('counts the names code uses, not its imports or the attributes it reads through another name', async () => {
    const { usedIdentifiers } = await import('../../indexer/retrieve/query-reading.ts');
    const used = usedIdentifiers('from geo import rotate, scale\nimport os.path\nq = p.rotate(1)\nr = scale (q) . norm');
    expect(used.has('rotate')).toBe(false);
    expect(used.has('norm')).toBe(false);
    expect(used.has('scale')).toBe(true);
    expect(used.has('p')).toBe(true);
  });

  it('blanks strings and comments, keeping line breaks, by the language\'s comment syntax', async () => {
    const { withoutProse } = await import('../../indexer/retrieve/query-reading.ts');
    const py = 'x = 1  # Pow\ndef f():\n    """Doc.\n\n    >>> oo\n    """\n    s = "Abs" + \'Tanh\'\n    return raises(y)\n';
    const out = withoutProse(py, 'python');
    expect(out.split('\n')).toHaveLength(py.split('\n').length);
    for (const gone of ['Pow', 'oo', 'Abs', 'Tanh', 'Doc']) expect(out).not.toContain(gone);
    expect(out).toContain('return raises(y)');
    const ts = withoutProse('const a = `Pow ${b}`; // Abs\n/* Tanh\n */ this.#priv = c("oo");\n', 'typescript');
    for (const gone of ['Pow', 'Abs', 'Tanh', 'oo']) expect(ts).not.toContain(gone);
    expect(ts).toContain('this.#priv = c(');
  });
  it('first uses give, at every line outside a string, the names the code above it uses', async () => {
    const { firstUses, usedIdentifiers, withoutProse } = await import('../../indexer/retrieve/query-reading.ts');
    const fixtures = path.join(import.meta.dirname, '../fixtures');
    const files = ['python/ledger/accounts.py', 'python/tests/test_accounts.py', 'mixed/shop/cart.py', 'mixed/shop/pricing.py'].map((f) => fs.readFileSync(path.join(fixtures, f), 'utf8'));
    files.push('from geo import (\n    rotate,\n    scale,\n)\n"""rotate\nscale"""\nq = p.rotate(1)\nr = scale(q)  # rotate\n');
    let checked = 0;
    for (const text of files) {
      const first = firstUses(text, 'python');
      const lines = text.split('\n');
      for (let line = 1; line <= lines.length; line++) {
        // Where the cut leaves no string or bracket open (a statement cut in two), the lines above read alone say the same.
        const above = lines.slice(0, line - 1).join('\n');
        const count = (re: RegExp) => (above.match(re) ?? []).length;
        if (count(/"""|'''/g) % 2 || count(/\(/g) !== count(/\)/g)) continue;
        const direct = [...usedIdentifiers(withoutProse(above, 'python'))].sort();
        expect([line, [...first].filter(([, at]) => at < line).map(([id]) => id).sort()]).toEqual([line, direct]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(50);
    expect(firstUses(files.at(-1)!, 'python').get('scale')).toBe(8);
    expect(firstUses(files.at(-1)!, 'python').has('rotate')).toBe(false);
  });
});
