import { describe, expect, it } from 'vitest';
import { identifierParts, identifiers, splitIdentifier } from '../../indexer/identifiers.ts';

/** The `parts` column by its definition: the parts of every identifier `identifiers` finds that has more than one. */
const byDefinition = (text: string) =>
  identifiers(text)
    .map(splitIdentifier)
    .filter((p) => p.length > 1)
    .map((p) => p.join(' '))
    .join(' ');

describe('identifierParts', () => {
  it('splits the compound identifiers of a text, in order, and skips one-part words', () => {
    expect(identifierParts('def parse_config(self, fileName): return HTTPServer')).toBe('parse config file name http server');
    expect(identifierParts('x = y + Foo')).toBe('');
  });

  it('equals the definition on identifiers at every kind of boundary', () => {
    const texts = [
      '_private __dunder__ $jq a$b Foo FooBar fooBar FOO FOOBar x1 x1y 1abc a_1 _ $ __',
      'naïve café: ünïcode_name(ßx) → résumé2',
      'tab\tsep\r\nwin_line\nlast',
      'a.b.c(d_e, F_G)[h2o] "str_lit" # comment_here',
      '',
      'Z',
      'endsWithCamel',
    ];
    for (const t of texts) expect(identifierParts(t)).toBe(byDefinition(t));
  });

  it('equals the definition on random identifier-like text', () => {
    let seed = 7;
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed);
    const alphabet = 'aAbBzZ09_$ .\n(é';
    for (let n = 0; n < 500; n++) {
      const text = Array.from({ length: next() % 40 }, () => alphabet[next() % alphabet.length]).join('');
      expect(identifierParts(text)).toBe(byDefinition(text));
    }
  });
});
