import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { packChunks, type Chunk } from '../../allocator/baseline.ts';
import { getTokenizer } from '../../indexer/tokenizer.ts';

const tok = getTokenizer('cl100k_base');
const chunk = (path: string, startLine: number, n: number, score: number, word = 'value'): Chunk => ({
  path, startLine, endLine: startLine + n - 1, score,
  text: Array.from({ length: n }, (_, k) => `    ${word}_${startLine + k} = compute(${k})`).join('\n'),
});

describe('chunk-bm25 baseline: chunks packed verbatim in rank order until the budget is reached', () => {
  it('packs whole chunks by score, each under a path:lines header', () => {
    const p = packChunks([chunk('b.py', 41, 3, 1), chunk('a.py', 1, 2, 5)], 10_000, tok);
    expect(p.chunks.map((c) => [c.path, c.startLine, c.endLine, c.shownStartLine, c.shownEndLine])).toEqual([
      ['a.py', 1, 2, 1, 2], ['b.py', 41, 43, 41, 43],
    ]);
    expect(p.chunks[0].text).toBe(`### a.py:1-2\n${chunk('a.py', 1, 2, 5).text}`);
    expect(p.text).toBe(p.chunks.map((c) => c.text).join('\n\n'));
    expect(p.totalTokens).toBe(tok.count(p.text));
  });

  it('the chunk that overflows is cut at the last line that fits, and packing stops', () => {
    const chunks = [chunk('a.py', 1, 20, 3), chunk('b.py', 1, 20, 2), chunk('c.py', 1, 2, 1)];
    const first = packChunks(chunks.slice(0, 1), 10_000, tok).totalTokens;
    const p = packChunks(chunks, first + 60, tok);
    expect(p.chunks.map((c) => c.path)).toEqual(['a.py', 'b.py']);
    expect(p.chunks[1].shownStartLine).toBe(1);
    expect(p.chunks[1].shownEndLine).toBeLessThan(20);
    expect(p.chunks[1].text.split('\n')[0]).toBe(`### b.py:1-${p.chunks[1].shownEndLine} of 1-20`);
    expect(p.totalTokens).toBeLessThanOrEqual(first + 60);
  });

  it('budget 0 and no chunks give nothing', () => {
    expect(packChunks([chunk('a.py', 1, 3, 1)], 0, tok)).toMatchObject({ text: '', totalTokens: 0, chunks: [] });
    expect(packChunks([], 100, 'o200k_base')).toMatchObject({ text: '', totalTokens: 0, chunks: [], tokenizer: 'o200k_base' });
  });

  it('property: the packed text never exceeds the budget and is counted exactly', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ n: fc.integer({ min: 1, max: 30 }), score: fc.nat(10), crlf: fc.boolean() }), { maxLength: 8 }),
        fc.oneof(fc.nat(100_000), fc.nat(400)),
        (specs, budget) => {
          const chunks = specs.map((s, k) => {
            const c = chunk(`f${k}.ts`, 1 + k * 30, s.n, s.score, 'naïve🚀');
            return s.crlf ? { ...c, text: c.text.replace(/\n/g, '\r\n') } : c;
          });
          const p = packChunks(chunks, budget, tok);
          expect(p.totalTokens).toBe(tok.count(p.text));
          expect(p.totalTokens).toBeLessThanOrEqual(budget);
          expect(p.text).not.toContain('\r');
          for (let k = 1; k < p.chunks.length; k++) expect(p.chunks[k - 1].score).toBeGreaterThanOrEqual(p.chunks[k].score);
        },
      ),
      { numRuns: 100 },
    );
  });
});
