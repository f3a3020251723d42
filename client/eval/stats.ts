/**
 * Statistics of the report: means with percentile-bootstrap intervals over
 * tasks, and paired comparisons with the exact McNemar test. Deterministic:
 * the bootstrap draws from a seeded generator.
 */
import { seededRandom } from './random.ts';

export interface Interval {
  mean: number;
  low: number;
  high: number;
}

export const BOOTSTRAP_RESAMPLES = 1000;
export const BOOTSTRAP_SEED = 20240601;

export function mean(values: readonly number[]): number {
  if (!values.length) return NaN;
  let s = 0;
  for (const v of values) s += v;
  return s / values.length;
}

/**
 * The mean of `values` with a percentile-bootstrap confidence interval: `resamples` resamples of the tasks with
 * replacement, the interval is the (1-level)/2 and (1+level)/2 quantiles of their means.
 * @example bootstrapMean([1, 1, 1]) // { mean: 1, low: 1, high: 1 }
 */
export function bootstrapMean(
  values: readonly number[],
  opts: { resamples?: number; seed?: number; level?: number } = {},
): Interval {
  const n = values.length;
  const m = mean(values);
  if (n === 0) return { mean: NaN, low: NaN, high: NaN };
  const R = opts.resamples ?? BOOTSTRAP_RESAMPLES;
  const level = opts.level ?? 0.95;
  const random = seededRandom(opts.seed ?? BOOTSTRAP_SEED);
  const means = new Float64Array(R);
  for (let r = 0; r < R; r++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += values[Math.floor(random() * n)];
    means[r] = s / n;
  }
  means.sort();
  const alpha = (1 - level) / 2;
  const low = means[Math.min(R - 1, Math.max(0, Math.floor(alpha * R)))];
  const high = means[Math.min(R - 1, Math.max(0, Math.ceil((1 - alpha) * R) - 1))];
  return { mean: m, low, high };
}

const logFactorials: number[] = [0];
function logFactorial(n: number): number {
  for (let k = logFactorials.length; k <= n; k++) logFactorials.push(logFactorials[k - 1] + Math.log(k));
  return logFactorials[n];
}

/**
 * Exact (binomial) McNemar test, two-sided: `b` and `c` are the discordant pairs (only the first method right,
 * only the second right); p = min(1, 2 * P(X <= min(b, c))) for X ~ Binomial(b + c, 1/2).
 * @example mcnemarExact(1, 6) // 0.125
 */
export function mcnemarExact(b: number, c: number): number {
  const n = b + c;
  if (n === 0) return 1;
  const k = Math.min(b, c);
  const lnN = logFactorial(n);
  let tail = 0;
  for (let i = 0; i <= k; i++) tail += Math.exp(lnN - logFactorial(i) - logFactorial(n - i) - n * Math.LN2);
  return Math.min(1, 2 * tail);
}

export interface PairedComparison {
  /** Tasks where the method succeeds and the reference fails. */
  wins: number;
  /** Tasks where the reference succeeds and the method fails. */
  losses: number;
  ties: number;
  /** Exact McNemar p-value on the discordant pairs. */
  p: number;
}

/** Compares a method with a reference on the same tasks (success per task, in the same order). */
export function pairedComparison(method: readonly boolean[], reference: readonly boolean[]): PairedComparison {
  if (method.length !== reference.length) throw new Error('paired comparison needs the same tasks on both sides');
  let wins = 0;
  let losses = 0;
  for (let i = 0; i < method.length; i++) {
    if (method[i] && !reference[i]) wins++;
    else if (!method[i] && reference[i]) losses++;
  }
  return { wins, losses, ties: method.length - wins - losses, p: mcnemarExact(wins, losses) };
}

/** p-th percentile (0-100), nearest rank: the same definition as the benchmarks' (test/bench/measure.ts). */
export function percentile(values: readonly number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
