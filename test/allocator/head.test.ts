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

describe('objects found through structure: lengths by token authority, heads only in the fill', () => {
  it('a structure-found object longer than 15 lines is shown whole when b_i allows, and from its declaration down when not', () => {
    const target = fn('target', 'pkg/a.py', 40, 'frobnicate');
    const query = 'import pkg.a\nfrobnicate(y)';
    const whole = allocate(query, [structural(view(target, 3))], memorySource([target]), tok, { slots: '1+0' });
    expect(whole.blocks).toHaveLength(1);
    expect(whole.blocks[0]).toMatchObject({ role: 'core', startLine: 1, endLine: 40, shownStartLine: 1, shownEndLine: 40 });
    expect(whole.blocks[0].text.split('\n').slice(1)).toEqual(target.text.split('\n'));
    expect(whole.trace.render[0].outcome).toBe('whole');

    // b_i below d_i: the object grows from its declaration (a query-found one centres on its best line).
    const tight = allocate(query, [structural(view(target, 3))], memorySource([target]), tok, { slots: '1+0', budget: 120 });
    expect(tight.blocks[0].shownStartLine).toBe(1);
    expect(tight.blocks[0].shownEndLine).toBeLessThan(40);
    const byWords = allocate(query, [view(target, 3)], memorySource([target]), tok, { slots: '1+0', budget: 120 });
    expect(byWords.blocks[0].shownEndLine).toBe(40);
    expect(byWords.blocks[0].shownStartLine).toBeGreaterThan(1);
  });

  it('the fill lists further objects in rank order, structure-found first: heads breadth first, whole where what is left allows; never cut', () => {
    const core = ['c1', 'c2'].map((id) => fn(id, `pkg/${id}.py`, 30));
    const further = ['f1', 'f2', 'f3'].map((id) => fn(id, `pkg/${id}.py`, 30));
    // A head too large for what is left (15 long lines), ranked before a small one that fits.
    const wide = obj('wide', 'pkg/wide.py', 1, Array.from({ length: 20 }, (_, i) => `WIDE_${i} = "${'lorem ipsum dolor sit amet '.repeat(12)}"`), { name: 'wide' });
    const small = fn('small', 'pkg/small.py', 3);
    const byText = fn('by_text', 'pkg/text.py', 5);
    const objects = [...core, ...further, wide, small, byText];
    const candidates = [
      structural(view(core[0], 10)), structural(view(core[1], 9)),
      view(byText, 8.5), // found by its words: filled after the objects found through structure
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
    expect(names).not.toContain('wide');
    expect(names.slice(0, 2)).toEqual(['f1', 'f2']);
    expect(names).toContain('small');
    for (const b of listed) {
      const o = objects.find((x) => x.name === b.object)!;
      // Never cut: a head (the first 15 lines) or the whole object.
      expect(b.shownStartLine).toBe(1);
      expect([Math.min(o.endLine, 15), o.endLine]).toContain(b.shownEndLine);
      expect(b.text.split('\n').slice(1)).toEqual(o.text.split('\n').slice(0, b.shownEndLine));
    }
    expect(a.trace.interface).toMatchObject({ headLines: 15, added: listed.length });
    expect(a.trace.interface!.skipped).toBeGreaterThanOrEqual(1);
    expect(explain(a)).toMatch(/fill: \d+ tokens left by the slots -> \d+ whole, \d+ outline\(s\), \d+ head\(s\)/);

    // With room for all, the fill shows them whole, the object found by its words too (role `fill`).
    const roomy = allocate('from pkg import c1, c2, f1, f2, f3, small, wide', candidates, memorySource(objects), tok, { slots: '2+0', budget: 8000 });
    expect(roomy.blocks.map((b) => [b.object, b.shownEndLine])).toEqual(
      [...core, ...further.slice(0, 1), wide, further[1], small, further[2], byText].map((o) => [o.name, o.endLine]));
    expect(roomy.blocks.at(-1)!.role).toBe('fill');
  });

  it('a structure-found slot that b_i cannot show whole shows its head while further structure-found objects wait, and grows after them', () => {
    const long = fn('long', 'pkg/long.py', 200);
    const further = ['g1', 'g2', 'g3'].map((id) => fn(id, `pkg/${id}.py`, 12));
    const objects = [long, ...further];
    const candidates = objects.map((o, k) => structural(view(o, 10 - k)));
    const tight = allocate('from pkg import long, g1, g2, g3', candidates, memorySource(objects), tok, { slots: '1+0', budget: 800 });
    // b_1 alone would be the whole budget; the head first leaves the others room to be shown whole, then it deepens.
    expect(tight.trace.budget.steps[0].result).toBeGreaterThan(780);
    expect(tight.blocks.map((b) => b.object)).toEqual(['long', 'g1', 'g2', 'g3']);
    expect(tight.blocks.slice(1).every((b) => b.shownStartLine === 1 && b.shownEndLine === 12)).toBe(true);
    expect(tight.blocks[0].shownStartLine).toBe(1);
    expect(tight.blocks[0].shownEndLine).toBeGreaterThanOrEqual(15);
    expect(tight.totalTokens).toBeLessThanOrEqual(800);
    // With room left after every head, the slot grows back from its declaration (within b_obj).
    const roomy = allocate('from pkg import long, g1, g2, g3', candidates, memorySource(objects), tok, { slots: '1+0', budget: 4096 });
    expect(roomy.blocks[0]).toMatchObject({ object: 'long', shownStartLine: 1 });
    expect(roomy.blocks[0].shownEndLine).toBeGreaterThan(100);
    expect(roomy.blocks[0].tokens).toBeLessThanOrEqual(roomy.trace.budget.objectCap);
    // Without further structure-found objects the slot keeps its b_i window.
    const alone = allocate('from pkg import long', [candidates[0]], memorySource(objects), tok, { slots: '1+0', budget: 800 });
    expect(alone.blocks[0].shownEndLine).toBeGreaterThan(15);
  });

  it('--no-fill keeps the paper\'s strict K slots; headLines 0 turns the heads off, not the fill', () => {
    const objects = ['a', 'b', 'c'].map((id) => fn(id, `pkg/${id}.py`, 40));
    const candidates = objects.map((o, k) => structural(view(o, 5 - k)));
    const strict = allocate('from pkg import a, b, c', candidates, memorySource(objects), tok, { slots: '1+0', noFill: true });
    expect(strict.blocks.map((b) => [b.object, b.shownStartLine, b.shownEndLine])).toEqual([['a', 1, 40]]);
    expect(strict.trace.fill).toBeNull();
    expect(explain(strict)).toMatch(/fill: off/);
    const on = allocate('from pkg import a, b, c', candidates, memorySource(objects), tok, { slots: '1+0' });
    expect(on.blocks.map((b) => [b.object, b.role, b.shownStartLine, b.shownEndLine])).toEqual([
      ['a', 'core', 1, 40], ['b', 'interface', 1, 40], ['c', 'interface', 1, 40],
    ]);
    // A budget for heads only: 0 head lines leaves nothing the fill may show of objects that do not fit whole.
    const headsOnly = allocate('from pkg import a, b, c', candidates, memorySource(objects), tok, { slots: '1+0', budget: 700 });
    expect(headsOnly.blocks.filter((b) => b.role === 'interface').every((b) => b.shownEndLine === 15)).toBe(true);
    const off = allocate('from pkg import a, b, c', candidates, memorySource(objects), tok, { slots: '1+0', budget: 700, headLines: 0 });
    expect(off.blocks.filter((b) => b.role === 'interface').every((b) => b.shownEndLine === 40)).toBe(true);
    expect(off.blocks.length).toBeLessThan(headsOnly.blocks.length);
  });
});

describe('texts are read only for what renders', () => {
  it('ranks and picks companions from objects without text; reads the texts of the slots and of what the fill considers', () => {
    // Five objects in each of 8 files, on lines of their own.
    const objects = Array.from({ length: 40 }, (_, k) => {
      const o = fn(`f${k}`, `pkg/m${k % 8}.py`, 6);
      const startLine = 1 + 10 * Math.floor(k / 8);
      return { ...o, startLine, endLine: startLine + 5 };
    });
    const asked: string[][] = [];
    const base = memorySource(objects);
    const source = { ...base, objects: (ids: string[]) => (asked.push(ids), base.objects(ids)) };
    const prose = allocate('f0 f1', objects.map((o, k) => view(o, 40 - k)), source, tok, { budget: 4096, fillRelevance: 0 });
    expect(new Set(asked.flat()).size).toBe(prose.blocks.length);
    expect(prose.blocks.length).toBe(40);
    asked.length = 0;
    const small = allocate('f0 f1', objects.map((o, k) => view(o, 40 - k)), source, tok, { budget: 400 });
    // Each text is read once, and the fill stops reading when the budget is spent.
    expect(asked.flat().length).toBe(new Set(asked.flat()).size);
    expect(small.totalTokens).toBeLessThanOrEqual(400);
    expect(small.blocks.length).toBeLessThan(40);
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
