import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blockHeader, renderBlocks, sliceLines, type BlockRequest } from '../../allocator/files/render.ts';
import type { FileContent, FileUnavailable } from '../../allocator/files/types.ts';
import { countLines } from '../../indexer/store/file-source.ts';
import { getTokenizer } from '../../indexer/tokenizer.ts';

const tok = getTokenizer('cl100k_base');

function memoryFiles(files: Record<string, string>) {
  return {
    content(p: string): FileContent | FileUnavailable {
      const text = files[p];
      return text === undefined ? { reason: 'not-indexed', message: `${p} is not in the index` } : { text, lineCount: countLines(text) };
    },
  };
}

const lines = (n: number, word: string) => Array.from({ length: n }, (_, i) => `${word}_${i} = compute_${word}(${i})  # line ${i}`).join('\n') + '\n';

describe('rendering within the budget: skip, never cut', () => {
  const files = { 'big.py': lines(400, 'big'), 'mid.py': lines(60, 'mid'), 'small.py': lines(5, 'small'), 'tiny.py': 'x = 1\n' };
  const whole = (p: string) => tok.count(`${blockHeader({ path: p, role: 'file', startLine: 1, endLine: countLines(files[p as keyof typeof files]) }, true)}\n${files[p as keyof typeof files]}`);

  it('skips a block that does not fit and goes on with the next ones', () => {
    const budget = whole('mid.py') + whole('small.py') + 10;
    const r = renderBlocks(['big.py', 'mid.py', 'small.py'].map((path) => ({ path, role: 'file' as const })), memoryFiles(files), tok, { budget });
    expect(r.blocks.map((b) => b.path)).toEqual(['mid.py', 'small.py']);
    expect(r.skipped).toEqual([expect.objectContaining({ path: 'big.py', role: 'file', tokens: whole('big.py'), reason: expect.stringMatching(/would exceed the budget/) })]);
    for (const b of r.blocks) expect(b.text).toBe(files[b.path as keyof typeof files]);
    expect(r.totalTokens).toBe(tok.count(r.text));
    expect(r.totalTokens).toBeLessThanOrEqual(budget);
  });

  it('honours the per-file and per-span caps', () => {
    const requests: BlockRequest[] = [
      { path: 'big.py', role: 'file' },
      { path: 'mid.py', role: 'file' },
      { path: 'big.py', role: 'evidence', startLine: 1, endLine: 300, search: 'definition big' },
      { path: 'small.py', role: 'evidence', startLine: 2, endLine: 3, search: 'callers small' },
    ];
    const r = renderBlocks(requests, memoryFiles(files), tok, { budget: 1_000_000, fileCap: whole('mid.py'), spanCap: 200 });
    expect(r.blocks.map((b) => [b.path, b.role])).toEqual([['mid.py', 'file'], ['small.py', 'evidence']]);
    expect(r.skipped.map((s) => [s.path, s.role, s.reason.replace(/\(.*\)/, '')])).toEqual([
      ['big.py', 'file', 'over the per-file cap '],
      ['big.py', 'evidence', 'over the per-span cap '],
    ]);
    expect(r.blocks[1].text).toBe(sliceLines(files['small.py'], 2, 3));
  });

  it('reports files it cannot read and drops evidence inside files already shown whole', () => {
    const r = renderBlocks(
      [{ path: 'gone.py', role: 'file' }, { path: 'tiny.py', role: 'file' }, { path: 'tiny.py', role: 'evidence', startLine: 1, endLine: 1 }],
      memoryFiles(files), tok, { budget: 10_000 },
    );
    expect(r.blocks.map((b) => b.path)).toEqual(['tiny.py']);
    expect(r.skipped).toEqual([expect.objectContaining({ path: 'gone.py', tokens: 0, reason: 'gone.py is not in the index' })]);
  });

  it('a zero budget shows nothing', () => {
    const r = renderBlocks([{ path: 'tiny.py', role: 'file' }], memoryFiles(files), tok, { budget: 0 });
    expect(r).toMatchObject({ blocks: [], text: '', totalTokens: 0 });
    expect(r.skipped).toHaveLength(1);
  });

  it('property: total within budget, blocks whole and in request order, every request shown or skipped', () => {
    const line = fc.stringMatching(/^[ \ta-zé日_()=:#{}\r.0-9-]{0,30}$/);
    const file = fc.tuple(fc.array(line, { minLength: 0, maxLength: 40 }), fc.constantFrom('\n', '\r\n'), fc.boolean())
      .map(([ls, eol, final]) => ls.join(eol) + (final && ls.length ? eol : ''));
    fc.assert(
      fc.property(fc.array(file, { minLength: 1, maxLength: 6 }), fc.integer({ min: 0, max: 1500 }), fc.integer({ min: 20, max: 800 }), (texts, budget, cap) => {
        const fs: Record<string, string> = Object.fromEntries(texts.map((t, i) => [`f${i}.py`, t]));
        const requests: BlockRequest[] = texts.map((_, i) => ({ path: `f${i}.py`, role: 'file' }));
        const r = renderBlocks(requests, memoryFiles(fs), tok, { budget, fileCap: cap });
        expect(r.totalTokens).toBe(tok.count(r.text));
        expect(r.totalTokens).toBeLessThanOrEqual(budget);
        for (const b of r.blocks) {
          expect(b.text).toBe(fs[b.path]);
          expect(b.tokens).toBeLessThanOrEqual(cap);
        }
        const order = r.blocks.map((b) => Number(b.path.slice(1, -3)));
        expect(order).toEqual([...order].sort((a, b) => a - b));
        expect(r.blocks.length + r.skipped.length).toBe(requests.length);
        for (const s of r.skipped) expect(s.tokens > cap || /budget/.test(s.reason)).toBe(true);
      }),
      { numRuns: 150, seed: 7 },
    );
  });
});
