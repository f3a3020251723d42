import { describe, expect, it } from 'vitest';
import { allocate } from '../../allocator/allocate.ts';
import { buildContext, retrievalDepth } from '../../allocator/context.ts';
import { explain } from '../../allocator/explain.ts';
import { parseAllocateOptions } from '../../allocator/options.ts';
import { headInput } from '../../allocator/head.ts';
import { getTokenizer } from '../../indexer/tokenizer.ts';
import type { Retriever } from '../../indexer/retrieve/retriever.ts';
import type { Candidate } from '../../indexer/types.ts';
import { memorySource, obj, view } from './fixtures.ts';

const tok = getTokenizer('cl100k_base');
const structural = (c: Candidate): Candidate => ({ ...c, viaStructure: true, reason: 'structural: imported by the query' });

/** A function of `n` lines whose last line mentions `word`. */
const fn = (id: string, path: string, n: number, word = 'unrelated') =>
  obj(id, path, 1, [`def ${id}(x):`, ...Array.from({ length: n - 2 }, (_, i) => `    step_${i} = x + ${i}`), `    return ${word}(x)`], { name: id });

describe('heads of objects found through structure', () => {
  it('renders a core object found through structure from its declaration, its first lines only, and says which part', () => {
    const target = fn('target', 'pkg/a.py', 40, 'frobnicate');
    const query = 'import pkg.a\nfrobnicate(y)';
    const head = allocate(query, [structural(view(target, 3))], memorySource([target]), tok, { slots: '1+0' });
    expect(head.blocks).toHaveLength(1);
    expect(head.blocks[0]).toMatchObject({ role: 'core', startLine: 1, endLine: 40, shownStartLine: 1, shownEndLine: 15 });
    expect(head.blocks[0].text.split('\n')[0]).toBe('### pkg/a.py:1-15 of 1-40 | target | def target(x):');
    expect(head.blocks[0].text.split('\n').slice(1)).toEqual(target.text.split('\n').slice(0, 15));

    // The same object found by its words renders whole here (it fits b_obj), and a tight budget centres on the query line.
    const text = allocate(query, [view(target, 3)], memorySource([target]), tok, { slots: '1+0' });
    expect(text.blocks[0]).toMatchObject({ shownStartLine: 1, shownEndLine: 40 });
    const tight = allocate(query, [view(target, 3)], memorySource([target]), tok, { slots: '1+0', budget: 120 });
    expect(tight.blocks[0].shownEndLine).toBe(40);
    expect(tight.blocks[0].shownStartLine).toBeGreaterThan(1);
  });

  it('lists the heads of further objects found through structure with what the slots left, in rank order, skipping what does not fit', () => {
    const core = ['c1', 'c2'].map((id) => fn(id, `pkg/${id}.py`, 30));
    const further = ['f1', 'f2', 'f3'].map((id) => fn(id, `pkg/${id}.py`, 30));
    // A head too large for what is left (15 long lines), ranked before a small one that fits.
    const wide = obj('wide', 'pkg/wide.py', 1, Array.from({ length: 20 }, (_, i) => `WIDE_${i} = "${'lorem ipsum dolor sit amet '.repeat(12)}"`), { name: 'wide' });
    const small = fn('small', 'pkg/small.py', 3);
    const byText = fn('by_text', 'pkg/text.py', 5);
    const objects = [...core, ...further, wide, small, byText];
    const candidates = [
      structural(view(core[0], 10)), structural(view(core[1], 9)),
      view(byText, 8.5), // found by its words only: never listed as a head
      structural(view(further[0], 8)), structural(view(wide, 7.5)), structural(view(further[1], 7)),
      structural(view(small, 6)), structural(view(further[2], 5)),
    ];
    const headTokens = (o: typeof wide) => tok.count(`### x\n${headInput(o, 15).lines.join('\n')}`);
    expect(headTokens(wide)).toBeGreaterThan(600);
    const budget = 1400;
    const a = allocate('from pkg import c1, c2, f1, f2, f3, small, wide', candidates, memorySource(objects), tok, { slots: '2+0', budget });
    expect(a.totalTokens).toBeLessThanOrEqual(budget);
    expect(a.totalTokens).toBe(tok.count(a.text));
    const listed = a.blocks.filter((b) => b.role === 'interface');
    const names = listed.map((b) => b.object);
    expect(names).not.toContain('by_text');
    expect(names).not.toContain('wide');
    expect(names.slice(0, 2)).toEqual(['f1', 'f2']);
    expect(names).toContain('small');
    expect(names.indexOf('small')).toBeLessThan(names.includes('f3') ? names.indexOf('f3') : Infinity);
    for (const b of listed) {
      const o = objects.find((x) => x.name === b.object)!;
      expect(b.shownStartLine).toBe(1);
      expect(b.shownEndLine).toBe(Math.min(o.endLine, 15));
      expect(b.text.split('\n').slice(1)).toEqual(o.text.split('\n').slice(0, b.shownEndLine));
    }
    expect(a.trace.interface).toMatchObject({ headLines: 15, added: listed.length });
    expect(a.trace.interface!.skipped).toBeGreaterThanOrEqual(1);
    expect(explain(a)).toMatch(/interface fill: \d+ tokens left by the slots -> heads \(first 15 lines\) of \d+ further object\(s\) found through structure, \d+ skipped/);
  });

  it('headLines 0 turns heads and the fill off: the allocation is the plain formula over K slots', () => {
    const objects = ['a', 'b', 'c'].map((id) => fn(id, `pkg/${id}.py`, 30));
    const candidates = objects.map((o, k) => structural(view(o, 5 - k)));
    const off = allocate('from pkg import a, b, c', candidates, memorySource(objects), tok, { slots: '1+0', headLines: 0 });
    expect(off.blocks.map((b) => [b.object, b.shownStartLine, b.shownEndLine])).toEqual([['a', 1, 30]]);
    expect(off.trace.interface).toBeNull();
    const on = allocate('from pkg import a, b, c', candidates, memorySource(objects), tok, { slots: '1+0' });
    expect(on.blocks.map((b) => [b.object, b.role, b.shownStartLine, b.shownEndLine])).toEqual([
      ['a', 'core', 1, 15], ['b', 'interface', 1, 15], ['c', 'interface', 1, 15],
    ]);
  });
});

