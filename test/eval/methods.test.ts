import { describe, expect, it } from 'vitest';
import { METHODS, pickMethods, STOP_METHODS } from '../../client/eval/methods.ts';

describe('eval methods by name', () => {
  it('offers the token curve\'s stricter relevance stops to eval prose only, as dense methods (they run over hybrid-dense)', () => {
    const prose = [...METHODS, ...STOP_METHODS];
    expect(pickMethods('stop-0.6,allocation,stop-1', prose).map((m) => [m.name, m.dense ?? false])).toEqual([
      ['stop-0.6', true], ['allocation', false], ['stop-1', true],
    ]);
    expect(() => pickMethods('stop-0.8')).toThrow(/unknown method "stop-0.8"/);
    expect(pickMethods(undefined).some((m) => m.name.startsWith('stop-'))).toBe(false);
    // and the same stops over `hybrid`, which need no vectors
    expect(pickMethods('hybrid-stop-0.8', prose).map((m) => [m.name, m.dense ?? false])).toEqual([['hybrid-stop-0.8', false]]);
  });
});
