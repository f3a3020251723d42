// Member evidence: the members of an allocated class that the query's words point at are shown by their first lines
// (a head goes on with the one the words single out); words several members share alike single out none.
import { describe, expect, it } from 'vitest';
import { allocate } from '../../allocator/allocate.ts';
import { groupInput, headWithEvidence } from '../../allocator/form.ts';
import { EVIDENCE_SHARE, evidencedMembers, recentTerms, singledOut } from '../../allocator/member-evidence.ts';
import { outlinePlan, outlineWithin } from '../../allocator/outline.ts';
import { renderInput } from '../../allocator/render.ts';
import type { ObjectText } from '../../allocator/types.ts';
import { getTokenizer } from '../../indexer/tokenizer.ts';
import type { Candidate } from '../../indexer/types.ts';
import { classOf, memorySource, obj, view } from './fixtures.ts';

const tok = getTokenizer('cl100k_base');

/** A class `Mul` whose methods have these names, each `body` lines long. */
function classWith(names: readonly string[], body: number): { cls: ObjectText; methods: ObjectText[] } {
  const lines = ['class Mul(Expr):', '    """A product of factors."""', ...Array.from({ length: 20 }, (_, i) => `    # note ${i} on products`), ''];
  const methods: ObjectText[] = names.map((name) => {
    const start = lines.length + 1;
    lines.push(`    def ${name}(self, a, b):`, `        """Does ${name}."""`, ...Array.from({ length: body }, (_, i) => `        step_${i} = a * ${i} + b`), '');
    const end = lines.length - 1;
    return {
      id: name, path: 'core/mul.py', name, qualifiedName: `Mul.${name}`, kind: 'method', signature: `def ${name}(self, a, b)`,
      startLine: start, endLine: end, parentId: 'mul', docstring: `"""Does ${name}."""`, text: lines.slice(start - 1, end).join('\n'),
    };
  });
  const cls: ObjectText = {
    id: 'mul', path: 'core/mul.py', name: 'Mul', qualifiedName: 'Mul', kind: 'class', signature: 'class Mul(Expr)',
    startLine: 1, endLine: lines.length, parentId: null, docstring: '"""A product of factors."""', text: lines.join('\n'),
  };
  return { cls, methods };
}

const NAMES = ['_combine_inverse', '_eval_power', '_eval_is_zero', 'as_two_terms', 'flatten', '_eval_expand_mul'];
const ids = (names: readonly string[]) => names.map((n) => ({ id: n, name: n }));

describe('recentTerms', () => {
  it('weighs each term by the last line it is on, the last line 1', () => {
    const r = recentTerms('import mul\nx = flatten(y)\nz = power(x)\nflatten(z)');
    expect(r.get('flatten')).toBe(1);
    expect(r.get('power')).toBe(0.75);
    expect(r.get('mul')).toBe(0.25);
  });
});

describe('evidencedMembers', () => {
  const cases: { query: string; expected: string[] }[] = [
    // A test named for the member, on the line before the cursor.
    { query: 'x = 1\n\ndef test__combine_inverse():\n    x, y = symbols("x y")', expected: ['_combine_inverse'] },
    // Half the name is not most of it.
    { query: 'a = 1\nb = 2\ninverse = b', expected: [] },
    { query: 'a = 1\nb = 2\ninverse = combine(b)', expected: ['_combine_inverse'] },
    // Words far above the cursor weigh little.
    { query: 'combine_inverse()\n' + 'a = 1\n'.repeat(9) + 'b = 2', expected: [] },
    // `eval` is in half the names: it counts less than `power`, which alone is not most of `_eval_power`.
    { query: 'a = 1\nb = 2\nc = power(b)', expected: [] },
    { query: 'a = 1\nb = 2\nc = eval(power)', expected: ['_eval_power'] },
    { query: 'a = 1\nb = 2\nc = 3', expected: [] },
  ];
  it.each(cases)('$query -> $expected', ({ query, expected }) => {
    expect(evidencedMembers(ids(NAMES), recentTerms(query)).map((e) => e.id)).toEqual(expected);
  });

  it('orders the evidenced members by their share, each at least EVIDENCE_SHARE', () => {
    const e = evidencedMembers(ids(NAMES), recentTerms('a = 1\nb = 2\nc = 3\ntwo terms\nflatten(x)'));
    expect(e.map((x) => x.id)).toEqual(['flatten', 'as_two_terms']);
    for (const x of e) expect(x.share).toBeGreaterThanOrEqual(EVIDENCE_SHARE);
    expect(e[0].share).toBeGreaterThan(e[1].share);
  });
});

