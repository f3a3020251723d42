import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_VIEW_CHARS, ownText, wholeLines } from '../../indexer/extract/view-text.ts';
import { literalRetriever, quotedTexts } from '../../indexer/retrieve/literal-evidence.ts';
import { linePhrases, quoteMatch } from '../../indexer/retrieve/quote-match.ts';
import { heldWithoutText, linesNotHeld } from '../../indexer/store/fts-coverage.ts';
import type { DB } from '../../indexer/store/open.ts';
import { indexRepository } from '../../indexer/index-repository.ts';
import { indexInPlace, tempDir, writeTree } from '../helpers/repo.ts';

// What the full-text index is asked for a quote: only tokens it is sure to hold as the text writes them.
const MATCHES: { quote: string; match: string | null; why: string }[] = [
  { quote: 'raise ValueError("percent out of range")', match: '"valueerror percent out"', why: 'first word may be a longer token: left out; 3 tokens asked' },
  { quote: "Invalid URL 'http://': No host supplied", match: '"http no host"', why: 'punctuation separates, first and last words left out; the longest 3' },
  { quote: '"--collect-only"', match: '"collect only"', why: 'a flag quoted: both words whole' },
  { quote: 'maximum recursion', match: null, why: 'two words: each may be part of a longer one' },
  { quote: '_required_standard = 95', match: null, why: '`name = value`: no whole token' },
  { quote: 'x = parse_expr("1+1", evaluate=False)', match: '"1 evaluate false"', why: '_ joins a token; the run of the longest tokens' },
  { quote: 'a naïve datetime is (not) compared', match: '"datetime is not"', why: 'a word next to non-ASCII may be longer to the tokenizer' },
  { quote: 'if x:\n    return self.value + 1\nelse', match: '"return self value"', why: 'the line with most whole tokens; a line break separates' },
];

describe('what the index is asked for a quote', () => {
  for (const row of MATCHES) {
    it(`${JSON.stringify(row.quote)}: ${row.why}`, () => {
      expect(quoteMatch(row.quote)?.match ?? null).toBe(row.match);
    });
  }

  it('reads whole tokens as phrases, before the cap', () => {
    expect(linePhrases('raise ValueError("percent out of range")', true, true)).toEqual([['valueerror', 'percent', 'out', 'of', 'range']]);
    expect(linePhrases("Invalid URL 'http://': No host supplied", true, true)).toEqual([['url', 'http', 'no', 'host']]);
  });

  it('asks for at most two runs of three tokens, the longest', () => {
    expect(quoteMatch('(aa bb) é (cccc dddd eeee fffff) é (g)')?.match).toBe('"dddd eeee fffff" AND "aa bb"');
  });

  it('breaks a phrase at a non-ASCII character between whole tokens', () => {
    expect(linePhrases('(a — b)', true, true)).toEqual([['a'], ['b']]);
  });

  it('gives the line it asked for, without a carriage return', () => {
    expect(quoteMatch('x = 1\r\nfoo(bar, baz)\r')?.line).toBe('foo(bar, baz)');
  });
});

describe('lines the index holds whole', () => {
  it('are the own lines of a text, but one cut at the size cap', () => {
    const lines = Array.from({ length: 5000 }, (_, i) => `line ${i} ${'x'.repeat(20)}`);
    const whole = wholeLines(lines, 1, 5000, []);
    expect(whole.length).toBeGreaterThan(100);
    expect(whole.length).toBeLessThan(5000);
    expect(ownText(lines, 1, 5000, []).startsWith(whole.map((l) => lines[l - 1]).join('\n'))).toBe(true);
    expect(ownText(lines, 1, 5000, []).length).toBe(MAX_VIEW_CHARS);
  });

  it('leave out members of a container', () => {
    expect(wholeLines(['class A:', '  def f():', '    pass', '  x = 1'], 1, 4, [[2, 3]])).toEqual([1, 4]);
  });
});

// A table longer than a view's text holds: the quote past the cap is in no full-text row.
const LONG_TABLE = `RULES = {\n${Array.from({ length: 2500 }, (_, i) => `    "rule_${i}": "pattern number ${i}",`).join('\n')}\n    "last": raise_later("deep in the long table"),\n}\n`;

const TREE: Record<string, string> = {
  'shop/pricing.py':
    'def apply_discount(cost, pct):\n    if pct > 100:\n        raise ValueError("percent out of range for coupon")\n    total = self.value + 1\n    return cost * (1 - pct / 100)\n',
  'shop/cart.py': 'from shop.pricing import apply_discount\n\ndef total(items, pct):\n    total = self.value + 1\n    return apply_discount(sum(items), pct)\n',
  'shop/errors.py': 'class CartError(Exception):\n    def __str__(self):\n        return "maximum recursion reached in cart: %s" % self.args\n\n_required_standard = 95\n',
  'shop/naive.py': 'def compare(a, b):\n    raise TypeError("a naïve datetime is (not) compared")\n',
  'shop/cli.py': 'def options(parser):\n    parser.add_argument("--collect-only", action="store_true")\n',
  'shop/one.py': 'def one(self):\n    total = self.value + 1\n',
  'shop/two.py': 'def two(self):\n    total = self.value + 1\n',
  'shop/table.py': LONG_TABLE,
  'tests/test_pricing.py': 'def test_range():\n    assert "percent out of range for coupon"\n',
  'README.md': 'percent out of range for coupon\n',
};

