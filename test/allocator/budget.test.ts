import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { effectiveFloor, tokenAuthority } from '../../allocator/budget.ts';

describe('token authority: b_i = min(d_i, b_obj, [R_i - (m-i)*floor]+)', () => {
  it('worked example: floors held back for later objects', () => {
    const steps = tokenAuthority([3000, 50, 2000, 500], 1000, 1024, 128);
    expect(steps.map((s) => s.result)).toEqual([616, 50, 206, 128]);
    expect(steps.map((s) => s.R)).toEqual([1000, 384, 334, 128]);
    expect(steps.every((s) => s.floor === 128 && s.m === 4)).toBe(true);
  });

  it('floor applies only when B >= m*floor', () => {
    expect(effectiveFloor(512, 4, 128)).toBe(128);
    expect(effectiveFloor(511, 4, 128)).toBe(0);
    expect(tokenAuthority([900, 900], 200, 1024, 128).map((s) => s.result)).toEqual([200, 0]);
  });

  it('budget 0 and no objects', () => {
    expect(tokenAuthority([10, 20], 0, 1024, 128).map((s) => s.result)).toEqual([0, 0]);
    expect(tokenAuthority([], 4096, 1024, 128)).toEqual([]);
  });

  it('property: 0 <= b_i <= min(d_i, b_obj), sum(b_i) <= B, floors reserved for later objects', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(5000), { maxLength: 12 }),
        fc.nat(100_000),
        fc.nat(3000),
        fc.nat(400),
        (d, B, cap, floor) => {
          const steps = tokenAuthority(d, B, cap, floor);
          let sum = 0;
          for (const s of steps) {
            expect(s.result).toBeGreaterThanOrEqual(0);
            expect(s.result).toBeLessThanOrEqual(Math.min(s.d, cap));
            expect(s.R).toBe(B - sum);
            // What is left after e_i still covers a floor for each of the m-i later objects.
            expect(s.R - s.result).toBeGreaterThanOrEqual((s.m - s.i) * s.floor);
            sum += s.result;
          }
          expect(sum).toBeLessThanOrEqual(B);
        },
      ),
      { numRuns: 300 },
    );
  });
});
