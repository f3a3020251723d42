/**
 * A map of at most `max` entries that forgets the least recently used first: a memo of pure work (query readings,
 * a file's first uses) that repeats from query to query. A get that finds an entry makes it the most recent.
 * @example const m = recentlyUsed<string, number>(2); m.set('a', 1); m.set('b', 2); m.get('a'); m.set('c', 3); m.get('b') // undefined
 */
export interface RecentlyUsed<K, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): void;
}

export function recentlyUsed<K, V>(max: number): RecentlyUsed<K, V> {
  const entries = new Map<K, V>();
  return {
    get(key) {
      const v = entries.get(key);
      if (v !== undefined) {
        entries.delete(key);
        entries.set(key, v); // most recently used last
      }
      return v;
    },
    set(key, value) {
      entries.delete(key);
      entries.set(key, value);
      while (entries.size > max) entries.delete(entries.keys().next().value!);
    },
  };
}
