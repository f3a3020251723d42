// find_symbol's matching and ranking, pure (rankSymbols), and over a real index (findSymbols): every match
// class, the joined-string candidate search agreeing with a plain pass, filters, and the ranking's tie-breaks.
import { describe, expect, it } from 'vitest';
import { findSymbols, matchSymbol, normalSymbol, pathFilter, rankSymbols, smallest, type SymbolCandidate } from '../../indexer/retrieve/symbols.ts';
import { indexedFixture } from '../helpers/repo.ts';

let n = 0;
const obj = (path: string, qualifiedName: string, kind: SymbolCandidate['kind'] = 'function'): SymbolCandidate => ({
  id: String(n++).padStart(16, '0'), path, qualifiedName, name: qualifiedName.split('.').at(-1)!, kind,
});

describe('matching one object', () => {
  const cases: [SymbolCandidate, string, ReturnType<typeof matchSymbol>][] = [
    [obj('src/parser.py', 'Parser.parse', 'method'), 'parse', 'exact'],
    [obj('src/parser.py', 'Parser.parse', 'method'), 'Parser.parse', 'exact'],
    [obj('src/parser.py', 'Parser.parse', 'method'), 'src.parser.Parser.parse', 'exact'],
    [obj('src/parser.py', 'Parser.parse', 'method'), 'parser.Parser.parse', 'exact'],
    [obj('src/parser.py', 'Parser.parse', 'method'), 'app.src.parser.Parser.parse', 'exact'],
    [obj('src/parser.py', 'Parser.parse', 'method'), 'Parser::parse', 'exact'],
    [obj('src/parser.py', 'Parser.parse', 'method'), 'Parser#parse', 'exact'],
    [obj('src/parser.py', 'Parser.parse', 'method'), 'Parser.par', 'prefix'],
    [obj('src/parser.py', 'parse_config_file'), 'parse_conf', 'prefix'],
    [obj('src/parser.py', 'parse_config_file'), 'PARSE', 'prefix'],
    [obj('src/parser.py', 'parse_config_file'), 'config parse', 'parts'],
    [obj('src/parser.py', 'parseConfigFile'), 'config file', 'parts'],
    [obj('src/parser.py', 'parseConfigFile'), 'configFile', 'parts'],
    [obj('src/parser.py', 'parse_config_file'), 'conf', null],
    [obj('src/parser.py', 'parse_config_file'), 'parse yaml', null],
    [obj('src/parser.py', 'Parser.parse', 'method'), 'Lexer.parse', null],
  ];
  it.each(cases)('%o for %s: %s', (o, query, expected) => {
    expect(matchSymbol(o, query)).toBe(expected);
  });

  it('normalises other languages\' separators, and a path filter takes globs or plain folders', () => {
    expect(normalSymbol(' Foo::bar() ')).toBe('Foo.bar');
    expect(normalSymbol('Foo->bar')).toBe('Foo.bar');
    const under = pathFilter('src/core');
    expect([under('src/core/a.py'), under('src/core'), under('src/corex/a.py')]).toEqual([true, true, false]);
    const glob = pathFilter('**/*.ts');
    expect([glob('web/a.ts'), glob('a.ts'), glob('web/a.py')]).toEqual([true, true, false]);
    expect(pathFilter(undefined)('anything')).toBe(true);
  });
});

describe('ranking', () => {
  const objects = [
    obj('tests/test_parse.py', 'parse'),
    obj('src/b.py', 'parse'),
    obj('src/a.py', 'parse'),
    obj('src/parse.py', 'parse', 'module'),
    obj('src/a.py', 'parse_all'),
    obj('src/a.py', 'parser'),
    obj('src/a.py', 'do_parse'),
    obj('docs/parse.md', 'parse', 'file'),
  ];
  it('exact, then prefix (shorter first), then parts; definitions before whole files, code before tests, then by path', () => {
    const r = rankSymbols(objects, { name: 'parse', limit: 10 });
    expect(r.found.map((f) => [f.o.path, f.o.qualifiedName, f.match])).toEqual([
      ['src/a.py', 'parse', 'exact'], ['src/b.py', 'parse', 'exact'], ['tests/test_parse.py', 'parse', 'exact'], ['src/parse.py', 'parse', 'exact'],
      ['src/a.py', 'parser', 'prefix'], ['src/a.py', 'parse_all', 'prefix'],
      ['src/a.py', 'do_parse', 'parts'],
    ]);
    expect(r.counts).toEqual({ exact: 4, prefix: 2, parts: 1 });
    // non-code text files only when asked for
    expect(rankSymbols(objects, { name: 'parse', kind: 'file', limit: 10 }).found.map((f) => f.o.path)).toEqual(['docs/parse.md']);
    expect(rankSymbols(objects, { name: 'parse', path: 'tests/**', limit: 10 }).found.map((f) => f.o.path)).toEqual(['tests/test_parse.py']);
    const two = rankSymbols(objects, { name: 'parse', limit: 2 });
    expect(two.found).toHaveLength(2);
    expect(two.total).toBe(7);
  });

  it('smallest(k) is the first k of a full sort', () => {
    const items = Array.from({ length: 300 }, (_, i) => (i * 7919) % 301);
    for (const k of [1, 5, 50, 300, 400]) expect(smallest(items, k, (a, b) => a - b)).toEqual([...items].sort((a, b) => a - b).slice(0, k));
  });
});

describe('over a real index', () => {
  const fixture = indexedFixture('mixed');

  it('the substring search finds what a pass over every object finds', () => {
    const all = fixture.db.prepare('SELECT o.id, f.path, o.kind, o.name, o.qualified_name AS qualifiedName FROM objects o JOIN files f ON f.id = o.file_id').all() as SymbolCandidate[];
    for (const name of ['total', 'Cart.total', 'tot', 'shop.cart.Cart', 'x.shop.cart.Cart.total', 'discount apply', 'CART', 'format price', 'ReceiptRenderer.render', 'e', 'nothing_like_it']) {
      const fast = findSymbols(fixture.db, { name, limit: 50 });
      const plain = rankSymbols(all, { name, limit: 50 });
      expect(fast.matches.map((m) => [m.id, m.match]), name).toEqual(plain.found.map((f) => [f.o.id, f.match]));
      expect(fast.counts, name).toEqual(plain.counts);
    }
  });
});
