import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getTokenizer } from '../../indexer/tokenizer.ts';
import { headInput } from '../../allocator/head.ts';
import {
  anchorLine, descriptor, renderInput, renderWithin, sourceLines, wholeText,
} from '../../allocator/render.ts';
import { terms } from '../../allocator/terms.ts';
import { obj } from './fixtures.ts';

const tok = getTokenizer('cl100k_base');

// 200 lines; only lines 150-152 (file lines 229-231) mention the query.
const big = obj('big', 'src/big.py', 80, Array.from({ length: 200 }, (_, k) => {
  if (k === 0) return 'def process(items):';
  if (k >= 149 && k <= 151) return `    total = apply_discount(total, rate)  # step ${k}`;
  return `    value_${k} = compute(items[${k}])`;
}), { name: 'process', signature: 'def process(items):' });

describe('rendering rule: descriptor + largest line-complete window centred on the query', () => {
  it('a clipped object shows the query-matching lines, and says which lines it shows', () => {
    const input = renderInput(big);
    const r = renderWithin(input, 200, terms('apply discount'), tok);
    expect(r.outcome).toBe('clipped');
    expect(r.tokens).toBeLessThanOrEqual(200);
    expect(r.tokens).toBe(tok.count(r.text));
    const [lo, hi] = r.window!;
    expect(lo).toBeLessThanOrEqual(149);
    expect(hi).toBeGreaterThanOrEqual(151);
    expect(lo).toBeGreaterThan(0); // not from the top: centred on the match
    expect(r.text.split('\n')[0]).toBe(`### src/big.py:${80 + lo}-${80 + hi} of 80-279 | process | def process(items):`);
    expect(r.text).toContain('apply_discount(total, rate)  # step 150');
    // Source lines verbatim, whole, in order.
    expect(r.text.split('\n').slice(1)).toEqual(input.lines.slice(lo, hi + 1));
  });

  it('the window is grown alternately up and down: centred within one line when both sides are alike', () => {
    const r = renderWithin(renderInput(big), 200, terms('apply discount'), tok);
    const [lo, hi] = r.window!;
    expect(Math.abs((149 - lo) - (hi - 149))).toBeLessThanOrEqual(1);
    // Largest: one more line either way would not fit.
    const input = renderInput(big);
    const more = (a: number, b: number) => tok.count(`${descriptor(input, [a, b])}\n${input.lines.slice(a, b + 1).join('\n')}`);
    expect(more(lo - 1, hi)).toBeGreaterThan(200);
    expect(more(lo, hi + 1)).toBeGreaterThan(200);
  });

  it('with no matching line the window starts at the declaration', () => {
    const r = renderWithin(renderInput(big), 120, terms('nothing matches here'), tok);
    expect(r.window![0]).toBe(0);
    expect(r.text).toContain('def process(items):');
  });

  it('fits whole when d_i <= b_i', () => {
    const input = renderInput(big);
    const d = tok.count(wholeText(input));
    const r = renderWithin(input, d, [], tok);
    expect(r.outcome).toBe('whole');
    expect(r.tokens).toBe(d);
    // The declaration is the first shown line: the descriptor does not repeat it.
    expect(r.text.split('\n')[0]).toBe('### src/big.py:80-279 | process');
  });

  it('the descriptor names the signature only when the shown lines do not start at the declaration (no line twice)', () => {
    const input = renderInput(big);
    expect(descriptor(input, [0, 10])).toBe('### src/big.py:80-90 of 80-279 | process');
    expect(descriptor(input, [5, 10])).toBe('### src/big.py:85-90 of 80-279 | process | def process(items):');
    // A head (the object's first lines) shows its declaration; a span of the object that starts later does not.
    const head = headInput(big, 15);
    expect(descriptor(head, [0, head.lines.length - 1])).toBe('### src/big.py:80-94 of 80-279 | process');
    const span = renderInput(big, { startLine: 100, endLine: 120 });
    expect(descriptor(span, [0, 3])).toBe('### src/big.py:100-103 of 100-120 | process | def process(items):');
  });

  it('renders as nothing when even the descriptor does not fit; descriptor only when no line fits', () => {
    const input = renderInput(big);
    const descOnly = tok.count(descriptor(input, null));
    expect(renderWithin(input, descOnly - 1, [], tok)).toMatchObject({ text: '', tokens: 0, outcome: 'empty: descriptor does not fit' });
    const r = renderWithin(input, descOnly, [], tok);
    expect(r).toMatchObject({ outcome: 'descriptor only', window: null, tokens: descOnly });
    expect(r.text).toBe('### src/big.py:80-279 (source omitted) | process | def process(items):');
  });

  it('CRLF source lines are split on \\r?\\n and re-joined with \\n; a final newline adds no line', () => {
    const o = obj('crlf', 'w.ts', 1, ['function w() {', '  return 1;', '}', ''], {}, '\r\n');
    o.endLine = 3;
    expect(sourceLines(o.text, 3)).toEqual(['function w() {', '  return 1;', '}']);
    const r = renderWithin(renderInput(o), 1000, [], tok);
    expect(r.text).toBe('### w.ts:1-3 | crlf\nfunction w() {\n  return 1;\n}');
    expect(r.text).not.toContain('\r');
  });

  it('non-ASCII source is shown verbatim and counted exactly', () => {
    const o = obj('jp', 'src/日本.ts', 5, ['function 挨拶(名前: string) {', '  // ünïcödé 🚀 naïve café', '  return `こんにちは ${名前}`;', '}']);
    const full = renderWithin(renderInput(o), 10_000, [], tok);
    expect(full.text).toContain('  return `こんにちは ${名前}`;');
    for (let b = 0; b < full.tokens; b++) {
      const r = renderWithin(renderInput(o), b, terms('こんにちは'), tok);
      expect(r.tokens).toBe(tok.count(r.text));
      expect(r.tokens).toBeLessThanOrEqual(b);
    }
  });

  it('anchorLine picks the first line with the most distinct query tokens', () => {
    expect(anchorLine(['a config', 'parse config', 'parse config again'], ['parse', 'config']).index).toBe(1);
    expect(anchorLine(['x', 'y'], ['parse'])).toEqual({ index: 0, terms: [] });
  });

  it('a view span renders the view lines of the object (noQuotient), clamped to the object', () => {
    const input = renderInput(big, { startLine: 229, endLine: 231 });
    expect(input.startLine).toBe(229);
    expect(input.lines).toHaveLength(3);
    expect(renderInput(big, { startLine: 270, endLine: 400 }).lines).toHaveLength(10);
    expect(renderInput(big, { startLine: 1, endLine: 5 }).lines).toHaveLength(200); // outside: the whole object
  });
});

