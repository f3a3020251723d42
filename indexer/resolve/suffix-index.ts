/** A string's UTF-16 units in reverse: keys sharing a trailing run share a prefix reversed. */
const reversed = (s: string): string => {
  let out = '';
  for (let i = s.length - 1; i >= 0; i--) out += s[i];
  return out;
};

/**
 * Values by every trailing run of `/`-separated segments of their keys (`a/b/c` is found by `c`, `b/c`, `a/b/c`),
 * from one array of reversed keys sorted (binary search) instead of a map entry, a string and a list per run.
 * `get` gives what a map from each run to the values added under it (in order, once each) would hold.
 */
export class SuffixIndex {
  private keys: string[];
  private values: string[];
  /** Each entry's place in the order entries were added. */
  private order: Int32Array;

  /** `entries` in the order values are to be listed, each value once (a file, a folder). */
  constructor(entries: readonly (readonly [key: string, value: string])[]) {
    const rev = entries.map(([k]) => reversed(k));
    const sorted = Int32Array.from(entries.keys()).sort((a, b) => (rev[a] < rev[b] ? -1 : rev[a] > rev[b] ? 1 : a - b));
    this.keys = Array.from(sorted, (i) => rev[i]);
    this.values = Array.from(sorted, (i) => entries[i][1]);
    this.order = sorted;
  }

  /** The values of the keys that are `run` or end with `/run`, in the order they were added; undefined for none. */
  get(run: string): string[] | undefined {
    const r = reversed(run);
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.keys[mid] < r) lo = mid + 1;
      else hi = mid;
    }
    const hits: number[] = [];
    for (let i = lo; i < this.keys.length && this.keys[i].startsWith(r); i++) {
      const k = this.keys[i];
      if (k.length === r.length || k[r.length] === '/') hits.push(i);
    }
    if (!hits.length) return undefined;
    hits.sort((a, b) => this.order[a] - this.order[b]);
    return hits.map((i) => this.values[i]);
  }
}
