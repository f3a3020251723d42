// The memo of recent work: at most `max` entries, the least recently used (set or found) forgotten first.
import { describe, expect, it } from 'vitest';
import { recentlyUsed } from '../../indexer/recently-used.ts';

describe('recentlyUsed', () => {
  it('forgets the least recently used entry, a get counting as a use', () => {
    const m = recentlyUsed<string, number>(2);
    m.set('a', 1);
    m.set('b', 2);
    expect(m.get('a')).toBe(1);
    m.set('c', 3);
    expect(m.get('b')).toBeUndefined();
    expect([m.get('a'), m.get('c')]).toEqual([1, 3]);
    // Setting a kept key again replaces it without evicting another.
    m.set('a', 10);
    expect([m.get('a'), m.get('c')]).toEqual([10, 3]);
  });
});
