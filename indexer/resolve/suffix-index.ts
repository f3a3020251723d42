/** The last `/`-separated segment: every trailing run of a key ends with it. */
const lastSegment = (s: string): string => s.slice(s.lastIndexOf('/') + 1);

/**
 * Values by every trailing run of `/`-separated segments of their keys (`a/b/c` is found by `c`, `b/c`, `a/b/c`),
 * from the keys grouped by their last segment (a run's keys are those of its last segment that end with it at a
 * segment boundary) instead of a map entry, a string and a list per run.
 * `get` gives what a map from each run to the values added under it (in order) would hold.
 */
export class SuffixIndex {
  private keys: string[] = [];
  private values: string[] = [];
  /** Entry indexes by last segment, ascending: one index when only one key has it (most). */
  private byLast = new Map<string, number | number[]>();

  /** `entries` in the order values are to be listed, each value once (a file, a folder). */
  constructor(entries: readonly (readonly [key: string, value: string])[]) {
    for (const [key, value] of entries) {
      const i = this.keys.length;
      this.keys.push(key);
      this.values.push(value);
      const last = lastSegment(key);
      const held = this.byLast.get(last);
      if (held === undefined) this.byLast.set(last, i);
      else if (typeof held === 'number') this.byLast.set(last, [held, i]);
      else held.push(i);
    }
  }

  /** The values of the keys that are `run` or end with `/run`, in the order they were added; undefined for none. */
  get(run: string): string[] | undefined {
    const held = this.byLast.get(lastSegment(run));
    if (held === undefined) return undefined;
    if (typeof held === 'number') return this.ends(this.keys[held], run) ? [this.values[held]] : undefined;
    const out: string[] = [];
    for (const i of held) if (this.ends(this.keys[i], run)) out.push(this.values[i]);
    return out.length ? out : undefined;
  }

  /** Whether `run` is `key` or a trailing run of its segments. */
  private ends(key: string, run: string): boolean {
    if (key.length === run.length) return key === run;
    return key.length > run.length && key.charCodeAt(key.length - run.length - 1) === 47 && key.endsWith(run);
  }
}
