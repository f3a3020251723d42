import { describe, expect, it } from 'vitest';
import { parallelMembers, type PendingClass, type ResolvedMemberCall } from '../../indexer/retrieve/parallel-calls.ts';

// Classes by import order, which of them define which members, and where (A, B, C, D in one file; E, F elsewhere).
const defines: Record<string, string[]> = { A: ['eval'], B: ['eval', 'doit'], C: ['eval'], D: ['doit'], E: ['eval'], F: ['eval'] };
const order: Record<string, number> = { E: 0, A: 1, B: 2, C: 3, D: 4, F: 5 };
const facts = {
  memberOf: (c: string, m: string) => (defines[c]?.includes(m) ? `${c}.${m}` : undefined),
  fileOf: (c: string) => ('ABCD'.includes(c) ? 'family.py' : 'other.py'),
};
const pendingOf = (ids: string[]): PendingClass[] => ids.map((id) => ({ id, order: order[id] }));
const call = (classId: string, name = 'eval', at = 1): ResolvedMemberCall => ({ classId, name, at });

type Case = [string, ResolvedMemberCall[], string[], number, string[]];

describe('members of pending classes named like a member the query calls through several classes', () => {
  it.each<Case>([
    ['one class is no family', [call('A'), call('A')], ['C', 'E'], 6, []],
    ['two classes: every pending class defining the name', [call('A'), call('B')], ['C', 'D', 'E'], 6, ['C.eval', 'E.eval']],
    ['the classes defined beside the called ones first, then the others, each in import order', [call('A'), call('B')], ['F', 'E', 'C'], 6, ['C.eval', 'E.eval', 'F.eval']],
    ['called classes in two files: both families come first', [call('C'), call('F')], ['A', 'B', 'E'], 6, ['E.eval', 'A.eval', 'B.eval']],
    ['at most perName per name', [call('A'), call('B')], ['C', 'E', 'F'], 2, ['C.eval', 'E.eval']],
    ['each name on its own: doit through B and D, eval through one class only', [call('B', 'doit'), call('D', 'doit'), call('A')], ['C', 'E'], 6, []],
    ['only the last member call\'s family: eval through A and B is done once doit is called after', [call('A', 'eval', 0.5), call('B', 'eval', 0.5), call('B', 'doit')], ['C', 'E'], 6, []],
    ['the last call\'s name through two classes, one of them called earlier', [call('A', 'eval', 0.5), call('B', 'doit', 0.6), call('B', 'eval')], ['C', 'E'], 6, ['C.eval', 'E.eval']],
    ['a called class is never offered its own member again', [call('A'), call('B')], ['A', 'C'], 6, ['C.eval']],
  ])('%s', (_name, calls, pending, perName, expected) => {
    const out = parallelMembers(calls, pendingOf(pending), facts, perName);
    expect(out.map((p) => p.id)).toEqual(expected);
    for (const p of out) expect(p.id).toBe(`${p.classId}.${p.name}`);
  });

  it('a member two pending classes reach (inherited from one base) is listed once', () => {
    const out = parallelMembers([call('A'), call('B')], pendingOf(['C', 'E']), { ...facts, memberOf: () => 'Base.eval' }, 6);
    expect(out.map((p) => p.id)).toEqual(['Base.eval']);
  });
});
