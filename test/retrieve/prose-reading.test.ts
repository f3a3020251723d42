import { describe, expect, it } from 'vitest';
import { fileEvidence } from '../../indexer/retrieve/file-evidence.ts';
import { hybridRetriever } from '../../indexer/retrieve/fusion.ts';
import { asksIn, joinedForms, readProse, splitProse } from '../../indexer/retrieve/prose-reading.ts';
import type { Retriever } from '../../indexer/retrieve/retriever.ts';
import { hybridOf, queryKind } from '../../indexer/retrieve/select.ts';
import type { Candidate } from '../../indexer/types.ts';

// Queries the way people type them (prose, identifiers, mixed, code), with how each must be read.
const TABLE: { query: string; kind: 'prose' | 'names' | 'code'; shaped?: string[]; words?: string[]; joined?: string[]; tests?: boolean }[] = [
  { query: 'parse expr', kind: 'prose', words: ['parse', 'expr'], joined: ['parse_expr', 'parseExpr', 'ParseExpr'] },
  { query: 'how are route parameters parsed', kind: 'prose', words: ['route', 'parameters', 'parsed'], joined: ['route_parameters', 'parameters_parsed'] },
  { query: 'how does ripgrep detect binary files', kind: 'prose', words: ['ripgrep', 'detect', 'binary', 'files'], joined: ['detect_binary', 'detectBinary'] },
  { query: 'How are cookies signed?', kind: 'prose', words: ['cookies', 'signed'] },
  { query: 'how are dates formatted', kind: 'prose', words: ['dates', 'formatted'] },
  { query: 'walk directory in parallel', kind: 'prose', words: ['walk', 'directory', 'parallel'], joined: ['walk_directory'] },
  { query: 'middleware for CORS', kind: 'prose', words: ['middleware', 'CORS'] },
  { query: 'parseConfigFile', kind: 'names', shaped: ['parseConfigFile'] },
  { query: 'parse_expr', kind: 'names', shaped: ['parse_expr'] },
  { query: 'sympy.parsing.sympy_parser', kind: 'names', shaped: ['sympy.parsing.sympy_parser', 'sympy_parser'] },
  { query: 'HonoRequest param', kind: 'names', shaped: ['HonoRequest'], words: ['param'] },
  { query: 'why does `autodoc_typehints` ignore the Sphinx config', kind: 'prose', shaped: ['autodoc_typehints'], words: ['ignore', 'config'] },
  { query: 'Dataset.update causes chunked dask DataArray to evaluate its values eagerly', kind: 'prose', shaped: ['Dataset.update', 'DataArray'], words: ['chunked', 'eagerly'] },
  { query: 'how does parse_expr handle evaluate=False', kind: 'names', shaped: ['parse_expr', 'evaluate'], words: ['handle'] },
  { query: 'test_parse_expr fails on py3.12', kind: 'prose', shaped: ['test_parse_expr'], tests: true },
  { query: 'from shop.pricing import apply_discount\n\ntotal = apply_discount(', kind: 'code', shaped: ['apply_discount', 'shop', 'pricing'] },
  { query: 'def total(self):\n    return sum(x.price for x in self.items)', kind: 'code', shaped: ['total', 'price', 'items'] },
  {
    query: 'Language card is wrong when layout=compact\n\nThe top languages card cuts the last language off and the percentages do not add up when the compact layout is set:\n\n```js\nconst card = renderTopLanguages(langs, { layout: "compact" });\n```\nIt works with the normal layout.',
    kind: 'prose', shaped: ['renderTopLanguages'], words: ['card', 'wrong', 'percentages'],
  },
  {
    query: '# the cart total, with the discount applied once\ndef total(self):\n    return apply_discount(sum(x.price for x in self.items))',
    kind: 'code', shaped: ['apply_discount', 'price'],
  },
  {
    query: 'Discount applied twice\n\n```python\nfrom shop.cart import Cart\nfrom shop.pricing import apply_discount, Coupon\ncart = Cart([item_a, item_b])\ncart.add_coupon(Coupon(code=\"TEN\", percent=10))\nassert cart.total() == apply_discount(cart.subtotal(), 10)\n```\nWhen a coupon is added after the first item, the total applies the discount a second time.',
    // sentences about pasted code: a question, led by its words
    kind: 'prose', shaped: ['Cart', 'apply_discount'], words: ['coupon', 'second'],
  },
  {
    // a reproduction written as a test, and `for example`, ask for neither tests nor docs: what is asked is said in sentences
    query: 'Cart total is wrong after a refund\n\nFor example, with a refund of the only item the total is negative:\n\n```python\ndef test_refund():\n    cart = Cart([item])\n    cart.refund(item)\n    assert cart.total() == 0\n```\nThe total should never go below zero.',
    kind: 'prose', shaped: ['test_refund'], words: ['refund', 'negative'],
  },
  {
    // the lines at a cursor sent without their path, commented at length: not marked as pasted, so not a question
    query: 'from shop.pricing import apply_discount\n\ndef total(self):\n    # the discount is applied once per cart, after every coupon has been added and checked\n    subtotal = sum(x.price for x in self.items)\n    return apply_discount(subtotal, self.percent)',
    kind: 'names', shaped: ['apply_discount', 'price'],
  },
  { query: 'the refund tests fail since the cart rewrite', kind: 'prose', words: ['refund', 'cart'], tests: true },
  { query: 'Traceback (most recent call last):\n  File "shop/cart.py", line 19, in total\n    return apply_discount(self.subtotal(), pct)\nValueError: percent out of range', kind: 'names', shaped: ['apply_discount', 'subtotal'] },
];