describe('texts are read only for what renders', () => {
  it('ranks and picks companions from objects without text; reads the texts of the slots and of the heads it lists', () => {
    const objects = Array.from({ length: 40 }, (_, k) => fn(`f${k}`, `pkg/m${k % 8}.py`, 6));
    const asked: string[][] = [];
    const base = memorySource(objects);
    const source = { ...base, objects: (ids: string[]) => (asked.push(ids), base.objects(ids)) };
    const prose = allocate('f0 f1', objects.map((o, k) => view(o, 40 - k)), source, tok, { budget: 4096 });
    expect(asked.flat().length).toBe(prose.blocks.length);
    expect(prose.blocks.length).toBe(5);
    asked.length = 0;
    const code = allocate('from pkg import f0', objects.map((o, k) => structural(view(o, 40 - k))), source, tok, { budget: 4096 });
    expect(code.blocks.filter((b) => b.role === 'interface').length).toBe(35);
    expect(new Set(asked.flat()).size).toBe(40);
  });
});

describe('retrieval depth', () => {
  it('retrieves enough views for K slots, and with heads on enough objects for the fill to use the budget', () => {
    expect(retrievalDepth(parseAllocateOptions({ budget: 1024 }))).toBe(50);
    expect(retrievalDepth(parseAllocateOptions())).toBe(64);
    expect(retrievalDepth(parseAllocateOptions({ slots: '8+2' }))).toBe(100);
    expect(retrievalDepth(parseAllocateOptions({ budget: 8192 }))).toBe(128);
    expect(retrievalDepth(parseAllocateOptions({ budget: 8192, headLines: 0 }))).toBe(50);

    const objects = Array.from({ length: 200 }, (_, k) => fn(`f${k}`, `pkg/m${k}.py`, 4));
    const asked: number[] = [];
    const retriever: Retriever = {
      name: 'scripted',
      retrieve(_q, k) {
        asked.push(k);
        return objects.slice(0, k).map((o, i) => structural(view(o, 200 - i)));
      },
    };
    const a = buildContext('from pkg import f0', retriever, memorySource(objects), { budget: 8192 }, tok);
    expect(asked).toEqual([128]);
    expect(a.trace.depth).toBe(128);
    expect(a.blocks.filter((b) => b.role === 'interface').length).toBeGreaterThan(50);
    expect(a.totalTokens).toBeLessThanOrEqual(8192);
  });
});
