/**
 * Answers to repeated queries: editors and agents ask the same context query
 * again and again while nothing changes. An answer is kept until the index
 * changes (its generation or its vectors), so a cached answer is always the
 * one the query would compute now. Least recently used answers go first.
 */
export interface ResultCache<T> {
  /** The answer computed for `key` in index state `state`, or undefined. */
  get(state: string, key: string): T | undefined;
  set(state: string, key: string, value: T): void;
  readonly size: number;
}

export function createResultCache<T>(max = 256): ResultCache<T> {
  let current = '';
  const entries = new Map<string, T>();
  const sync = (state: string) => {
    if (state !== current) {
      entries.clear();
      current = state;
    }
  };
  return {
    get(state, key) {
      sync(state);
      const v = entries.get(key);
      if (v !== undefined) {
        entries.delete(key);
        entries.set(key, v); // most recently used last
      }
      return v;
    },
    set(state, key, value) {
      sync(state);
      entries.set(key, value);
      while (entries.size > max) entries.delete(entries.keys().next().value!);
    },
    get size() {
      return entries.size;
    },
  };
}
