import { describe, expect, it } from 'vitest';
import { parseAllocateOptions } from '../../allocator/options.ts';
import { parseContextRequest, parseFilePath, parseJsonBody, parseSearchRequest } from '../../daemon/requests.ts';

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
});
