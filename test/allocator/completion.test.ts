// Depth where the query's need is uncertain: an outline completes members whole, the cheapest first; a whole is
// counted exactly against the room it must fit; the relevance stop keeps new objects out, not a shown block's members.
import { describe, expect, it } from 'vitest';
import { allocate } from '../../allocator/allocate.ts';
import { outlinePlan, outlineWithin } from '../../allocator/outline.ts';
import { renderInput, wholeText, wholeTokens, wholeWithin } from '../../allocator/render.ts';
import type { ObjectText } from '../../allocator/types.ts';
import { getTokenizer } from '../../indexer/tokenizer.ts';
import type { Candidate } from '../../indexer/types.ts';
import { classOf, memorySource, obj, view } from './fixtures.ts';

const tok = getTokenizer('cl100k_base');
const structural = (c: Candidate): Candidate => ({ ...c, viaStructure: true, reason: 'structural: imported by the query' });


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

describe('below the relevance stop, a container takes over its shown parts only within twice them', () => {
  const fnLines = (name: string, n: number) => [`def ${name}(x):`, ...Array.from({ length: n - 2 }, (_, i) => `    s${i} = x + ${i}`), '    return x'];
  /** A module holding `a` and `b` (shown as the K slots), then `extra` lines of its own. */
  function moduleOf(extra: number) {
    const a = fnLines('a', 12);
    const b = fnLines('b', 12);
    const own = Array.from({ length: extra }, (_, i) => `CONST_${i} = ${i}`);
    const lines = ['"""A module."""', ...a, '', ...b, '', ...own];
    const mod = obj('mod', 'pkg/mod.py', 1, lines, { name: 'pkg.mod', kind: 'module', signature: '' });
    const fa = obj('a', 'pkg/mod.py', 2, a, { name: 'a' });
    const fb = obj('b', 'pkg/mod.py', 2 + a.length + 1, b, { name: 'b' });
    return { mod, fa, fb };
  }
  const run = (extra: number, fillRelevance: number) => {
    const { mod, fa, fb } = moduleOf(extra);
    const candidates = [structural(view(fa, 1)), structural(view(fb, 0.9)), structural(view(mod, 0.1))];
    // b_obj above the two functions, below the module: what the module's block shows is what the fill gave it.
    return allocate('from pkg.mod import a, b', candidates, memorySource([mod, fa, fb]), tok, { slots: '2+0', budget: 4096, objectCap: 300, fillRelevance });
  };

  it('a module hardly larger than its shown functions becomes their block whole; a much larger one its outline; above the stop, whole', () => {
    const shownParts = (a: ReturnType<typeof run>) => a.blocks[0].text.split('\n');
    const { fa, fb } = moduleOf(0);
    const small = run(2, 0.5);
    expect(small.blocks.map((b) => [b.object, b.outline ?? false])).toEqual([['pkg.mod', false]]);
    // Below the stop, within twice the functions it takes over: an outline around them, not its 120 lines of its own.
    const large = run(120, 0.5);
    expect(large.blocks.map((b) => [b.object, b.outline ?? false])).toEqual([['pkg.mod', true]]);
    const partsTokens = tok.count(fa.text) + tok.count(fb.text);
    expect(large.blocks[0].tokens).toBeLessThanOrEqual(2 * (partsTokens + 40));
    for (const l of [...fa.text.split('\n'), ...fb.text.split('\n')]) expect(shownParts(large)).toContain(l);
    expect(shownParts(large)).not.toContain('CONST_119 = 119');
    const noStop = run(120, 0);
    expect(noStop.blocks.map((b) => [b.object, b.outline ?? false])).toEqual([['pkg.mod', false]]);
    expect(shownParts(noStop)).toContain('CONST_119 = 119');
    for (const a of [small, large, noStop]) expect(a.totalTokens).toBeLessThanOrEqual(4096);
  });
});
