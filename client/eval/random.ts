/** A seeded pseudo-random generator, so every sample and bootstrap is reproducible. */

export { seededRandom } from '../../indexer/random.ts';

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
