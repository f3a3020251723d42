// The part of autocannon 9's API the daemon benchmark uses (the package ships no types).
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
  interface Options {
    url: string;
    connections?: number;
    amount?: number;
    timeout?: number;
    headers?: Record<string, string>;
    requests?: { method?: string; path?: string; body?: string; headers?: Record<string, string> }[];
  }
  function autocannon(opts: Options): Promise<Result>;
  export default autocannon;
}
