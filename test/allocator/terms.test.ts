import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitIdentifier } from '../../indexer/identifiers.ts';
import { STOP_TERMS, sharedTerms, terms } from '../../allocator/terms.ts';

describe('identifier-like query tokens (companion and window rules)', () => {
  it('splits camelCase, PascalCase, acronyms and snake_case, lowercased', () => {
    expect(terms('parseHTTPConfig read_file_now XMLParser')).toEqual(['parse', 'http', 'config', 'read', 'file', 'now', 'xml', 'parser']);
  });

  it('drops tokens shorter than 3 characters, digit-only parts and stop words', () => {
    expect(terms('how does the id of x get to db2 in utf8 mode?')).toEqual(['get', 'utf', 'mode']);
    expect(terms('def return const function self')).toEqual([]);
  });

  it('ASCII identifiers split exactly as the index splits them', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z_$][A-Za-z0-9_$]{0,24}$/), (id) => {
        const kept = splitIdentifier(id).filter((t) => t.length >= 3 && !/^[0-9]+$/.test(t) && !STOP_TERMS.has(t));
        expect(terms(id)).toEqual([...new Set(kept)]);
      }),
      { numRuns: 200 },
    );
  });

  it('keeps non-ASCII identifiers', () => {
    expect(terms('naïveCafé 日本語 über_größe')).toEqual(['naïve', 'café', '日本語', 'über', 'größe']);
  });

  it('is distinct, in order of first appearance', () => {
    expect(terms('config parseConfig CONFIG')).toEqual(['config', 'parse']);
  });

  it('sharedTerms keeps query order', () => {
    expect(sharedTerms(['render', 'budget'], 'const budgetLeft = renderBlock()')).toEqual(['render', 'budget']);
    expect(sharedTerms([], 'anything')).toEqual([]);
  });

  it('sharedTerms is exactly the query terms among the text\'s terms (the substring shortcut loses none)', () => {
    const word = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,12}$/);
    const text = fc.array(fc.oneof(word, fc.constantFrom('größe', 'ΑΣ', 'naïveCafé', '(', ' = ', '.')), { maxLength: 12 }).map((ws) => ws.join(' '));
    fc.assert(
      fc.property(text, text, (line, query) => {
        const q = terms(query);
        const own = new Set(terms(line));
        expect(sharedTerms(q, line)).toEqual(q.filter((t) => own.has(t)));
        // the line's own terms are all found, whatever their case in the line
        expect(sharedTerms([...own], line)).toEqual([...own]);
      }),
      { numRuns: 300 },
    );
    expect(sharedTerms(['config'], 'x = 1  # nothing here')).toEqual([]);
    expect(sharedTerms(['config', 'parse'], 'PARSE_CONFIG = readConfig()')).toEqual(['config', 'parse']);
  });
});
