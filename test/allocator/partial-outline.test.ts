import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocate } from '../../allocator/allocate.ts';
import { outlineOrPartial, outlinePlan, outlineWithin } from '../../allocator/outline.ts';
import { renderInput } from '../../allocator/render.ts';
import { getTokenizer } from '../../indexer/tokenizer.ts';
import type { Candidate } from '../../indexer/types.ts';
import { bigClass, functionOf as fn, memorySource, view } from './fixtures.ts';

const tok = getTokenizer('cl100k_base');
const structural = (c: Candidate): Candidate => ({ ...c, viaStructure: true, reason: 'structural: called in the query' });

const setup = (n: number) => {
  const { objects, lines } = bigClass(n);
  const cls = objects.find((o) => o.id === 'cls')!;
  const input = renderInput(cls);
  const plan = outlinePlan(cls, input, objects);
  return { objects, lines, cls, input, plan };
};

/** The listing k of the class is shown: both its lines or neither (never a listing in part). */
const listed = (text: string, k: number): boolean | 'part' => {
  const sig = text.includes(`    def op_${k}(self, other, scale=${k}):`);
  const doc = text.includes(`        """Apply operation ${k} to other."""`);
  return sig === doc ? sig : 'part';
};

describe('partial outlines: a container whose complete outline misses the room is shown smaller, never cut', () => {
  it('the complete outline when it fits; a little less room gives the partial one with the touched member whole and a prefix of the listings', () => {
    const { input, plan, lines, objects } = setup(30);
    const m20 = objects.find((o) => o.id === 'm20')!;
    const opts = { touched: ['m20'], opening: 15 };
    // The least room the complete outline fits (its estimate is cautious): there the fallback changes nothing.
    let least = outlineWithin(input, plan, 100_000, tok, opts)!.tokens;
    while (outlineWithin(input, plan, least, tok, opts) === null) least++;
    expect(outlineOrPartial(input, plan, least, tok, opts)!.text).toBe(outlineWithin(input, plan, least, tok, opts)!.text);
    const room = least - 20;
    expect(outlineWithin(input, plan, room, tok, opts)).toBeNull();
    const partial = outlineOrPartial(input, plan, room, tok, opts)!;
    expect(partial).not.toBeNull();
    expect(partial.tokens).toBeLessThanOrEqual(room);
    expect(partial.tokens).toBe(tok.count(partial.text));
    // The touched member whole, and the opening.
    for (const l of lines.slice(m20.startLine - 1, m20.endLine)) expect(partial.text).toContain(l);
    for (const l of lines.slice(0, 15).filter((x) => x.trim())) expect(partial.text).toContain(l);
    // Listings in the outline's order as far as they fit: a prefix, each whole, not all of them.
    const shown = Array.from({ length: 30 }, (_, k) => listed(partial.text, k));
    expect(shown).not.toContain('part');
    const last = shown.lastIndexOf(true);
    expect(shown.slice(0, last + 1).every((s) => s === true)).toBe(true);
    expect(shown.filter((s) => s === false).length).toBeGreaterThan(0);
  });

  it('property: within any room the partial outline never passes it, keeps the touched member and the opening, lists whole listings only, no line twice', () => {
    fc.assert(fc.property(fc.integer({ min: 3, max: 40 }), fc.nat(39), fc.integer({ min: 0, max: 3000 }), (n, t, room) => {
      const { input, plan, lines, objects } = setup(n);
      const touched = objects.find((o) => o.id === `m${t % n}`)!;
      const o = outlineOrPartial(input, plan, room, tok, { touched: [touched.id], opening: 15 });
      if (!o) return;
      expect(o.tokens).toBeLessThanOrEqual(room);
      expect(o.tokens).toBe(tok.count(o.text));
      // The touched member is whole, as in the complete outline.
      const body = lines.slice(touched.startLine - 1, touched.endLine);
      expect(body.every((l) => o.text.includes(l))).toBe(true);
      for (let k = 0; k < n; k++) if (k !== t % n) expect(listed(o.text, k)).not.toBe('part');
      // Each shown line once: the text is the descriptor, the shown lines and the elision lines between them.
      const code = o.text.split('\n').slice(1).filter((l) => l.trim() !== '⋮');
      expect(code.length).toBe(o.shown.size);
    }), { numRuns: 120 });
  });

  it('the fill: a member found after its class (shown by its head) expands it to a partial outline when the complete one misses by a little', () => {
    const { objects, lines } = bigClass(30);
    const cls = objects.find((o) => o.id === 'cls')!;
    const m17 = objects.find((o) => o.id === 'm17')!;
    const core = fn('core');
    const all = [...objects, core];
    const ranked = [structural(view(core, 10)), structural(view(cls, 9)), structural(view(m17, 1))];
    const query = 'from pkg import core, Matrix';
    const budget = 1000;
    const a = allocate(query, ranked, memorySource(all), tok, { slots: '1+0', budget, fillRelevance: 0 });
    expect(a.totalTokens).toBeLessThanOrEqual(budget);
    const host = a.blocks.find((b) => b.object === 'Matrix')!;
    expect(host.outline).toBe(true);
    expect(host.contains).toEqual([{ objectId: 'm17', object: 'Matrix.op_17', how: 'expanded in parent outline' }]);
    for (const l of lines.slice(m17.startLine - 1, m17.endLine)) expect(host.text).toContain(l);
    // Not every listing fitted: a partial outline, each listing whole or absent.
    const shown = Array.from({ length: 30 }, (_, k) => (k === 17 ? true : listed(host.text, k)));
    expect(shown).not.toContain('part');
    expect(shown).toContain(false);
  });

  it('the fill: a partial outline is held to b_obj, so what is left still reaches the further objects', () => {
    const { objects, lines } = bigClass(80);
    const cls = objects.find((o) => o.id === 'cls')!;
    const m17 = objects.find((o) => o.id === 'm17')!;
    const [core, later] = [fn('core'), fn('later')];
    const ranked = [structural(view(core, 10)), structural(view(cls, 9)), structural(view(m17, 2)), structural(view(later, 1))];
    const budget = 2600;
    const objectCap = 700;
    const a = allocate('from pkg import core, Matrix, later', ranked, memorySource([...objects, core, later]), tok, { slots: '1+0', budget, objectCap, fillRelevance: 0 });
    expect(a.totalTokens).toBeLessThanOrEqual(budget);
    const host = a.blocks.find((b) => b.object === 'Matrix')!;
    expect(host.outline).toBe(true);
    expect(host.tokens).toBeLessThanOrEqual(objectCap);
    for (const l of lines.slice(m17.startLine - 1, m17.endLine)) expect(host.text).toContain(l);
    expect(a.blocks.find((b) => b.object === 'later')).toBeDefined();
  });
  it('the fill: a container its partial outline could take over only past b_obj comes back after the further objects, with what they left', () => {
    const { objects, lines } = bigClass(80);
    const cls = objects.find((o) => o.id === 'cls')!;
    const members = ['m3', 'm5', 'm7', 'm9'].map((id) => objects.find((o) => o.id === id)!);
    const later = fn('later', 20);
    const ranked = [...members.map((m, k) => structural(view(m, 10 - k))), structural(view(cls, 5)), structural(view(later, 4))];
    const budget = 1500;
    const objectCap = 200;
    const a = allocate('from pkg.linalg import Matrix\nfrom pkg.later import later', ranked, memorySource([...objects, later]), tok, { slots: '4+0', budget, objectCap, fillRelevance: 0 });
    expect(a.totalTokens).toBeLessThanOrEqual(budget);
    // The further object kept its place; then the class took over its members' blocks with what was left, past b_obj.
    expect(a.blocks.find((b) => b.object === 'later')).toBeDefined();
    const host = a.blocks.find((b) => b.object === 'Matrix')!;
    expect(host).toBeDefined();
    expect(host.outline).toBe(true);
    expect(host.tokens).toBeGreaterThan(objectCap);
    for (const m of members) for (const l of lines.slice(m.startLine - 1, m.endLine)) expect(host.text).toContain(l);
    expect(a.blocks.filter((b) => b.object.startsWith('Matrix.'))).toEqual([]);
    const shown = Array.from({ length: 80 }, (_, k) => listed(host.text, k));
    expect(shown).not.toContain('part');
  });
});
