import { describe, expect, it } from 'vitest';
import { seededRandom, sampleIndices } from '../../client/eval/random.ts';
import { bootstrapMean, mcnemarExact, mean, pairedComparison, percentile } from '../../client/eval/stats.ts';

describe('exact McNemar test', () => {
  it('matches binomial tail values computed by hand', () => {
    // 2 * P(X <= 1), X ~ Bin(7, 1/2) = 2 * (1 + 7) / 128
    expect(mcnemarExact(1, 6)).toBeCloseTo(0.125, 12);
    expect(mcnemarExact(6, 1)).toBeCloseTo(0.125, 12);
    // 2 * (1 + 11 + 55) / 2048
    expect(mcnemarExact(2, 9)).toBeCloseTo(134 / 2048, 12);
    // 2 / 2^10
    expect(mcnemarExact(0, 10)).toBeCloseTo(0.001953125, 12);
    expect(mcnemarExact(0, 0)).toBe(1);
    expect(mcnemarExact(3, 3)).toBe(1);
    expect(mcnemarExact(4, 5)).toBe(1);
  });

  it('stays accurate for many discordant pairs', () => {
    // 2 * P(X <= 400) for X ~ Bin(1000, 1/2): about 2.7e-10 (normal approximation with continuity: z = 6.29)
    const p = mcnemarExact(400, 600);
    expect(p).toBeGreaterThan(1e-10);
    expect(p).toBeLessThan(1e-9);
  });

  it('pairs tasks: wins, losses, ties', () => {
    const method = [true, true, false, false, true, true, true, true];
    const ref = [false, true, true, false, false, false, false, false];
    expect(pairedComparison(method, ref)).toEqual({ wins: 5, losses: 1, ties: 2, p: mcnemarExact(5, 1) });
    expect(() => pairedComparison([true], [])).toThrow();
  });
});

describe('bootstrap intervals', () => {
  it('a constant has a zero-width interval', () => {
    expect(bootstrapMean([1, 1, 1, 1])).toEqual({ mean: 1, low: 1, high: 1 });
    expect(bootstrapMean([0, 0])).toEqual({ mean: 0, low: 0, high: 0 });
  });

  it('is deterministic for a seed and close to the normal interval for a large sample', () => {
    const values = Array.from({ length: 400 }, (_, i) => (i % 2 === 0 ? 1 : 0));
    const a = bootstrapMean(values);
    expect(bootstrapMean(values)).toEqual(a);
    expect(a.mean).toBe(0.5);
    // normal: 0.5 -/+ 1.96 * sqrt(0.25 / 400) = [0.451, 0.549]
    expect(a.low).toBeGreaterThan(0.43);
    expect(a.low).toBeLessThan(0.47);
    expect(a.high).toBeGreaterThan(0.53);
    expect(a.high).toBeLessThan(0.57);
    expect(bootstrapMean(values, { seed: 7 })).not.toEqual(a);
  });

  it('an empty sample has no mean', () => {
    expect(Number.isNaN(bootstrapMean([]).mean)).toBe(true);
    expect(Number.isNaN(mean([]))).toBe(true);
  });

  it('percentile: nearest rank', () => {
    expect(percentile([5, 1, 4, 2, 3], 50)).toBe(3);
    expect(percentile([5, 1, 4, 2, 3], 95)).toBe(5);
    expect(percentile([7], 0)).toBe(7);
  });
});

describe('seeded sampling', () => {
  it('same seed, same sample; ascending and distinct', () => {
    const a = sampleIndices(100, 10, seededRandom(3));
    expect(sampleIndices(100, 10, seededRandom(3))).toEqual(a);
    expect(new Set(a).size).toBe(10);
    expect([...a].sort((x, y) => x - y)).toEqual(a);
    expect(sampleIndices(5, 10, seededRandom(1))).toEqual([0, 1, 2, 3, 4]);
  });
});