describe('reading a query as words', () => {
  for (const row of TABLE) {
    it(`${JSON.stringify(row.query.slice(0, 60))}: ${row.kind}`, () => {
      const r = readProse(row.query);
      expect(queryKind(row.query)).toBe(row.kind);
      for (const s of row.shaped ?? []) expect([...r.shaped]).toContain(s);
      const words = r.terms.filter((t) => t.shape !== 'identifier').map((t) => t.text);
      for (const w of row.words ?? []) expect(words).toContain(w);
      for (const s of row.shaped ?? []) expect(words).not.toContain(s);
      for (const j of row.joined ?? []) expect(r.joined).toContain(j);
      expect(r.asks.tests).toBe(row.tests ?? false);
    });
  }

  it('reads what a query asks for from its sentences: not from a URL, pasted code or `for example`', () => {
    expect(readProse('Redirects drop the body, for example on a 307').asks.docs).toBe(false);
    expect(readProse('Redirects drop the body (see https://example.org/docs/redirects)').asks.docs).toBe(false);
    expect(readProse('the redirect example in the docs is out of date').asks.docs).toBe(true);
    expect(readProse('Redirects drop the body of a POST request when the server answers with a temporary redirect status\n\n```python\nimport pytest\ndef test_post():\n    assert post(url).body\n```').asks.tests).toBe(false);
    expect(readProse('why does `test_post` fail on a redirect').asks.tests).toBe(true);
    // the lines at a cursor in a test file: no sentences about them, so they are what is asked about
    expect(readProse('def test_post(client):\n    assert post(url).body').asks.tests).toBe(true);
  });

  it('joins only adjacent plain words of one sentence, never across punctuation, stop words or identifiers', () => {
    expect(joinedForms('parse', 'Expr')).toEqual(['parse_expr', 'parseExpr', 'ParseExpr', 'PARSE_EXPR']);
    expect(readProse('parse, expr').joined).toEqual([]);
    expect(readProse('walk directory in parallel').pairs).toEqual([['walk', 'directory']]);
    expect(readProse('parse, expr').pairs).toEqual([]);
    expect(readProse('parse the expr').joined).toEqual([]);
    expect(readProse('it fails to parse. Expr is fine').joined).toEqual([]);
    expect(readProse('parse `expr` now').joined).toEqual([]);
  });

  it('tells a capitalised word inside a sentence (a name) from one opening it', () => {
    const r = readProse('Parsing fails when Dataset is empty');
    expect(r.terms).toEqual([
      { text: 'Parsing', shape: 'word' }, { text: 'fails', shape: 'word' }, { text: 'Dataset', shape: 'name' }, { text: 'empty', shape: 'word' },
    ]);
  });

  it('knows when a query asks for tests or documentation', () => {
    expect(readProse('which tests cover the router').asks).toEqual({ tests: true, docs: false });
    expect(readProse('see tests/test_router.py').asks.tests).toBe(true);
    expect(readProse('an example of a custom router in the docs').asks).toEqual({ tests: false, docs: true });
    expect(readProse('how is the router built').asks).toEqual({ tests: false, docs: false });
  });

  it('reads a test word that names the repository\'s own module as the product (pytest on pytest), other evidence still asking', () => {
    const product = (w: string) => w === 'pytest';
    expect(readProse('pytest --collect-only needs a one char shortcut command').asks.tests).toBe(true);
    expect(asksIn(readProse('pytest --collect-only needs a one char shortcut command'), product).tests).toBe(false);
    expect(asksIn(readProse('pytest --collect-only needs a one char shortcut command'), () => false).tests).toBe(true);
    expect(asksIn(readProse('Pytest crashes on a test with a docstring'), product).tests).toBe(true); // "test" still asks
    expect(asksIn(readProse('pytest fails on tests/test_collect.py'), product).tests).toBe(true); // so does a test path
    expect(asksIn(readProse('pytest --help lists the docs url'), product)).toEqual({ tests: false, docs: true });
  });
});

