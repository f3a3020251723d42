import { describe, expect, it } from 'vitest';
import { createResultCache } from '../../daemon/result-cache.ts';

describe('result cache', () => {
  it('answers repeats in one index state, forgets everything when the state changes, drops the least recently used', () => {
    const c = createResultCache<string>(2);
    c.set('g1', 'a', 'A');
    c.set('g1', 'b', 'B');
    expect(c.get('g1', 'a')).toBe('A'); // a is now the most recent
    c.set('g1', 'c', 'C');
    expect(c.get('g1', 'b')).toBeUndefined();
    expect(c.get('g1', 'a')).toBe('A');
    expect(c.get('g2', 'a')).toBeUndefined(); // another index state: nothing carries over
    expect(c.size).toBe(0);
  });
});