// Questions quoting texts found once, in several files, in too many (the common line), nowhere, past a view's cap,
// with punctuation, non-ASCII, and quotes with no whole token (searched in every file).
const QUERIES = [
  'Crash\n\nValueError: percent out of range for coupon',
  "Bad error\n\n```\nValueError: Invalid URL 'http://': No host supplied\n```",
  'It breaks with\n\n```python\ntotal = self.value + 1\n```',
  'It says "maximum recursion" and stops',
  'It says "maximum recursion reached in cart: %s" and stops',
  'Pasted:\n\n```python\n_required_standard = 95\n```',
  'Why "deep in the long table" is never read',
  'Comparing fails\n\nTypeError: a naïve datetime is (not) compared',
  'Running `pytest --collect-only` is long',
];

describe('literal search with the full-text index', () => {
  let db: DB;
  beforeAll(async () => {
    const repo = tempDir();
    writeTree(repo, TREE);
    db = await indexInPlace(repo);
  });
  afterAll(() => db?.close());

  it('the fixture has quotes the index can narrow and quotes it cannot', () => {
    const needles = QUERIES.flatMap((q) => quotedTexts(q).flat());
    expect(needles.some((n) => quoteMatch(n) === null)).toBe(true);
    expect(needles.some((n) => quoteMatch(n) !== null)).toBe(true);
  });

  it('knows the lines past a view\'s cap are not held, and a plain file has none', () => {
    const id = (p: string) => db.prepare('SELECT id FROM files WHERE path = ?').pluck().get(p) as number;
    const text = (p: string) => db.prepare('SELECT text FROM file_texts WHERE file_id = ?').pluck().get(id(p)) as string;
    expect(linesNotHeld(db, id('shop/table.py'), text('shop/table.py')).join('\n')).toContain('deep in the long table');
    expect(linesNotHeld(db, id('shop/pricing.py'), text('shop/pricing.py'))).toEqual([]);
  });

  it('knows a small file held without reading it, never a file whose views may be cut', () => {
    const file = (p: string) => db.prepare('SELECT id, size, line_count AS lineCount FROM files WHERE path = ?').get(p) as { id: number; size: number; lineCount: number };
    for (const p of ['shop/pricing.py', 'shop/naive.py', 'shop/cli.py']) expect(heldWithoutText(db, file(p)), p).toBe(true);
    expect(heldWithoutText(db, file('shop/table.py'))).toBe(false);
    // A blank line no view holds (the module's own text is blank): known only from the text.
    expect(heldWithoutText(db, file('shop/errors.py'))).toBe(false);
    expect(linesNotHeld(db, file('shop/errors.py').id, db.prepare('SELECT text FROM file_texts WHERE file_id = ?').pluck().get(file('shop/errors.py').id) as string)).toEqual([]);
  });

  it('finds the same objects with the same scores as reading every file', () => {
    const prefiltered = literalRetriever(db);
    const scanned = literalRetriever(db, { prefilter: false });
    let found = 0;
    for (const q of QUERIES) {
      const want = scanned.retrieve(q, 50);
      expect(prefiltered.retrieve(q, 50), q).toEqual(want);
      if (want.length) found++;
    }
    // Not a comparison of empty lists: most quotes are found (the common line in too many files is not).
    expect(found).toBeGreaterThanOrEqual(7);
  });

  it('finds a quote past a view\'s cap, where no full-text row holds it', () => {
    expect(literalRetriever(db).retrieve(QUERIES[6], 5).map((c) => c.path)).toEqual(['shop/table.py']);
  });
});

describe('literal search across edits', () => {
  it('reads a file again when its content changes (texts and held lines are kept per content)', async () => {
    const repo = tempDir();
    writeTree(repo, { 'app/a.py': 'def f():\n    raise ValueError("the first message of a")\n', 'app/b.py': 'def g():\n    return 1\n' });
    const db = await indexInPlace(repo);
    try {
      const literal = literalRetriever(db);
      // Another wording each time: the retriever answers the same query twice from memory (the fusion asks at two depths).
      const ask = (m: string, title: string) => literal.retrieve(`${title}\n\nValueError: ${m}`, 5).map((c) => c.path);
      expect(ask('the first message of a', 'Crash')).toEqual(['app/a.py']);
      writeTree(repo, { 'app/a.py': 'def f():\n    return 0\n', 'app/b.py': 'def g():\n    raise ValueError("the first message of a")\n' });
      await indexRepository({ repo, db, workers: 0 });
      expect(ask('the first message of a', 'Crash again')).toEqual(['app/b.py']);
    } finally {
      db.close();
    }
  });
});
