import { describe, expect, it } from 'vitest';
import { AllocateOptionsSchema, parseAllocateOptions, parseSlots } from '../../allocator/options.ts';

describe('allocation options (zod schema)', () => {
  it('defaults: B=4096, b_obj=1024, floor=128, slots 4+1, heads of 15 lines, cl100k_base, no ablation', () => {
    expect(parseAllocateOptions()).toEqual({
      budget: 4096, objectCap: 1024, floor: 128, slots: { core: 4, companion: 1 }, tokenizer: 'cl100k_base',
      noQuotient: false, noRender: false, noFill: false, headLines: 15, fillRelevance: 0.4,
    });
  });

  it('parseSlots reads core+companions', () => {
    expect(parseSlots('4+1')).toEqual({ core: 4, companion: 1 });
    expect(parseSlots('5+0')).toEqual({ core: 5, companion: 0 });
    expect(parseSlots(' 3 + 2 ')).toEqual({ core: 3, companion: 2 });
    expect(() => parseSlots('0+5')).toThrow(/at least one core/);
    expect(() => parseSlots('4')).toThrow(/core\+companions/);
    expect(() => parseSlots('4+-1')).toThrow();
  });

  it('accepts CLI strings for slots and counts', () => {
    const o = AllocateOptionsSchema.parse({ slots: '3+2', budget: '2048', tokenizer: 'o200k_base' });
    expect(o.slots).toEqual({ core: 3, companion: 2 });
    expect(o.budget).toBe(2048);
    expect(o.tokenizer).toBe('o200k_base');
  });

  it('rejects bad values and unknown keys with a readable message', () => {
    expect(() => parseAllocateOptions({ budget: -1 })).toThrow(/budget/);
    expect(() => parseAllocateOptions({ budget: 1.5 })).toThrow(/budget/);
    expect(() => parseAllocateOptions({ slots: 'five' })).toThrow(/slots/);
    expect(() => parseAllocateOptions({ tokenizer: 'gpt2' as never })).toThrow(/tokenizer/);
    expect(() => parseAllocateOptions({ budgett: 5 } as never)).toThrow();
  });

  it.each([
    ['0.25', 0.25], ['1', 1], ['0', 0], ['.5', 0.5], [0.7, 0.7],
  ])('the fill\'s relevance stop accepts the share %s', (input, share) => {
    expect(parseAllocateOptions({ fillRelevance: input }).fillRelevance).toBe(share);
  });

  it.each(['1.5', '-0.1', 'half', 2])('the fill\'s relevance stop rejects %s', (input) => {
    expect(() => parseAllocateOptions({ fillRelevance: input })).toThrow(/fillRelevance/);
  });
});
