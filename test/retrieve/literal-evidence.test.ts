import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hybridRetriever } from '../../indexer/retrieve/fusion.ts';
import { literalRetriever, MAX_LITERAL_FILES, quoteScores, quotedTexts } from '../../indexer/retrieve/literal-evidence.ts';
import { linesHolding } from '../../indexer/retrieve/literal-search.ts';
import type { Retriever } from '../../indexer/retrieve/retriever.ts';
import { hybridOf } from '../../indexer/retrieve/select.ts';
import type { DB } from '../../indexer/store/open.ts';
import type { Candidate } from '../../indexer/types.ts';
import { indexInPlace, tempDir, writeTree } from '../helpers/repo.ts';

// What issues quote, as reporters write it: which texts are looked up literally.
const QUOTES: { query: string; quotes: string[][] }[] = [
  { query: 'how are cookies signed', quotes: [] },
  { query: 'pytest --collect-only needs a one char shortcut command', quotes: [['"--collect-only"', "'--collect-only'"]] },
  {
    query: 'Crash on save\n\nTraceback (most recent call last):\n  File "shop/cart.py", line 19, in total\nValueError: percent out of range for coupon',
    quotes: [['percent out of range for coupon']],
  },
  {
    query: "Bad error\n\n```\nValueError: Invalid URL 'http://': No host supplied\n```",
    quotes: [["Invalid URL 'http://': No host supplied", 'No host supplied']],
  },
  { query: 'It breaks with\n\n```python\nresult = parse_expr("1+1", evaluate=False)\n```', quotes: [['result = parse_expr("1+1", evaluate=False)']] },
];

describe('texts a query quotes', () => {
  for (const row of QUOTES) {
    it(JSON.stringify(row.query.slice(0, 50)), () => {
      expect(quotedTexts(row.query)).toEqual(row.quotes);
    });
  }

  it('finds every line of a text holding a needle, once per line', () => {
    expect(linesHolding('a\nxx b xx\nc\nxx', 'xx')).toEqual([2, 4]);
    expect(linesHolding('abc', 'z')).toEqual([]);
  });
});

describe('scores by quoted literals', () => {
  const spans: Record<string, [string, number, number][]> = { 'a.py': [['a1', 1, 5], ['a2', 6, 9]], 'b.py': [['b1', 1, 9]] };
  const innermost = (p: string, line: number) => spans[p]?.find(([, s, e]) => s <= line && line <= e)?.[0];

  it('credits the object spanning each hit, shared among the files holding it; the first alternative found counts', () => {
    const hits = new Map<string, Map<string, number[]>>([
      ['whole message', new Map()],
      ['fragment', new Map([['a.py', [7]], ['b.py', [2]]])],
      ['flag', new Map([['a.py', [3]]])],
    ]);
    const got = quoteScores([['whole message', 'fragment'], ['flag']], (n) => hits.get(n) ?? new Map(), innermost);
    expect(got).toEqual(new Map([['a2', 0.5], ['b1', 0.5], ['a1', 1]]));
  });

  it('ignores a text found in too many files (it points nowhere) and does not try its shorter alternatives', () => {
    const everywhere = new Map(Array.from({ length: MAX_LITERAL_FILES + 1 }, (_, i) => [`f${i}.py`, [1]] as [string, number[]]));
    const got = quoteScores([['common', 'rare']], (n) => (n === 'common' ? everywhere : new Map([['a.py', [1]]])), innermost);
    expect(got.size).toBe(0);
  });
});

describe('literal evidence over an index', () => {
  let db: DB;
  beforeAll(async () => {
    const repo = tempDir();
    writeTree(repo, {
      'shop/pricing.py': 'def apply_discount(cost, pct):\n    if pct > 100:\n        raise ValueError("percent out of range for coupon")\n    return cost * (1 - pct / 100)\n',
      'shop/cart.py': 'from shop.pricing import apply_discount\n\ndef total(items, pct):\n    return apply_discount(sum(items), pct)\n',
      'tests/test_pricing.py': 'def test_range():\n    assert "percent out of range for coupon"\n',
    });
    db = await indexInPlace(repo);
  });
  afterAll(() => db?.close());

  it('finds the function that raises a quoted message, not the test quoting it', () => {
    const got = literalRetriever(db).retrieve('Crash\n\nValueError: percent out of range for coupon', 10);
    expect(got.map((c) => [c.path, c.objectName])).toEqual([['shop/pricing.py', 'apply_discount']]);
  });

  it('finds nothing for a query that quotes nothing', () => {
    expect(literalRetriever(db).retrieve('how is a discount applied', 10)).toEqual([]);
  });
});

const cand = (objectId: string): Candidate => ({
  viewId: [...objectId].reduce((a, c) => a * 31 + c.charCodeAt(0), 7), objectId, fiber: `${objectId}.py`, path: `${objectId}.py`,
  objectName: objectId, objectKind: 'function', viewKind: 'signature', startLine: 1, endLine: 1, score: 1, reason: 'scripted',
});
const scripted = (name: string, ids: string[]): Retriever => ({ name, retrieve: (_q, k) => ids.map(cand).slice(0, k) });

describe('the literal list in fusion', () => {
  const bm25 = scripted('bm25', ['lead', 'b', 'c', 'd']);
  const structural = scripted('structural', ['b', 'c', 'x']);

  it('changes nothing, relevance included, when it finds nothing', () => {
    const q = 'where are discounts applied';
    const without = hybridOf(structural, bm25, null).retrieve(q, 20);
    const withEmpty = hybridOf(structural, bm25, null, { literals: scripted('literal', []) }).retrieve(q, 20);
    expect(withEmpty).toEqual(without);
  });

  it('counts what a question quotes as much as the words\' best hit', () => {
    const q = 'pytest --collect-only needs a one char shortcut command';
    const got = hybridOf(structural, bm25, null, { literals: scripted('literal', ['quoted']) }).retrieve(q, 20);
    const score = (id: string) => got.find((c) => c.objectId === id)!.score;
    expect(score('quoted')).toBeCloseTo(score('lead'), 9);
    expect(score('quoted')).toBeGreaterThan(score('d'));
  });

  it('is not fused into a code query (the lines at a cursor)', () => {
    const got = hybridOf(structural, bm25, null, { codeFile: 'a.py', literals: scripted('literal', ['quoted']) }).retrieve('x = parse(', 20);
    expect(got.map((c) => c.objectId)).not.toContain('quoted');
  });

  it('an optional list that answers nothing widens no leader protection', () => {
    const parts = [{ retriever: bm25, weight: 2 }, { retriever: structural, weight: 1 }];
    const plain = hybridRetriever(parts, 'h', 10, { protectLeader: true, relevance: true }).retrieve('q', 20);
    const more = hybridRetriever([...parts, { retriever: scripted('l', []), weight: 2, optional: true }], 'h', 10, { protectLeader: true, relevance: true }).retrieve('q', 20);
    expect(more).toEqual(plain);
  });
});
