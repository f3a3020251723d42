/**
 * The watchdog of one request: a query that has not answered within its
 * deadline is answered `503 query-timeout` instead, and the client is free to
 * retry or narrow it. The work itself is bounded by the request maxima
 * (`requests.ts`, `allocator/options.ts`); the watchdog covers what waits
 * (a dense model, a structure rebuild, a remote model) and every query once
 * queries run off the main thread.
 */

/** Default deadline of a query (ms); `ALLOT_QUERY_TIMEOUT_MS` in the daemon's environment changes it. */
export const DEFAULT_QUERY_TIMEOUT_MS = 30_000;

/** The deadline the environment asks for, or the default (a value that is not a positive number is ignored). */
export function queryTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.ALLOT_QUERY_TIMEOUT_MS);
  return Number.isFinite(n) && n > 0 ? n : DEFAULT_QUERY_TIMEOUT_MS;
}

export const TIMED_OUT: unique symbol = Symbol('timed out');

/** `work`'s value, or TIMED_OUT once `ms` passed first (the work is not cancelled; its late answer is dropped). */
export async function withDeadline<T>(work: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
    // a late failure must not become an unhandled rejection
    work.catch(() => {});
  }
}