describe('singledOut', () => {
  it('is the best member only when no other is as good', () => {
    expect(singledOut([])).toBeNull();
    expect(singledOut([{ id: 'a', share: 0.6 }])).toBe('a');
    expect(singledOut([{ id: 'a', share: 0.9 }, { id: 'b', share: 0.6 }])).toBe('a');
    expect(singledOut([{ id: 'a', share: 0.9 }, { id: 'b', share: 0.9 }])).toBeNull();
  });
});

describe('a head with the evidenced member', () => {
  const { cls, methods } = classWith(NAMES, 30);
  const input = renderInput(cls);
  const gi = (query: string) => groupInput(
    { root: { position: { key: 'mul', objectId: 'mul', fiber: cls.path, score: 1, rank: 1, span: null, views: [], origin: 'retrieved', viaStructure: true }, role: 'core' }, nested: [] },
    cls, input, Infinity, () => methods, recentTerms(query),
  );

  it('shows the first head lines, then the singled-out member by its first head lines, and no listing', () => {
    const r = headWithEvidence(gi('x = 1\n\ndef test__combine_inverse():\n    x = 2'), 15, 2000, tok)!;
    expect(r).not.toBeNull();
    expect(r.tokens).toBe(tok.count(r.text));
    expect(r.text).toContain('class Mul(Expr):');
    expect(r.text).toContain('    # note 12 on products');
    expect(r.text).not.toContain('    # note 13 on products');
    expect(r.text).toContain('    def _combine_inverse(self, a, b):');
    expect(r.text).toContain('        step_12 = a * 12 + b');
    expect(r.text).not.toContain('        step_13 = a * 13 + b');
    expect(r.text).not.toContain('def flatten');
  });

  it('reads no evidence for an object not found through structure (a prose query: the retriever matched its words)', () => {
    const prose = groupInput(
      { root: { position: { key: 'mul', objectId: 'mul', fiber: cls.path, score: 1, rank: 1, span: null, views: [], origin: 'retrieved' }, role: 'core' }, nested: [] },
      cls, input, Infinity, () => methods, recentTerms('how is the combine inverse of a product computed'),
    );
    expect(prose.plan().evidence).toEqual([]);
    expect(headWithEvidence(prose, 15, 2000, tok)).toBeNull();
    expect(gi('how is the combine inverse of a product computed').plan().evidence!.map((e) => e.id)).toEqual(['_combine_inverse']);
  });

  it('is null when no member is singled out, or the member does not fit beside the head', () => {
    expect(headWithEvidence(gi('a = 1\nb = 2'), 15, 2000, tok)).toBeNull();
    const head = headWithEvidence(gi('x = 1\n\ndef test__combine_inverse():\n    x = 2'), 15, 2000, tok)!;
    expect(headWithEvidence(gi('x = 1\n\ndef test__combine_inverse():\n    x = 2'), 15, head.tokens - 60, tok)).toBeNull();
  });

  it('a slot outline shows every listing first, then the evidenced members by their first lines', () => {
    const plan = outlinePlan(cls, input, methods);
    plan.evidence = evidencedMembers(methods, recentTerms('a = 1\nb = 2\nc = 3\ntwo terms\nflatten(x)'));
    const listings = outlineWithin(input, plan, 10_000, tok, { touched: [], opening: 0, evidence: [] })!;
    // Room for one member whole beyond the listings: the evidenced one, not the first (cheapest-first's tie).
    const o = outlineWithin(input, plan, listings.tokens + 400, tok, { touched: [], opening: 'grow' })!;
    for (const m of methods) expect(o.text).toContain(`def ${m.name}(self, a, b):`);
    expect(o.text).toContain('def flatten(self, a, b):\n        """Does flatten."""\n        step_0 = a * 0 + b');
    expect(o.text.split('def flatten')[1].split('def _eval_expand_mul')[0]).toContain('        step_29 = a * 29 + b');
    expect(o.text).not.toContain('def _combine_inverse(self, a, b):\n        """Does _combine_inverse."""\n        step_0');
    expect(o.tokens).toBeLessThanOrEqual(listings.tokens + 400);
  });
});

