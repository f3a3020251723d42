import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bm25Retriever, namesModule } from '../../indexer/retrieve/bm25.ts';
import { loadQueryLanguages } from '../../indexer/retrieve/query-reading.ts';
import { retrieverFor } from '../../indexer/retrieve/select.ts';
import type { DB } from '../../indexer/store/open.ts';
import { indexInPlace, tempDir, writeTree } from '../helpers/repo.ts';

let repo: string;
let db: DB;
beforeAll(async () => {
  repo = tempDir();
  writeTree(repo, {
    'web/cookie.py': [
      'import hmac',
      '',
      '',
      'def sign_cookie(value, secret):',
      '    """Sign a cookie value with the secret, so a client cannot change it."""',
      '    return value + "." + hmac.new(secret, value).hexdigest()',
      '',
      '',
      'def read_header(headers):',
      '    return headers.get("Cookie")',
      '',
    ].join('\n'),
    'web/dates.py': [
      'def format_date(d, pattern):',
      '    """Format a date as text with a strftime pattern."""',
      '    return d.strftime(pattern)',
      '',
      '',
      'def to_text(d):',
      '    # formats the date the same way format_date does, with the default pattern',
      '    return format_date(d, "%Y-%m-%d")',
      '',
    ].join('\n'),
    'tests/test_dates.py': [
      'from web.dates import format_date',
      '',
      '',
      'def test_format_date_pattern():',
      '    """Dates are formatted with the pattern given."""',
      '    assert format_date(day, "%d") == "01"',
      '',
    ].join('\n'),
    'docs/dates.md': '# Dates\n\nHow dates are formatted: format_date takes a pattern and formats the date.\n',
    // Two definitions of parse_expr: the one everything uses, and a short private twin; a test and a re-export.
    'calc/__init__.py': 'from calc.parser import parse_expr\n',
    'calc/parser.py': 'def parse_expr(text, local_dict=None, transformations=None, evaluate=True):\n    """Converts the string text to an expression."""\n    return Expr(text)\n\n\nclass Expr:\n    def __init__(self, text):\n        self.text = text\n',
    'calc/ast_tools.py': 'def parse_expr(s):\n    return s\n',
    'calc/solve.py': 'from calc.parser import parse_expr\n\n\ndef solve(text):\n    return parse_expr(text)\n',
    'calc/plot.py': 'from calc.parser import parse_expr\n\n\ndef plot(text):\n    return parse_expr(text)\n',
    'calc/series.py': 'from calc.parser import parse_expr\n\n\ndef series(text):\n    return parse_expr(text, evaluate=False)\n',
    'tests/test_parser.py': 'from calc.parser import parse_expr\n\n\ndef test_parse_expr():\n    assert parse_expr("1 + 2")\n',
    // A product module named with a word that elsewhere asks for tests (as `pytest` is on pytest's repository).
    'calc/fixtures.py': 'def load_fixtures(path):\n    """Load the fixtures of a table from a path."""\n    return open(path).read()\n',
    'tests/test_fixtures.py':
      'from calc.fixtures import load_fixtures\n\n\ndef test_load_fixtures(tmp_path):\n    """Fixtures load from a path: the table fixtures are read."""\n    assert load_fixtures(tmp_path / "fixtures.txt")\n',
  });
  db = await indexInPlace(repo);
  await loadQueryLanguages();
});
afterAll(() => {
  db.close();
  fs.rmSync(repo, { recursive: true, force: true });
});

const objects = (q: string, k = 20) => [...new Set(bm25Retriever(db).retrieve(q, k).map((c) => c.objectName))];

describe('BM25 fields and weights', () => {
  it('stems English words: cookies are a cookie, signed is sign', () => {
    expect(objects('how are cookies signed')[0]).toBe('sign_cookie');
  });

  it('ranks the object a name describes above one whose body mentions it', () => {
    const got = objects('format date');
    expect(got[0]).toBe('format_date');
    expect(got.indexOf('format_date')).toBeLessThan(got.indexOf('to_text'));
  });

  it('ranks tests and documentation below the code unless the query asks for them', () => {
    const plain = objects('how are dates formatted with a pattern');
    expect(plain[0]).toBe('format_date');
    expect(plain.indexOf('test_format_date_pattern')).toBeGreaterThan(plain.indexOf('format_date'));
    expect(plain.indexOf('docs/dates.md')).toBeGreaterThan(plain.indexOf('format_date'));
    const firstFile = (q: string) => bm25Retriever(db).retrieve(q, 5)[0].fiber;
    expect(firstFile('how are dates formatted with a pattern')).toBe('web/dates.py');
    expect(firstFile('which test checks that dates are formatted with a pattern')).toBe('tests/test_dates.py');
    expect(firstFile('tests/test_dates.py format date pattern')).toBe('tests/test_dates.py');
  });

  it('reads a test word that names one of the repository\'s own modules as the product, not as asking for tests', () => {
    expect(namesModule(db, 'fixtures')).toBe(true);
    expect(namesModule(db, 'dates')).toBe(true);
    expect(namesModule(db, 'tests')).toBe(false); // only a test folder is called so
    expect(namesModule(db, 'pytest')).toBe(false);
    const firstFile = (q: string) => bm25Retriever(db).retrieve(q, 5)[0].fiber;
    expect(firstFile('how are table fixtures loaded from a path')).toBe('calc/fixtures.py');
    expect(firstFile('which test loads table fixtures from a path')).toBe('tests/test_fixtures.py');
  });

  it('finds what two words spell as one identifier, the definition the repository uses first (the default retriever)', async () => {
    const hits = [...new Set((await retrieverFor(db, 'hybrid')).retrieve('parse expr', 50).map((c) => `${c.fiber}:${c.objectName}`))];
    expect(hits.slice(0, 3)).toContain('calc/parser.py:parse_expr');
    expect(hits.indexOf('calc/parser.py:parse_expr')).toBeLessThan(hits.indexOf('calc/ast_tools.py:parse_expr'));
    expect(hits.indexOf('calc/parser.py:parse_expr')).toBeLessThan(hits.indexOf('tests/test_parser.py:test_parse_expr'));
  });

  it('keeps BM25\'s best hit among the first three objects of the default fusion on a prose query', async () => {
    for (const q of ['how are cookies signed', 'how are dates formatted with a pattern', 'where is the cookie header read']) {
      const best = bm25Retriever(db).retrieve(q, 50)[0].objectId;
      const fused = [...new Set((await retrieverFor(db, 'hybrid')).retrieve(q, 50).map((c) => c.objectId))];
      expect(fused.indexOf(best)).toBeGreaterThanOrEqual(0);
      expect(fused.indexOf(best)).toBeLessThan(3);
    }
  });
});
