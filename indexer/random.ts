/**
 * mulberry32: a seeded pseudo-random generator, 32-bit state, uniform floats in [0, 1). The same seed gives the
 * same sequence on every machine, so samples, bootstraps and random projections are reproducible.
 * @example const r = seededRandom(42); r(); // 0.6011037519201636
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
