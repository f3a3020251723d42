import { describe, expect, it } from 'vitest';
import { decide } from '../../allocator/arbitrate/gate.ts';
import type { Direction, Witness, WitnessType } from '../../allocator/arbitrate/types.ts';

const w = (type: WitnessType, direction: Direction): Witness => ({ type, direction, evidence: [{ program: null, line: null, name: null, detail: `${type} says ${direction}` }] });
const all = (d: Partial<Record<WitnessType, Direction>>) =>
  (['syntax', 'interface', 'names', 'compactness'] as const).map((t) => w(t, d[t] ?? 'none'));

describe('the transfer gate', () => {
  it('transfers when a witness favours the alternative and none the default', () => {
    const r = decide(all({ interface: 'alternative', names: 'alternative' }));
    expect(r.choice).toBe('alternative');
    expect(r.reason).toBe('alternative: interface consistency (interface says alternative); suspicious names (names says alternative); no witness favours the default');
  });

  it('abstains when witnesses disagree, when none fires, and keeps the default when it is favoured', () => {
    const conflict = decide(all({ syntax: 'alternative', compactness: 'default' }));
    expect(conflict.choice).toBe('default');
    expect(conflict.reason).toBe('default stands (abstain): syntax repair favours the alternative but validity-guarded compactness favours the default');
    expect(decide(all({})).reason).toBe('default stands (abstain): no witness favours the alternative');
    expect(decide(all({ names: 'default' })).reason).toBe('default stands: suspicious names (names says default)');
  });

  it('returns every witness as given, in order, with exactly the contract fields', () => {
    const ws = all({ syntax: 'alternative' });
    const r = decide(ws);
    expect(Object.keys(r)).toEqual(['choice', 'witnesses', 'reason']);
    expect(r.witnesses).toEqual(ws);
    expect(Object.keys(r.witnesses[0])).toEqual(['type', 'direction', 'evidence']);
  });
});
