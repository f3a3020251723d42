// Depth where the query's need is uncertain: an outline completes members whole, the cheapest first; a whole is
// counted exactly against the room it must fit; the relevance stop keeps new objects out, not a shown block's members.
import { describe, expect, it } from 'vitest';
import { allocate } from '../../allocator/allocate.ts';
import { outlinePlan, outlineWithin } from '../../allocator/outline.ts';
import { renderInput, wholeText, wholeTokens, wholeWithin } from '../../allocator/render.ts';
import type { ObjectText } from '../../allocator/types.ts';
import { getTokenizer } from '../../indexer/tokenizer.ts';
import type { Candidate } from '../../indexer/types.ts';
import { memorySource, obj, view } from './fixtures.ts';

const tok = getTokenizer('cl100k_base');
const structural = (c: Candidate): Candidate => ({ ...c, viaStructure: true, reason: 'structural: imported by the query' });

/** A class whose methods have the given body lengths (in order), each method `m<k>` with a docstring. */
function classOf(bodies: readonly number[]): { cls: ObjectText; methods: ObjectText[]; lines: string[] } {
  const lines = ['class Engine:', '    """Runs things."""', ''];
  const methods: ObjectText[] = [];
  bodies.forEach((n, k) => {
    const start = lines.length + 1;
    lines.push(`    def m${k}(self, x):`, `        """Method ${k}."""`, ...Array.from({ length: n }, (_, i) => `        v${i} = x * ${i} + ${k}`), '');
    const end = lines.length - 1;
    methods.push({
      id: `m${k}`, path: 'pkg/engine.py', name: `m${k}`, qualifiedName: `Engine.m${k}`, kind: 'method', signature: `def m${k}(self, x)`,
      startLine: start, endLine: end, parentId: 'cls', docstring: `"""Method ${k}."""`, text: lines.slice(start - 1, end).join('\n'),
    });
  });
  const cls: ObjectText = {
    id: 'cls', path: 'pkg/engine.py', name: 'Engine', qualifiedName: 'Engine', kind: 'class', signature: 'class Engine',
    startLine: 1, endLine: lines.length, parentId: null, docstring: '"""Runs things."""', text: lines.join('\n'),
  };
  return { cls, methods, lines };
}

const shownWhole = (shown: ReadonlySet<number>, m: ObjectText, base: number) => {
  for (let l = m.startLine; l <= m.endLine; l++) if (!shown.has(l - base)) return false;
  return true;
};

describe('outlines grow whole members, the cheapest first', () => {
  // Long, short, long, short, medium: an allowance past the listings holds the short ones whole, not the long.
  const { cls, methods } = classOf([40, 2, 40, 3, 12]);
  const input = renderInput(cls);
  const plan = outlinePlan(cls, input, methods);
  const listingsOnly = outlineWithin(input, plan, 10_000, tok, { touched: [], opening: 3 })!;

  it('after the listings, the shortest members are shown whole before longer ones and before the opening lines', () => {
    const allowance = listingsOnly.tokens + 200;
    const o = outlineWithin(input, plan, allowance, tok, { touched: [], opening: 'grow' })!;
    expect(o.tokens).toBeLessThanOrEqual(allowance);
    expect(o.tokens).toBe(tok.count(o.text));
    const whole = methods.map((m) => shownWhole(o.shown, m, cls.startLine));
    expect(whole).toEqual([false, true, false, true, true]);
    // The opening grows only after them: the first (long) member's body is not shown past its listing.
    expect(o.text).not.toContain('        v30 = x * 30 + 0');
  });

  it('a larger allowance shows more members whole, never a longer one before a shorter one', () => {
    let before = 0;
    for (const extra of [50, 150, 400, 900, 2000]) {
      const o = outlineWithin(input, plan, listingsOnly.tokens + extra, tok, { touched: [], opening: 'grow' })!;
      const whole = methods.filter((m) => shownWhole(o.shown, m, cls.startLine));
      expect(whole.length).toBeGreaterThanOrEqual(before);
      before = whole.length;
      const longest = Math.max(0, ...whole.map((m) => m.endLine - m.startLine));
      for (const m of methods) if (m.endLine - m.startLine < longest) expect(whole).toContain(m);
    }
  });
});

describe('a whole is counted exactly against the room it must fit', () => {
  it('an estimate made against a smaller limit is never taken for the exact count', () => {
    // Many short lines, each more than one token: `wholeTokens` under a small limit answers with its non-blank
    // line count, below the exact count.
    const o = obj('f', 'pkg/f.py', 1, ['def f(x):', ...Array.from({ length: 60 }, (_, i) => `    value_${i} = compute(x, ${i})`)]);
    const input = renderInput(o);
    const exact = tok.count(wholeText(input));
    const estimate = wholeTokens(input, 10, tok);
    expect(estimate).toBeGreaterThan(10);
    expect(estimate).toBeLessThan(exact);
    // Room between the estimate and the exact count: it does not fit; room for it: its exact tokens.
    expect(wholeWithin(input, estimate, tok)).toBeNull();
    expect(wholeWithin(input, exact - 1, tok)).toBeNull();
    expect(wholeWithin(input, exact, tok)).toMatchObject({ tokens: exact, outcome: 'whole' });
  });
});

describe('the relevance stop keeps new objects out, not the members of a block already shown', () => {
  it('a member ranked below the stop is expanded in its class\'s outline; an unrelated object as low takes no block', () => {
    const { cls, methods } = classOf(Array.from({ length: 30 }, () => 6));
    const core = obj('core', 'pkg/core.py', 1, ['def core(x):', '    return x'], { name: 'core' });
    const low = obj('low', 'pkg/low.py', 1, ['def low(x):', '    return x + 1'], { name: 'low' });
    const member = methods[17];
    const objects = [core, cls, ...methods, low];
    const candidates = [
      structural(view(core, 1)), structural({ ...view(cls, 0.9), receiver: true }),
      structural(view(member, 0.1)), structural(view(low, 0.1)),
    ];
    const query = 'from pkg.engine import Engine\ne = Engine()\ne.m17(';
    const a = allocate(query, candidates, memorySource(objects), tok, { slots: '2+0', budget: 1200, objectCap: 400, fillRelevance: 0.5 });
    expect(a.totalTokens).toBeLessThanOrEqual(1200);
    const block = a.blocks.find((b) => b.object === 'Engine')!;
    expect(block.outline).toBe(true);
    for (const l of member.text.split('\n')) expect(block.text.split('\n')).toContain(l);
    expect(a.blocks.map((b) => b.object)).not.toContain('low');
    expect(a.trace.fill!.notConsidered).toBeGreaterThanOrEqual(1);
    // Without the stop the low object takes a block of its own.
    const all = allocate(query, candidates, memorySource(objects), tok, { slots: '2+0', budget: 1200, objectCap: 400, fillRelevance: 0 });
    expect(all.blocks.map((b) => b.object)).toContain('low');
  });
});