/** The class `Mul` of 30 methods and a function `helper`, both found through structure, at these scores (best first). */
function mulAndHelper(mulScore: number, helperScore: number): { source: ReturnType<typeof memorySource>; candidates: Candidate[] } {
  const { cls, methods } = classWith(NAMES, 30);
  const helper = obj('helper', 'core/helper.py', 1, ['def helper(a):', ...Array.from({ length: 30 }, (_, i) => `    h${i} = a + ${i}`)]);
  const candidates: Candidate[] = [
    { ...view(cls, mulScore, 'signature'), viaStructure: true, reason: 'structural: imported by the query as Mul' },
    { ...view(helper, helperScore, 'signature'), viaStructure: true, reason: 'structural: imported by the query as helper' },
  ];
  return { source: memorySource([cls, ...methods, helper]), candidates: candidates.sort((x, y) => y.score - x.score) };
}

describe('allocation: a class found through structure that a further object waits behind', () => {
  const { source, candidates } = mulAndHelper(1, 0.9);
  const shows = (query: string, line: string) => {
    const a = allocate(query, candidates, source, tok, { budget: 480, slots: '1+0' });
    if (process.env.SHOW) console.log(a.text);
    return a.text.includes(line);
  };

  it('its head goes on with the member the query names just before the cursor', () => {
    expect(shows('from core.mul import Mul\n\ndef test__combine_inverse():\n    x = 1', '        step_5 = a * 5 + b')).toBe(true);
  });
  it('without such words it is its head alone', () => {
    expect(shows('from core.mul import Mul\n\ndef test_products():\n    x = 1', '        step_5 = a * 5 + b')).toBe(false);
  });
});

describe('the fill: a class found through structure after the slots', () => {
  const { source, candidates } = mulAndHelper(0.9, 1);
  const block = (query: string) => allocate(query, candidates, source, tok, { budget: 700, slots: '1+0' }).blocks.find((b) => b.object === 'Mul')!;

  it('is its head with the singled-out member by its first lines, never past the budget', () => {
    const a = allocate('from core.mul import Mul\n\ndef test__combine_inverse():\n    x = 1', candidates, source, tok, { budget: 700, slots: '1+0' });
    const b = a.blocks.find((x) => x.object === 'Mul')!;
    expect(b.role).toBe('interface');
    expect(b.text).toContain('    # note 12 on products');
    expect(b.text).toContain('        step_12 = a * 12 + b');
    expect(b.text).not.toContain('        step_13 = a * 13 + b');
    expect(a.totalTokens).toBeLessThanOrEqual(700);
  });
  it('without such words no member is expanded (the room left grows its head to the outline)', () => {
    const b = block('from core.mul import Mul\n\ndef test_products():\n    x = 1');
    expect(b.text).toContain('    # note 12 on products');
    expect(b.text).not.toContain('        step_0 = a * 0 + b');
  });
});

describe('touched members in an outline', () => {
  // The first touched member is far longer than the allowance: its head, then the second one whole.
  const { cls, methods } = classOf([300, 5]);
  const input = renderInput(cls);
  const plan = outlinePlan(cls, input, methods);
  it('one too large whole shows its head and leaves room for the next touched member', () => {
    const o = outlineWithin(input, plan, 500, tok, { touched: ['m0', 'm1'], opening: 'grow', head: 15 })!;
    expect(o.tokens).toBeLessThanOrEqual(500);
    expect(o.text).toContain('        v12 = x * 12 + 0');
    expect(o.text).toContain('        v4 = x * 4 + 1');
  });
});