describe('rendering properties', () => {
  const lineArb = fc.array(fc.constantFrom('parse', 'config', '  ', 'x', '{', '}', 'ünï', '🚀', 'a_b', '\t', '0'), { maxLength: 12 }).map((w) => w.join(' '));
  const caseArb = fc.record({
    lines: fc.array(lineArb, { minLength: 1, maxLength: 50 }),
    allowance: fc.nat(400),
    query: fc.constantFrom('parse', 'config', 'parse config', '', 'zzz'),
    from: fc.constantFrom('query' as const, 'start' as const),
  });

  it('exact, within the allowance, verbatim contiguous lines, and the largest window grown from the anchor', () => {
    fc.assert(
      fc.property(caseArb, ({ lines, allowance, query, from }) => {
        const input = renderInput(obj('p', 'src/p.ts', 7, lines, { signature: 'function p()' }));
        const r = renderWithin(input, allowance, terms(query), tok, { from });
        expect(r.tokens).toBe(tok.count(r.text));
        expect(r.tokens).toBeLessThanOrEqual(allowance);
        if (!r.window) return;
        const [lo, hi] = r.window;
        expect(r.text.split('\n').slice(1)).toEqual(input.lines.slice(lo, hi + 1));
        if (r.outcome === 'whole') return;
        if (from === 'start') expect(lo).toBe(0);
        expect(lo).toBeLessThanOrEqual(r.anchor);
        expect(hi).toBeGreaterThanOrEqual(r.anchor);
        const cost = (a: number, b: number) => tok.count(`${descriptor(input, [a, b])}\n${input.lines.slice(a, b + 1).join('\n')}`);
        if (lo > 0 && from === 'query') expect(cost(lo - 1, hi)).toBeGreaterThan(allowance);
        if (hi < input.lines.length - 1) expect(cost(lo, hi + 1)).toBeGreaterThan(allowance);
      }),
      { numRuns: 150 },
    );
  });
});
