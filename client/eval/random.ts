/** A seeded pseudo-random generator, so every sample and bootstrap is reproducible. */

/**
 * mulberry32: 32-bit state, uniform floats in [0, 1); the same seed gives the same sequence on every machine.
 * @example const r = seededRandom(7); r(); // 0.6...
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

/** `k` distinct indices of 0..n-1 drawn uniformly (partial Fisher-Yates), in ascending order. */
export function sampleIndices(n: number, k: number, random: () => number): number[] {
  const idx = Array.from({ length: n }, (_, i) => i);
  const take = Math.min(n, Math.max(0, k));
  for (let i = 0; i < take; i++) {
    const j = i + Math.floor(random() * (n - i));
    [idx[i], idx[j]] = [idx[j], idx[i]];
  }
  return idx.slice(0, take).sort((a, b) => a - b);
}
