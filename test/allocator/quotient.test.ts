import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fragments, quotient } from '../../allocator/quotient.ts';
import { parseConfig, startServer, view, worldArb } from './fixtures.ts';

describe('quotient rule: views of one object compete for one position', () => {
  it('the object keeps its strongest view and its score, never a sum', () => {
    const ps = quotient([
      view(startServer, 3, 'body', { viewId: 1 }),
      view(parseConfig, 5, 'signature', { viewId: 2 }),
      view(parseConfig, 4, 'body', { viewId: 3 }),
      view(parseConfig, 2, 'callsite', { viewId: 4, path: 'src/cli.ts', startLine: 2, endLine: 2 }),
    ]);
    expect(ps.map((p) => [p.objectId, p.score, p.rank])).toEqual([['cfg.parse', 5, 1], ['srv.start', 3, 2]]);
    expect(ps[0].views.map((v) => [v.viewId, v.kind])).toEqual([[2, 'signature'], [3, 'body'], [4, 'callsite']]);
  });

  it('equal scores keep the retriever order; fragments give each view its own position', () => {
    const cs = [view(startServer, 1, 'body', { viewId: 7 }), view(parseConfig, 1, 'body', { viewId: 8 }), view(startServer, 1, 'signature', { viewId: 9 })];
    expect(quotient(cs).map((p) => p.objectId)).toEqual(['srv.start', 'cfg.parse']);
    expect(fragments(cs).map((p) => p.key)).toEqual(['view:7', 'view:8', 'view:9']);
  });

  it('property: multiplicity <= 1 whatever views are added, and the score is the strongest view', () => {
    fc.assert(
      fc.property(worldArb, fc.array(fc.tuple(fc.nat(), fc.double({ min: -5, max: 30, noNaN: true })), { maxLength: 20 }), (w, extra) => {
        const cs = [...w.candidates];
        if (cs.length > 0) for (const [k, score] of extra) cs.push({ ...cs[k % cs.length], viewId: 10_000 + cs.length, score });
        const ps = quotient(cs);
        const ids = ps.map((p) => p.objectId);
        expect(new Set(ids).size).toBe(ids.length);
        expect(ps.reduce((n, p) => n + p.views.length, 0)).toBe(cs.length);
        for (const p of ps) expect(p.score).toBe(Math.max(...cs.filter((c) => c.objectId === p.objectId).map((c) => c.score)));
        for (let k = 1; k < ps.length; k++) expect(ps[k - 1].score).toBeGreaterThanOrEqual(ps[k].score);
      }),
      { numRuns: 200 },
    );
  });
});
