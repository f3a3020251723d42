import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocate } from '../../allocator/allocate.ts';
import { ELISION } from '../../allocator/outline.ts';
import type { ObjectText } from '../../allocator/types.ts';
import { getTokenizer } from '../../indexer/tokenizer.ts';
import type { Candidate } from '../../indexer/types.ts';
import { bigClass, functionOf, memorySource, objectsOf, view } from './fixtures.ts';

const tok = getTokenizer('cl100k_base');
const structural = (c: Candidate): Candidate => ({ ...c, viaStructure: true, reason: 'structural: called in the query' });

describe('outlines and containment', () => {
  it('a class of 30 methods that does not fit is an outline within b_i: every signature and docstring line, the touched member whole', () => {
    const { objects, lines } = bigClass(30);
    const cls = objects.find((o) => o.id === 'cls')!;
    const touched = objects.find((o) => o.id === 'm17')!;
    const candidates = [structural(view(cls, 3)), structural(view(touched, 2))];
    const a = allocate('m = Matrix()\nm.op_17(x)', candidates, memorySource(objects), tok, { slots: '2+0', budget: 1200, noFill: true });
    expect(a.blocks).toHaveLength(1);
    const b = a.blocks[0];
    expect(b).toMatchObject({ object: 'Matrix', outline: true, startLine: 1, endLine: cls.endLine });
    expect(b.tokens).toBeLessThanOrEqual(a.trace.render[0].allowance);
    expect(a.trace.render[0]).toMatchObject({ outcome: 'outline', merged: [{ objectId: 'm17', how: 'expanded in parent outline' }] });
    const shown = b.text.split('\n').slice(1);
    expect(b.text.split('\n')[0]).toMatch(/^### pkg\/linalg\.py:1-\d+ \(outline\) \| Matrix/);
    for (let k = 0; k < 30; k++) {
      expect(shown).toContain(`    def op_${k}(self, other, scale=${k}):`);
      expect(shown).toContain(`        """Apply operation ${k} to other."""`);
    }
    // The touched member whole, in place; other bodies hidden behind elision lines.
    const body = lines.slice(touched.startLine - 1, touched.endLine);
    const at = shown.indexOf(body[0]);
    expect(shown.slice(at, at + body.length)).toEqual(body);
    expect(shown).not.toContain('        self.log("op_3", total)');
    expect(shown.some((l) => l.trim() === ELISION)).toBe(true);
    // Every shown line is a line of the class, each shown once.
    expect(shown.filter((l) => l.trim() !== ELISION).every((l) => lines.includes(l))).toBe(true);
    const ranges = b.shown!.flatMap(([x, y]) => Array.from({ length: y - x + 1 }, (_, k) => x + k));
    expect(new Set(ranges).size).toBe(ranges.length);
  });

  it('the fill: a class found through structure is its head first, its outline once every further object had its head; a member found later expands it', () => {
    const { objects: linalg } = bigClass(30);
    const cls = linalg.find((o) => o.id === 'cls')!;
    const m17 = linalg.find((o) => o.id === 'm17')!;
    const fn = (id: string) => functionOf(id, 45);
    const [core, f1, f2, f3] = ['core', 'f1', 'f2', 'f3'].map(fn);
    const objects = [...linalg, core, f1, f2, f3];
    const ranked = [core, cls, f1, f2, f3].map((o, k) => structural(view(o, 10 - k)));
    const query = 'from pkg import core, Matrix, f1, f2, f3';
    const blockOf = (a: ReturnType<typeof allocate>, name: string) => a.blocks.find((b) => b.object === name);

    // Tight: every object has its head; the class is not an outline that would have left no room for the others.
    const tight = allocate(query, ranked, memorySource(objects), tok, { slots: '1+0', budget: 1300 });
    expect(tight.blocks.map((b) => b.object)).toEqual(['core', 'Matrix', 'f1', 'f2', 'f3']);
    expect(blockOf(tight, 'Matrix')).toMatchObject({ shownStartLine: 1, shownEndLine: 15 });
    expect(blockOf(tight, 'Matrix')!.outline).toBeUndefined();
    expect(tight.totalTokens).toBeLessThanOrEqual(1300);

    // What is left after the heads deepens the fill's blocks, the cheapest growth first: at 2000 the three
    // functions whole (each a few hundred tokens more than its head) before the class's outline, which would take more.
    const some = allocate(query, ranked, memorySource(objects), tok, { slots: '1+0', budget: 2000 });
    expect(['f1', 'f2', 'f3'].map((n) => blockOf(some, n)!.shownEndLine)).toEqual([45, 45, 45]);
    expect(blockOf(some, 'Matrix')!.outline).toBeUndefined();
    expect(some.totalTokens).toBeLessThanOrEqual(2000);
    // Roomy: the class deepens into its outline (every member listed) too.
    const roomy = allocate(query, ranked, memorySource(objects), tok, { slots: '1+0', budget: 3200 });
    const outline = blockOf(roomy, 'Matrix')!;
    expect(outline.outline).toBe(true);
    for (let k = 0; k < 30; k++) expect(outline.text).toContain(`    def op_${k}(self, other, scale=${k}):`);
    expect(['f1', 'f2', 'f3'].map((n) => blockOf(roomy, n)!.shownEndLine)).toEqual([45, 45, 45]);
    expect(roomy.totalTokens).toBeLessThanOrEqual(3200);

    // A class the query calls members through is listed as its outline at once (its members are what comes next).
    const asReceiver = allocate(query, ranked.map((c) => (c.objectId === 'cls' ? { ...c, receiver: true } : c)), memorySource(objects), tok, { slots: '1+0', budget: 1500 });
    expect(blockOf(asReceiver, 'Matrix')!.outline).toBe(true);
    expect(asReceiver.totalTokens).toBeLessThanOrEqual(1500);

    // A member found after the class, which shows its head: the head becomes the outline with that member whole.
    const withMember = allocate(query, [...ranked, structural(view(m17, 1))], memorySource(objects), tok, { slots: '1+0', budget: 2200, fillRelevance: 0 });
    expect(withMember.blocks.filter((b) => b.path === 'pkg/linalg.py')).toHaveLength(1);
    const host = blockOf(withMember, 'Matrix')!;
    expect(host.outline).toBe(true);
    expect(host.shown!.some(([x, y]) => x <= m17.startLine && m17.endLine <= y)).toBe(true);
    expect(host.contains).toEqual([{ objectId: 'm17', object: 'Matrix.op_17', how: 'expanded in parent outline' }]);
    expect(withMember.totalTokens).toBeLessThanOrEqual(2200);
  });

  it('a K slot: a class found through structure that b_i shows as an outline starts as its head while further structure-found objects wait, unless the query calls members through it', () => {
    const { objects: linalg } = bigClass(30);
    const cls = linalg.find((o) => o.id === 'cls')!;
    const fn = (id: string) => functionOf(id, 30);
    const further = ['g1', 'g2', 'g3', 'g4'].map(fn);
    const objects = [...linalg, ...further];
    const ranked = [cls, ...further].map((o, k) => structural(view(o, 10 - k)));
    const query = 'from pkg import Matrix, g1, g2, g3, g4';
    const budget = 1400;
    const a = allocate(query, ranked, memorySource(objects), tok, { slots: '1+0', budget });
    const slot = a.blocks.find((b) => b.object === 'Matrix')!;
    // b_1 would hold an outline of most of the budget; its head leaves the others room for theirs.
    expect(a.trace.budget.steps[0].result).toBeGreaterThan(1000);
    expect(a.blocks.map((b) => b.object)).toEqual(['Matrix', 'g1', 'g2', 'g3', 'g4']);
    expect(slot).toMatchObject({ role: 'core', shownStartLine: cls.startLine });
    expect(a.totalTokens).toBeLessThanOrEqual(budget);
    // A receiver class keeps its outline in the slot: the member the query calls next is among its listings.
    const receiver = allocate(query, ranked.map((c) => (c.objectId === 'cls' ? { ...c, receiver: true } : c)), memorySource(objects), tok, { slots: '1+0', budget });
    const listed = receiver.blocks.find((b) => b.object === 'Matrix')!;
    expect(listed.outline).toBe(true);
    for (let k = 0; k < 30; k++) expect(listed.text).toContain(`    def op_${k}(self, other, scale=${k}):`);
    expect(receiver.blocks.length).toBeLessThan(a.blocks.length);
  });

  it('a module and its own class and method in the slots are one block: the class whole inside the module outline', () => {
    const { objects } = bigClass(3);
    const mod = objects.find((o) => o.id === 'mod')!;
    const cls = objects.find((o) => o.id === 'cls')!;
    const m1 = objects.find((o) => o.id === 'm1')!;
    const a = allocate('op', [view(m1, 3), view(mod, 2), view(cls, 1)], memorySource(objects), tok, { slots: '3+0' });
    expect(a.blocks).toHaveLength(1);
    expect(a.blocks[0]).toMatchObject({ object: 'linalg', shownStartLine: 1, shownEndLine: mod.endLine });
    expect(a.trace.render[0].merged!.map((m) => [m.objectId, m.how])).toEqual([['m1', 'inside whole parent'], ['cls', 'inside whole parent']]);
  });

  it('property: random nestings of module/class/method, any retrieval and budget: one block per nest, no repository line twice, never past B', () => {
    // A file: a module of classes of methods; lines are numbered so that a repeated line would be visible.
    const fileArb = fc.array(fc.array(fc.integer({ min: 2, max: 12 }), { minLength: 0, maxLength: 6 }), { minLength: 1, maxLength: 4 });
    const worldArb = fc.array(fileArb, { minLength: 1, maxLength: 3 }).map((files) => {
      const objects: ObjectText[] = [];
      files.forEach((classes, f) => {
        const path = `pkg/f${f}.py`;
        const lines: string[] = [];
        const spans: Parameters<typeof objectsOf>[2] = [];
        classes.forEach((methods, c) => {
          const start = lines.length + 1;
          lines.push(`class C${f}_${c}:`, `    """Class ${c} of file ${f}."""`);
          methods.forEach((len, m) => {
            const s = lines.length + 1;
            lines.push(`    def m${m}(self):  # ${f}.${c}.${m}`, ...Array.from({ length: len - 1 }, (_, i) => `        x_${f}_${c}_${m}_${i} = ${i}`));
            spans.push({ id: `${f}.${c}.${m}`, name: `C${f}_${c}.m${m}`, kind: 'method', start: s, end: lines.length, parentId: `${f}.${c}` });
          });
          spans.push({ id: `${f}.${c}`, name: `C${f}_${c}`, kind: 'class', start, end: lines.length, parentId: `${f}` });
        });
        lines.push(`END_${f} = ${f}`);
        spans.push({ id: `${f}`, name: `f${f}`, kind: 'module', start: 1, end: lines.length, parentId: null });
        objects.push(...objectsOf(path, lines, spans));
      });
      return objects;
    });
    const caseArb = worldArb.chain((objects) => fc.record({
      objects: fc.constant(objects),
      picks: fc.shuffledSubarray(objects, { minLength: 1 }),
      structural: fc.boolean(),
      budget: fc.oneof(fc.integer({ min: 0, max: 600 }), fc.integer({ min: 600, max: 8000 })),
      slots: fc.record({ core: fc.integer({ min: 1, max: 5 }), companion: fc.nat(2) }),
      noFill: fc.boolean(),
    }));
    fc.assert(fc.property(caseArb, (t) => {
      const candidates = t.picks.map((o, k) => (t.structural ? structural(view(o, 100 - k)) : view(o, 100 - k)));
      const a = allocate('def m0(self) C0_0', candidates, memorySource(t.objects), tok, { budget: t.budget, slots: t.slots, noFill: t.noFill });
      expect(a.totalTokens).toBeLessThanOrEqual(t.budget);
      expect(a.totalTokens).toBe(tok.count(a.text));
      const seen = new Set<string>();
      for (const b of a.blocks) {
        for (const [from, to] of b.shown ?? (b.shownStartLine > 0 ? [[b.shownStartLine, b.shownEndLine]] : [])) {
          for (let l = from; l <= to; l++) {
            expect(seen.has(`${b.path}:${l}`)).toBe(false);
            seen.add(`${b.path}:${l}`);
          }
        }
      }
      // No block's object lies inside another block's object: nested ones are merged.
      for (const x of a.blocks) for (const y of a.blocks) {
        if (x === y || x.path !== y.path) continue;
        expect(x.startLine >= y.startLine && x.endLine <= y.endLine).toBe(false);
      }
      // The text holds no line twice except blank and elision lines (every line of these files is distinct).
      const textLines = a.text.split('\n').filter((l) => l.trim() && l.trim() !== ELISION && !l.startsWith('### '));
      expect(new Set(textLines).size).toBe(textLines.length);
    }), { numRuns: 150 });
  });
});
