import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocate } from '../../allocator/allocate.ts';
import { growthBefore, type Growth } from '../../allocator/growth.ts';
import { getTokenizer } from '../../indexer/tokenizer.ts';
import type { Candidate } from '../../indexer/types.ts';
import { memorySource, obj, view } from './fixtures.ts';

const tok = getTokenizer('cl100k_base');
const structural = (c: Candidate, relevance?: number): Candidate =>
  ({ ...c, viaStructure: true, reason: 'structural: imported by the query', ...(relevance !== undefined ? { relevance } : {}) });
const fn = (id: string, n: number) =>
  obj(id, `pkg/${id}.py`, 1, [`def ${id}(x):`, ...Array.from({ length: n - 2 }, (_, i) => `    step_${i} = x + ${i}`), '    return x'], { name: id });

describe('growth against breadth: support per token', () => {
  const offer = (support: number, cost: number): Growth => ({ support, cost } as Growth);

  it.each([
    { name: 'a growth worth more per token than the next object', offers: [[1, 100]], next: [1, 200], pick: 0 },
    { name: 'the next object worth more per token', offers: [[1, 200]], next: [1, 100], pick: null },
    { name: 'a tie goes to the new object (breadth)', offers: [[1, 100]], next: [1, 100], pick: null },
    { name: 'the densest of several growths', offers: [[1, 300], [0.9, 100], [1, 150]], next: [0.5, 200], pick: 1 },
    { name: 'no growth offered', offers: [], next: [1, 1], pick: null },
  ])('$name', ({ offers, next, pick }) => {
    const os = offers.map(([s, c]) => offer(s, c));
    expect(growthBefore(os, next[0], next[1])).toBe(pick === null ? null : os[pick]);
  });

  it('what it picks has the most support per token, and beats the next object', () => {
    const pair = fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 1, max: 2000 }));
    fc.assert(fc.property(fc.array(pair, { maxLength: 8 }), pair, (offers, [s, c]) => {
      const os = offers.map(([support, cost]) => offer(support, cost));
      const g = growthBefore(os, s, c);
      if (g === null) {
        for (const o of os) expect(o.support * c).toBeLessThanOrEqual(s * o.cost * (1 + 1e-9) + 1e-12);
      } else {
        expect(g.support * c).toBeGreaterThan(s * g.cost);
        for (const o of os) expect(o.support * g.cost).toBeLessThanOrEqual(g.support * o.cost * (1 + 1e-9) + 1e-12);
      }
    }));
  });

  // One slot, then a 40-line object found through structure, then more further objects than the budget holds.
  function run(firstRelevance: number, othersRelevance: number) {
    const core = fn('core', 10);
    const first = fn('first', 40);
    const others = Array.from({ length: 12 }, (_, k) => fn(`other_${k}`, 60));
    const objects = [core, first, ...others];
    const candidates = [
      structural(view(core, 100), 1), structural(view(first, 99), firstRelevance),
      ...others.map((o, k) => structural(view(o, 98 - k), othersRelevance)),
    ];
    return allocate(`from pkg import ${objects.map((o) => o.name).join(', ')}`, candidates, memorySource(objects), tok, { slots: '1+0', budget: 1500, fillRelevance: 0 });
  }

  it('an object much more likely used than the others grows whole before their heads; near ties keep breadth', () => {
    const likely = run(1, 0.2);
    expect(likely.totalTokens).toBeLessThanOrEqual(1500);
    expect(likely.blocks.find((b) => b.object === 'first')).toMatchObject({ shownStartLine: 1, shownEndLine: 40 });
    // Near ties: its head, and one more of the others' heads for the room its whole would have taken.
    const tied = run(0.99, 0.98);
    expect(tied.totalTokens).toBeLessThanOrEqual(1500);
    expect(tied.blocks.find((b) => b.object === 'first')).toMatchObject({ shownStartLine: 1, shownEndLine: 15 });
    const heads = (a: ReturnType<typeof run>) => a.blocks.filter((b) => b.object.startsWith('other_')).length;
    expect(heads(tied)).toBeGreaterThan(heads(likely));
    // Both: the fill's blocks are whole or heads, never cut elsewhere.
    for (const a of [likely, tied]) {
      for (const b of a.blocks.filter((x) => x.role === 'interface')) {
        const n = b.object === 'first' ? 40 : 60;
        expect([15, n]).toContain(b.shownEndLine);
      }
    }
  });
});

describe('the depth step grows an outline\'s nested objects whole', () => {
  it('a slot class whose touched member b_obj could not show whole shows it whole when the budget allows', () => {
    const head = ['class Engine:', '    """An engine."""'];
    const small = Array.from({ length: 6 }, (_, k) => [`    def m${k}(self):`, `        return ${k}`]).flat();
    const big = ['    def run(self, x):', ...Array.from({ length: 60 }, (_, i) => `        y_${i} = x + ${i}`), '        return x'];
    const lines = [...head, ...small, ...big];
    const cls = obj('cls', 'pkg/engine.py', 1, lines, { name: 'Engine', kind: 'class', signature: 'class Engine' });
    const run = obj('run', 'pkg/engine.py', 1 + head.length + small.length, big, { name: 'run', qualifiedName: 'Engine.run', signature: 'def run(self, x)' });
    const methods = Array.from({ length: 6 }, (_, k) => obj(`m${k}`, 'pkg/engine.py', 3 + 2 * k, small.slice(2 * k, 2 * k + 2), { name: `m${k}`, qualifiedName: `Engine.m${k}` }));
    const candidates = [structural({ ...view(cls, 1), receiver: true }, 1), structural(view(run, 0.9), 0.9)];
    const query = 'from pkg.engine import Engine\ne = Engine()\ne.run(';
    const source = memorySource([cls, run, ...methods]);
    // b_obj well below the class and its member: the slot's outline shows the member's opening only.
    const strict = allocate(query, candidates, source, tok, { slots: '2+0', budget: 4096, objectCap: 200, noFill: true });
    const member = (a: ReturnType<typeof allocate>) => run.text.split('\n').every((l) => a.text.split('\n').includes(l));
    expect(member(strict)).toBe(false);
    const a = allocate(query, candidates, source, tok, { slots: '2+0', budget: 4096, objectCap: 200, fillRelevance: 0 });
    expect(a.totalTokens).toBeLessThanOrEqual(4096);
    expect(member(a)).toBe(true);
    // Still one block for the class and its member: no line twice.
    expect(a.blocks.filter((b) => b.path === 'pkg/engine.py')).toHaveLength(1);
  });
});
