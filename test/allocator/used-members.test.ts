// Used members: a member the query's code already calls is known there by its call, so an outline lists it and
// spends its lines on the members the code has not used yet; the call the cursor is writing is not a use.
import { describe, expect, it } from 'vitest';
import { allocate } from '../../allocator/allocate.ts';
import { groupInput } from '../../allocator/form.ts';
import { outlineWithin } from '../../allocator/outline.ts';
import { renderInput } from '../../allocator/render.ts';
import { usedMembers } from '../../allocator/used-members.ts';
import { getTokenizer } from '../../indexer/tokenizer.ts';
import type { Candidate } from '../../indexer/types.ts';
import { classOf, memorySource, view } from './fixtures.ts';

const tok = getTokenizer('cl100k_base');
const structural = (c: Candidate, reason = 'structural: member of Engine, a receiver in the query (e: Engine)'): Candidate => ({ ...c, viaStructure: true, reason });

describe('usedMembers', () => {
  const cases: { query: string; of: string[]; expected: string[] }[] = [
    // `x = C(...)` then `x.m`, and `C.m` itself.
    { query: 'from pkg.engine import Engine\ne = Engine()\ne.m0(1)\ny = e.m1\nEngine.m2()\nz = 2', of: ['Engine'], expected: ['m0', 'm1', 'm2'] },
    // Another receiver's member of the same name is not this container's (`datetime.now().date()` is no `filters.date`).
    { query: 'from django.template import defaultfilters\nd = datetime.now(tz).date()\nx = 1', of: ['defaultfilters'], expected: [] },
    // A module through its alias, and `C(...).m`.
    { query: 'import networkx.algorithms.threshold as nxt\nG = nxt.threshold_graph(cs)\nq = Quaternion(1, 2).norm()\nx = 1', of: ['threshold'], expected: ['threshold_graph'] },
    { query: 'from sympy import Quaternion as Q\nq = Q(1, 2).norm()\nx = 1', of: ['Quaternion'], expected: ['norm'] },
    // Import paths name modules; strings and comments name nothing the code calls.
    { query: 'import geo.shapes\nfrom a.b import c\nx = c()  # c.m3(2)\ns = "c.m4()"', of: ['c', 'shapes', 'b'], expected: [] },
    // The call the cursor is inside, or the access it is right after, is being written: not a use.
    { query: 'import e\ne.m0(1)\ne.m2(x, ', of: ['e'], expected: ['m0'] },
    { query: 'import e\ne.m0(1)\ne.m2', of: ['e'], expected: ['m0'] },
    { query: 'import e\ne.m0(f(1), g(2))\nz = 3', of: ['e'], expected: ['m0'] },
    // A local's accesses before it is bound to C are another receiver's (a callback's parameter of the same name).
    { query: "import { Context } from './context'\napp.get((c) => c.json(0))\nconst c = new Context(req)\nc.header('x', 1)\nlet x = 1", of: ['Context'], expected: ['header'] },
    // TypeScript: `new C()` bindings.
    { query: "import { C } from './c';\nconst c = new C();\nc.run(1);\nlet x = 1", of: ['C'], expected: ['run'] },
    // Prose names no calls.
    { query: 'how does the config loader read config.yaml', of: ['config'], expected: [] },
  ];
  for (const { query, of, expected } of cases) {
    it(JSON.stringify(query), () => expect([...usedMembers(query).of(of)].sort()).toEqual(expected));
  }
});

describe('an outline lists the members the query already uses and expands the others', () => {
  const { cls, methods } = classOf(Array.from({ length: 20 }, () => 6));
  const fiber = (path: string) => (path === cls.path ? [cls, ...methods] : []);
  const input = renderInput(cls);
  const allLines = (t: string, k: number) => methods[k].text.split('\n').every((l) => t.split('\n').includes(l));

  it('a touched member the query calls is listed, not expanded; an unused touched one is expanded', () => {
    const group = { root: { position: { objectId: cls.id } as never, role: 'core' as const }, nested: [3, 9].map((k) => ({ position: { objectId: methods[k].id } as never, role: 'core' as const })) };
    const plain = groupInput(group, cls, input, 10_000, fiber).plan();
    const used = groupInput(group, cls, input, 10_000, fiber, new Map(), usedMembers('from pkg.engine import Engine\ne = Engine()\ne.m3(1)\nx = 1')).plan();
    const opts = { touched: ['m3', 'm9'], opening: 3 };
    const before = outlineWithin(input, plain, 2000, tok, opts)!;
    const after = outlineWithin(input, used, 2000, tok, opts)!;
    expect(allLines(before.text, 3) && allLines(before.text, 9)).toBe(true);
    expect(allLines(after.text, 9)).toBe(true);
    expect(allLines(after.text, 3)).toBe(false);
    // Still listed: its declaration and docstring line.
    expect(after.text).toContain('    def m3(self, x):');
    expect(after.text).toContain('        """Method 3."""');
    expect(after.tokens).toBeLessThan(before.tokens);
  });

  it('what an outline grows by whole members goes to the unused ones first', () => {
    const group = { root: { position: { objectId: cls.id } as never, role: 'core' as const }, nested: [] };
    const used = usedMembers(`from pkg.engine import Engine\ne = Engine()\n${methods.slice(0, 10).map((m) => `e.${m.name}(1)`).join('\n')}\nx = 1`);
    const plan = groupInput(group, cls, input, 10_000, fiber, new Map(), used).plan();
    const o = outlineWithin(input, plan, 1100, tok, { touched: [], opening: 'grow' })!;
    const whole = methods.map((_, k) => allLines(o.text, k));
    // Some members whole, every one of them unused, while room lasts.
    expect(whole.some((w) => w)).toBe(true);
    expect(whole.slice(0, 10).some((w) => w)).toBe(false);
  });

  it('end to end: the class outline spends its room on the member the code has not called', () => {
    const candidates = [
      structural(view(methods[5], 1)), structural(view(methods[6], 0.9)), structural(view(methods[7], 0.8)),
      structural(view(methods[12], 0.5)),
      structural({ ...view(cls, 0.4), receiver: true }),
    ];
    const run = (query: string) => allocate(query, candidates, memorySource([cls, ...methods]), tok, { slots: '3+0', budget: 700, fillRelevance: 0 });
    const known = run('from pkg.engine import Engine\ne = Engine()\ne.m5(1)\ne.m6(2)\ne.m7(3)\n');
    const fresh = run('from pkg.engine import Engine\ne = Engine()\nx = 1\n');
    for (const a of [known, fresh]) {
      expect(a.totalTokens).toBeLessThanOrEqual(700);
      // One block for the class: no line twice.
      expect(a.blocks.filter((b) => b.path === cls.path)).toHaveLength(1);
    }
    const text = (a: typeof known) => a.blocks.find((b) => b.path === cls.path)!.text;
    expect(allLines(text(known), 12)).toBe(true);
    // (The first members are the outline's opening either way.)
    for (const k of [5, 6, 7]) {
      expect(allLines(text(known), k)).toBe(false);
      expect(allLines(text(fresh), k)).toBe(true);
    }
  });
});
