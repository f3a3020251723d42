// Fill order: what extends an allocated block (a member of the same class as a slot) comes before the heads of the
// query's further imports, so a class's members the query calls through a receiver are shown, not only listed.
import { describe, expect, it } from 'vitest';
import { allocate } from '../../allocator/allocate.ts';
import type { ObjectText } from '../../allocator/types.ts';
import { getTokenizer } from '../../indexer/tokenizer.ts';
import type { Candidate } from '../../indexer/types.ts';
import { classOf, memorySource, obj, view } from './fixtures.ts';

const tok = getTokenizer('cl100k_base');
const structural = (c: Candidate, reason = 'structural: imported by the query'): Candidate => ({ ...c, viaStructure: true, reason });


/** An imported function of `n` lines in its own module. */
const imported = (k: number, n: number): ObjectText =>
  obj(`f${k}`, `pkg/mod${k}.py`, 1, [`def f${k}(x):`, ...Array.from({ length: n - 1 }, (_, i) => `    w${i} = x - ${i} * ${k}`)], { name: `f${k}` });

const shows = (text: string, o: ObjectText) => o.text.split('\n').every((l) => text.split('\n').includes(l));

describe('the fill extends the slots\' classes before it lists further imports', () => {
  const { cls, methods } = classOf(Array.from({ length: 12 }, () => 8));
  const imports = Array.from({ length: 10 }, (_, k) => imported(k, 12));
  const member = 'structural: member of Engine, a receiver in the query (e: Engine)';
  const candidates = [
    structural(view(methods[0], 1), member),
    ...imports.map((f, k) => structural(view(f, 0.9 - k * 0.02))),
    structural(view(methods[7], 0.5), member),
    structural({ ...view(cls, 0.4), receiver: true }),
  ];
  const query = `from pkg.engine import Engine\n${imports.map((f) => `from pkg.${f.path.slice(4, -3)} import ${f.name}`).join('\n')}\ne = Engine()\ne.m0(`;
  const source = memorySource([cls, ...methods, ...imports]);

  it('a member of the class of a slot ranked below the imports is shown whole when the imports\' heads cannot all fit', () => {
    const B = 700;
    const a = allocate(query, candidates, source, tok, { slots: '1+0', budget: B, fillRelevance: 0 });
    expect(a.totalTokens).toBeLessThanOrEqual(B);
    // The budget is short of every import: some of them get no block ...
    expect(imports.filter((f) => !a.blocks.some((b) => shows(b.text, f))).length).toBeGreaterThan(0);
    // ... yet the slot's sibling member is shown whole.
    expect(a.blocks.some((b) => shows(b.text, methods[7]))).toBe(true);
    expect(a.blocks.some((b) => shows(b.text, methods[0]))).toBe(true);
  });

  it('with room for everything, every import and both members are shown (the order changes what is cut, not what fits)', () => {
    const a = allocate(query, candidates, source, tok, { slots: '1+0', budget: 4096, fillRelevance: 0 });
    for (const f of imports) expect(a.blocks.some((b) => shows(b.text, f))).toBe(true);
    for (const m of [methods[0], methods[7]]) expect(a.blocks.some((b) => shows(b.text, m))).toBe(true);
  });
});

describe('a class around the slots\' members and the fill\'s gives way to its outline around the slots alone', () => {
  it('every member is listed, the slot shown whole, the fill\'s members again as room allows, no line twice', () => {
    const { cls, methods } = classOf(Array.from({ length: 30 }, () => 8));
    const member = 'structural: member of Engine, a receiver in the query (e: Engine)';
    const candidates = [
      structural(view(methods[0], 1), member),
      ...[5, 6, 7, 8, 9].map((k, r) => structural(view(methods[k], 0.8 - r * 0.02), member)),
      structural({ ...view(cls, 0.5), receiver: true }),
    ];
    const query = 'from pkg.engine import Engine\ne = Engine()\ne.m0(1)';
    const B = 900;
    const a = allocate(query, candidates, memorySource([cls, ...methods]), tok, { slots: '1+0', budget: B, fillRelevance: 0 });
    expect(a.totalTokens).toBeLessThanOrEqual(B);
    const block = a.blocks.find((b) => b.object === 'Engine');
    expect(block?.outline).toBe(true);
    for (const m of methods) expect(block!.text).toContain(`def ${m.name}(self, x):`);
    expect(shows(block!.text, methods[0])).toBe(true);
    const shown = a.blocks.flatMap((b) => b.text.split('\n'));
    for (const m of methods) expect(shown.filter((l) => l === `    def ${m.name}(self, x):`).length).toBe(1);
  });
});
