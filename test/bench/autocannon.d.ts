// The part of autocannon 9's API the daemon benchmarks use (the package ships no types).
declare module 'autocannon' {
  interface Histogram {
    average: number;
    min: number;
    max: number;
    p50: number;
    p90: number;
    p99: number;
  }
  interface Result {
    latency: Histogram;
    requests: Histogram & { total: number };
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
  }
  interface Request {
    method?: string;
    path?: string;
    body?: string;
    headers?: Record<string, string>;
    /** Builds each request anew (the returned one is sent). */
    setupRequest?: (req: Request, context: Record<string, unknown>) => Request;
    /** Called with each answer's status and body. */
    onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
  }
  interface Options {
    url: string;
    connections?: number;
    amount?: number;
    /** Seconds to run (instead of `amount`). */
    duration?: number;
    timeout?: number;
    headers?: Record<string, string>;
    requests?: Request[];
  }
  function autocannon(opts: Options): Promise<Result>;
  export default autocannon;
}
