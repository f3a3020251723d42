import { describe, expect, it } from 'vitest';
import { nameShares } from '../../indexer/name-shares.ts';

describe('nameShares: how much of each name the query covers, parts weighed by their IDF among the names', () => {
  it('a part every name shares counts less than a rare one, and a name without parts covers nothing', () => {
    const [prep, db, none] = nameShares([['get', 'prep'], ['get', 'db'], []], new Map([['prep', 1], ['get', 1]]));
    expect(prep).toBe(1);
    // `get` is shared by two of three names: covering it alone is less than half of `get_db`.
    expect(db).toBeGreaterThan(0);
    expect(db).toBeLessThan(0.5);
    expect(none).toBe(0);
  });

  it('weights scale the share: a part half as recent covers half as much', () => {
    const [full] = nameShares([['flatten']], new Map([['flatten', 1]]));
    const [half] = nameShares([['flatten']], new Map([['flatten', 0.5]]));
    expect(full).toBe(1);
    expect(half).toBeCloseTo(0.5);
  });
});