const cand = (objectId: string, extra: Partial<Candidate> = {}): Candidate => ({
  viewId: [...objectId].reduce((a, c) => a * 31 + c.charCodeAt(0), 7), objectId, fiber: `${objectId}.py`, path: `${objectId}.py`,
  objectName: objectId, objectKind: 'function', viewKind: 'signature', startLine: 1, endLine: 1, score: 1, reason: 'scripted', ...extra,
});
const scripted = (name: string, list: Candidate[]): Retriever => ({ name, retrieve: (_q, k) => list.slice(0, k) });
const order = (r: Retriever, q: string) => [...new Set(r.retrieve(q, 50).map((c) => c.objectId))];

describe('fusion on prose', () => {
  it('keeps BM25\'s best hit among the first three objects (as many as lists), whatever the other lists agree on', () => {
    const bm25 = scripted('bm25', ['lead', 'b', 'c', 'd', 'e'].map((id) => cand(id)));
    const structural = scripted('structural', ['b', 'c', 'd', 'x'].map((id) => cand(id)));
    const dense = scripted('dense', ['c', 'd', 'b', 'y'].map((id) => cand(id)));
    const prose = hybridOf(structural, bm25, dense);
    const got = order(prose, 'where are discounts applied to the cart');
    expect(got.indexOf('lead')).toBeLessThan(3);
    expect(got.indexOf('lead')).toBeGreaterThanOrEqual(0);
    // Plain reciprocal-rank fusion of the same lists (no leader) pushes it out of the first three.
    const plain = hybridRetriever([{ retriever: bm25, weight: 2 }, { retriever: structural, weight: 1 }, { retriever: dense, weight: 1 }]);
    expect(order(plain, 'q').indexOf('lead')).toBeGreaterThanOrEqual(3);
  });

  it('counts a plain word that happens to name an object little: it never floods the fused list', () => {
    const bm25 = scripted('bm25', ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((id) => cand(id)));
    const structural = scripted('structural', ['w1', 'w2', 'w3', 'w4', 'w5'].map((id) => cand(id, { weak: true })));
    const got = order(hybridOf(structural, bm25, null), 'how are route parameters parsed');
    expect(got.slice(0, 6)).toEqual(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
    // The same structural list found through identifiers leads the fusion of a names query.
    const strong = scripted('structural', ['w1', 'w2', 'w3', 'w4', 'w5'].map((id) => cand(id)));
    expect(order(hybridOf(strong, bm25, null), 'routeParams parseRoute').slice(0, 2)).toEqual(['w1', 'w2']);
  });
});

describe('tests, examples and docs found by structure or vectors', () => {
  const at = (id: string, fiber: string) => cand(id, { fiber, path: fiber });

  it('are left out of a question that does not ask for them (BM25 alone offers them); kept when it asks', () => {
    const bm25 = scripted('bm25', [at('h1', 'shop/cart.py'), at('h2', 'shop/pricing.py'), at('h3', 'shop/coupon.py'), at('t3', 'tests/test_coupon.py')]);
    const structural = scripted('structural', [at('t1', 'tests/test_cart.py'), at('t2', 'docs/conf.py'), at('s1', 'shop/total.py'), at('t3', 'tests/test_coupon.py')]);
    const dense = scripted('dense', [at('t1', 'tests/test_cart.py'), at('s1', 'shop/total.py'), at('t3', 'tests/test_coupon.py')]);
    const fused = hybridOf(structural, bm25, dense);
    const plain = order(fused, 'discount applied twice to the cart total');
    expect(plain).not.toContain('t1');
    expect(plain).not.toContain('t2');
    expect(plain).toContain('s1');
    // BM25's own test hit stays, ranked by BM25 alone: after every source object the other lists found.
    expect(plain.indexOf('t3')).toBeGreaterThan(plain.indexOf('s1'));
    // Asking for tests: the test object found by two lists outranks BM25's third hit.
    const asked = order(fused, 'which tests cover the discount applied to the cart total');
    expect(asked.indexOf('t1')).toBeLessThan(asked.indexOf('h3'));
  });

  it('are left out of names queries too', () => {
    const structural = scripted('structural', [at('t1', 'tests/test_grid.py'), at('grid', 'lib/grid.py'), at('t2', 'tests/test_map.py')]);
    const bm25 = scripted('bm25', [at('h1', 'lib/map.py')]);
    const got = order(hybridOf(structural, bm25, null), 'PairGrid errors with `hue`');
    expect(got).toEqual(['grid', 'h1']);
  });

  it('are what a word asks for only where it names no module of the repository (`asks`)', () => {
    const bm25 = scripted('bm25', [at('h1', 'src/_pytest/main.py')]);
    const structural = scripted('structural', [at('t1', 'testing/test_main.py'), at('s1', 'src/_pytest/config.py')]);
    const q = 'pytest --collect-only needs a one char shortcut command';
    // By its words alone, `pytest` asks for tests; on pytest's own repository it names the product.
    expect(order(hybridOf(structural, bm25, null), q)).toContain('t1');
    const product = hybridOf(structural, bm25, null, { asks: (query) => asksIn(readProse(query), (w) => w === 'pytest') });
    expect(order(product, q)).not.toContain('t1');
    expect(order(product, q)).toContain('s1');
  });
});

describe('relevance reported by fusion', () => {
  it('is each list\'s own score relative to its best, weighted by the list and counted little for a weak hit: 0..1, whatever the ranks', () => {
    const scored = (id: string, score: number, extra: Partial<Candidate> = {}) => cand(id, { score, ...extra });
    const bm25 = scripted('bm25', [scored('a', 10), scored('b', 9), scored('c', 1)]);
    const structural = scripted('structural', [scored('w', 4, { weak: true }), scored('b', 2)]);
    const dense = scripted('dense', [scored('d', 0.5), scored('a', 0.25)]);
    const list = hybridOf(structural, bm25, dense).retrieve('where are discounts applied to the cart', 50);
    const rel = new Map(list.map((c) => [c.objectId, c.relevance]));
    // weights: BM25 2, structural 1, dense 1 (a prose query)
    expect(rel.get('a')).toBeCloseTo((2 * 1 + 1 * 0.5) / 4, 10);
    expect(rel.get('b')).toBeCloseTo((2 * 0.9 + 1 * 0.5) / 4, 10);
    expect(rel.get('c')).toBeCloseTo((2 * 0.1) / 4, 10);
    expect(rel.get('w')).toBeCloseTo((1 * 0.25) / 4, 10);
    expect(rel.get('d')).toBeCloseTo(1 / 4, 10);
    // The same ranks with a BM25 list that falls steeply: the third object's relevance falls with it, its rank does not.
    const steep = scripted('bm25', [scored('a', 10), scored('b', 9), scored('c', 0.1)]);
    const c2 = hybridOf(structural, steep, dense).retrieve('where are discounts applied to the cart', 50).find((c) => c.objectId === 'c')!;
    expect(c2.relevance).toBeCloseTo((2 * 0.01) / 4, 10);
  });

  it('is reported for questions and names from every list, and for the lines at a cursor from structure alone', () => {
    const bm25 = scripted('bm25', [cand('a', { score: 3 })]);
    const structural = scripted('structural', [cand('b', { score: 2 }), cand('c', { score: 1 })]);
    expect(hybridOf(structural, bm25, null).retrieve('parseConfigFile', 10).every((c) => c.relevance !== undefined)).toBe(true);
    const code = new Map(hybridOf(structural, bm25, null, { codeFile: 'a.py' }).retrieve('x = parse(', 10).map((c) => [c.objectId, c.relevance]));
    // Structure's own scores relative to its best; what only BM25 found adds none (its scores move with every edit).
    expect(code.get('b')).toBeCloseTo(1, 10);
    expect(code.get('c')).toBeCloseTo(0.5, 10);
    expect(code.get('a')).toBe(0);
    // BM25's scores falling another way leave a code query's relevance as it was.
    const steep = scripted('bm25', [cand('a', { score: 300 }), cand('c', { score: 1 })]);
    const again = new Map(hybridOf(structural, steep, null, { codeFile: 'a.py' }).retrieve('x = parse(', 10).map((c) => [c.objectId, c.relevance]));
    expect(again.get('c')).toBeCloseTo(0.5, 10);
  });

  it('marks a question\'s candidates (prose or names), never the lines at a cursor\'s', () => {
    const bm25 = scripted('bm25', [cand('a', { score: 3 })]);
    const structural = scripted('structural', [cand('b', { score: 2 })]);
    const fused = hybridOf(structural, bm25, null);
    expect(fused.retrieve('where are discounts applied to the cart', 10).every((c) => c.question)).toBe(true);
    expect(fused.retrieve('parseConfigFile', 10).every((c) => c.question)).toBe(true);
    expect(hybridOf(structural, bm25, null, { codeFile: 'a.py' }).retrieve('x = parse(', 10).some((c) => c.question)).toBe(false);
  });
});

describe('file evidence', () => {
  it('is each file\'s share of the sum of its best three object scores', () => {
    const score = new Map([['a', 0.3], ['b', 0.2], ['c', 0.2], ['d', 0.1], ['e', 0.05]]);
    const fileOf = new Map([['a', 'x.py'], ['b', 'y.py'], ['c', 'y.py'], ['d', 'y.py'], ['e', 'y.py']]);
    const f = fileEvidence(score, fileOf);
    expect(f.get('y.py')).toBe(1); // 0.2 + 0.2 + 0.1 (the fourth object adds nothing)
    expect(f.get('x.py')).toBeCloseTo(0.6, 10);
  });

  it('lands a prose question in the file most of its hits come from, and says so on every candidate', () => {
    const inFile = (id: string, fiber: string) => cand(id, { fiber, path: fiber });
    // BM25's list: one strong hit elsewhere, then three of cookie.ts.
    const bm25 = scripted('bm25', [inFile('lead', 'lambda.ts'), inFile('other', 'misc.ts'), inFile('sign', 'cookie.ts'), inFile('get', 'cookie.ts'), inFile('set', 'cookie.ts')]);
    const structural = scripted('structural', []);
    const list = hybridOf(structural, bm25, null).retrieve('how are cookies signed', 50);
    const objects = [...new Set(list.map((c) => c.objectId))];
    expect(objects[0]).toBe('sign'); // cookie.ts first
    expect(objects.indexOf('lead')).toBe(1); // and BM25's best is outranked by no more objects than there are other lists
    expect(objects.indexOf('other')).toBeGreaterThan(objects.indexOf('set'));
    expect(list.find((c) => c.objectId === 'get')!.fileScore).toBe(1);
    expect(list.find((c) => c.objectId === 'lead')!.fileScore).toBeLessThan(1);
    // Code and names queries are ranked as the lists say, without file evidence.
    expect(hybridOf(structural, bm25, null).retrieve('cookieSigner', 50).every((c) => c.fileScore === undefined)).toBe(true);
  });

  it('lifts only the objects a file\'s evidence is made of: its further hits keep their own rank', () => {
    const inFile = (id: string, fiber: string) => cand(id, { fiber, path: fiber });
    // BM25's list: five hits of one test-heavy file, then the source file the question is about.
    const many = ['t1', 't2', 't3', 't4', 't5'].map((id) => inFile(id, 'test_unit.py'));
    const bm25 = scripted('bm25', [...many, inFile('src', 'unit.py'), inFile('src2', 'unit.py')]);
    const objects = [...new Set(hybridOf(scripted('structural', []), bm25, null).retrieve('teardown runs on skipped tests', 50).map((c) => c.objectId))];
    expect(objects.slice(0, 3)).toEqual(['t1', 't2', 't3']);
    // t4 and t5 are not lifted by their file's evidence; unit.py's own best objects are, and come before them.
    expect(objects.indexOf('src')).toBeLessThan(objects.indexOf('t4'));
    expect(objects.indexOf('src2')).toBeLessThan(objects.indexOf('t5'));
  });
});

describe('code lines inside prose', () => {
  const codeLines = (text: string) => splitProse(text).code;
  it('tells lines of code from sentences that quote code', () => {
    for (const line of ['x = foo(a, b)', '    return bar(x)', '    def total(self, items):', 'result = compute_total(items, tax_rate=0.2)', 'print(df.groupby("a").sum())', '>>> parse_expr("1+2")', 'import numpy as np', '  File "a.py", line 3, in f', 'const card = render(stats, { layout });', 'for (const x of xs) {']) {
      expect(codeLines(line)).toEqual([line]);
    }
    for (const line of ['Calling `foo(x)` fails (see #123)', 'If you call it twice, the cache (a dict) is cleared.', 'set layout=compact and it breaks', 'ValueError: percent out of range', 'for a list of dates the order is wrong']) {
      expect(codeLines(line)).toEqual([]);
    }
    expect(codeLines('Some text\n```\nnot = code but fenced\n```\nmore text')).toEqual(['not = code but fenced']);
  });
});
