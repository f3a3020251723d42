import { describe, expect, it } from 'vitest';
import { pendingPrior, type ImportSeen, type PriorFacts } from '../../indexer/retrieve/pending-prior.ts';

// Pending imports p0..p2 in import order; each case sets degrees, the files of the definitions and what the lines used.
interface Case {
  degrees?: Record<string, number>;
  paths?: Record<string, string>;
  used?: { id: string; local: string; recency: number }[];
}
const pending: ImportSeen[] = ['p0', 'p1', 'p2'].map((id, order) => ({ id, local: id, order }));

function facts(c: Case): PriorFacts {
  const recency = new Map((c.used ?? []).map((u) => [u.local, u.recency]));
  return {
    pathOf: (id) => c.paths?.[id] ?? `${id}.py`,
    degree: (id) => c.degrees?.[id] ?? 4,
    recency: (local) => recency.get(local) ?? 0,
  };
}
const usedOf = (c: Case): ImportSeen[] => (c.used ?? []).map((u, k) => ({ id: u.id, local: u.local, order: 10 + k }));

describe('the prior of pending imports', () => {
  it.each<[string, Case, string]>([
    ['all else equal, the first imported', {}, 'p0'],
    ['the one the repository is most connected to, against a slightly earlier import', { degrees: { p0: 1, p1: 400, p2: 1 } }, 'p1'],
    ['a sibling of a name the lines just used (same file), against an earlier import', { paths: { p1: 'trig.py', u: 'trig.py' }, used: [{ id: 'u', local: 'asin', recency: 1 }] }, 'p1'],
  ])('%s comes first', (_name, c, best) => {
    const prior = pendingPrior(pending, usedOf(c), facts(c));
    const order = [...prior.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => id);
    expect(order[0]).toBe(best);
    for (const v of prior.values()) {
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThanOrEqual(1);
    }
  });

  it('a used name that is not in the query\'s lines (recency 0) makes no sibling', () => {
    const c: Case = { paths: { p2: 'trig.py', u: 'trig.py' }, used: [{ id: 'u', local: 'asin', recency: 0 }] };
    expect(pendingPrior(pending, usedOf(c), facts(c))).toEqual(pendingPrior(pending, [], facts({})));
  });

  it('an object imported under two names keeps its better prior; no pending import, no prior', () => {
    const twice: ImportSeen[] = [{ id: 'x', local: 'a', order: 0 }, { id: 'y', local: 'b', order: 1 }, { id: 'x', local: 'c', order: 2 }];
    const prior = pendingPrior(twice, [], facts({}));
    expect(prior.size).toBe(2);
    expect(prior.get('x')).toBeGreaterThan(prior.get('y')!);
    expect(pendingPrior([], [], facts({})).size).toBe(0);
  });
});
