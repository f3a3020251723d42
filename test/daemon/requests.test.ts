import { describe, expect, it } from 'vitest';
import { LIMITS, parseAllocateOptions } from '../../allocator/options.ts';
import { MAX_ISSUE_CHARS, MAX_K, MAX_QUERY_CHARS, parseContextRequest, parseFilePath, parseFilesSelectRequest, parseJsonBody, parseSearchRequest } from '../../daemon/requests.ts';

describe('request validation', () => {
  it('search: query and k with the CLI default', () => {
    expect(parseSearchRequest({ query: 'parse' })).toEqual({ ok: true, value: { query: 'parse', k: 20, retrieval: { retriever: undefined, path: undefined } } });
    expect(parseSearchRequest({ query: 'parse', k: 3, retriever: 'bm25' })).toEqual({ ok: true, value: { query: 'parse', k: 3, retrieval: { retriever: 'bm25', path: undefined } } });
    expect(parseSearchRequest({ query: 'parse', retriever: 'magic' }).ok).toBe(false);
    for (const bad of [{}, { query: 1 }, { query: 'x', k: 0 }, { query: 'x', k: 1.5 }, { query: 'x', extra: true }, [], null, 'x']) {
      const r = parseSearchRequest(bad);
      expect(r.ok, JSON.stringify(bad)).toBe(false);
    }
    const r = parseSearchRequest({ query: 'x', k: 0 });
    expect(!r.ok && r.message).toMatch(/^k: /);
  });

  it('context: the allocator options, defaults as on the CLI', () => {
    const r = parseContextRequest({ query: 'cart total', budget: 1024, slots: '3+2' });
    expect(r).toEqual({ ok: true, value: { query: 'cart total', options: parseAllocateOptions({ budget: 1024, slots: '3+2' }), retrieval: { retriever: undefined, path: undefined } } });
    const obj = parseContextRequest({ query: 'q', slots: { core: 2, companion: 0 }, noQuotient: true, tokenizer: 'o200k_base' });
    expect(obj.ok && obj.value.options).toMatchObject({ slots: { core: 2, companion: 0 }, noQuotient: true, tokenizer: 'o200k_base' });
    for (const bad of [{ query: 'q', budget: -1 }, { query: 'q', slots: '0+1' }, { query: 'q', tokenizer: 'gpt2' }, { query: 'q', explain: true }, { budget: 10 }]) {
      expect(parseContextRequest(bad).ok, JSON.stringify(bad)).toBe(false);
    }
  });

  it('JSON bodies', () => {
    expect(parseJsonBody('{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseJsonBody('')).toMatchObject({ ok: false, message: expect.stringMatching(/empty body/) });
    expect(parseJsonBody('{"a":')).toMatchObject({ ok: false, message: expect.stringMatching(/malformed JSON/) });
  });

  it('file paths stay inside the repository', () => {
    expect(parseFilePath('shop/cart.py')).toEqual({ ok: true, value: 'shop/cart.py' });
    expect(parseFilePath('./shop//cart.py')).toEqual({ ok: true, value: 'shop/cart.py' });
    for (const bad of [undefined, '', '/etc/passwd', '../x', 'a/../../x', 'a/..', 'C:/x', 'a\\..\\b', 'a\0b', '.']) {
      expect(parseFilePath(bad).ok, String(bad)).toBe(false);
    }
  });

  it('every number and length has a maximum: at it accepted, beyond it refused with the field named', () => {
    const at = [
      parseSearchRequest({ query: 'q'.repeat(MAX_QUERY_CHARS), k: MAX_K }),
      parseContextRequest({ query: 'q', budget: LIMITS.budget, objectCap: LIMITS.objectCap, floor: LIMITS.floor, headLines: LIMITS.headLines, slots: { core: LIMITS.core, companion: LIMITS.companion } }),
      parseContextRequest({ query: 'q', slots: `${LIMITS.core}+${LIMITS.companion}`, rrfK: 1000 }),
      parseContextRequest({ query: 'q', path: 'a.py', line: 12 }),
      parseFilesSelectRequest({ issue: 'x', budget: LIMITS.budget }),
    ];
    for (const r of at) expect(r.ok, JSON.stringify(r)).toBe(true);
    // The cursor's line reaches retrieval with its file (`StructuralOptions.line`), not the allocation options.
    const withLine = parseContextRequest({ query: 'q', path: 'a.py', line: 12 });
    expect(withLine.ok && withLine.value.retrieval).toMatchObject({ path: 'a.py', line: 12 });
    expect(withLine.ok && 'line' in withLine.value.options).toBe(false);
    const beyond: [unknown, RegExp][] = [
      [parseSearchRequest({ query: 'q'.repeat(MAX_QUERY_CHARS + 1) }), /^query: /],
      [parseSearchRequest({ query: 'q', k: MAX_K + 1 }), /^k: /],
      [parseSearchRequest({ query: 'q', k: 1e308 }), /^k: /],
      [parseSearchRequest({ query: 'q', rrfK: 1001 }), /^rrfK: /],
      [parseSearchRequest({ query: 'q', path: 'a.py', line: 0 }), /^line: /],
      [parseSearchRequest({ query: 'q', line: 3 }), /^line: needs path/],
      [parseContextRequest({ query: 'q', line: 3 }), /^line: needs path/],
      [parseSearchRequest({ query: 'q', path: 'p'.repeat(4097) }), /^path: /],
      [parseContextRequest({ query: 'q', budget: LIMITS.budget + 1 }), /^budget: /],
      [parseContextRequest({ query: 'q', budget: '99999999999999999999' }), /^budget: /],
      [parseContextRequest({ query: 'q', objectCap: LIMITS.objectCap + 1 }), /^objectCap: /],
      [parseContextRequest({ query: 'q', floor: LIMITS.floor + 1 }), /^floor: /],
      [parseContextRequest({ query: 'q', headLines: LIMITS.headLines + 1 }), /^headLines: /],
      [parseContextRequest({ query: 'q', slots: { core: 1e9, companion: 1e7 } }), /^slots/],
      [parseContextRequest({ query: 'q', slots: `${LIMITS.core + 1}+0` }), /^slots: .*at most/],
      [parseContextRequest({ query: 'q', slots: `1+${LIMITS.companion + 1}` }), /^slots: .*at most/],
      [parseContextRequest({ query: 'q', session: 's'.repeat(201) }), /^session: /],
      [parseFilesSelectRequest({ issue: 'x', budget: LIMITS.budget + 1 }), /^budget: /],
      [parseFilesSelectRequest({ issue: 'x'.repeat(MAX_ISSUE_CHARS + 1) }), /^issue: /],
      [parseFilesSelectRequest({ issue: 'x', answers: [Array(201).fill('a.py')] }), /^answers/],
      [parseFilesSelectRequest({ issue: 'x', searches: ['s'.repeat(1001)] }), /^searches/],
    ];
    for (const [r, field] of beyond) {
      expect((r as { ok: boolean }).ok, JSON.stringify(r).slice(0, 200)).toBe(false);
      expect((r as { message: string }).message).toMatch(field);
    }
  });
});
