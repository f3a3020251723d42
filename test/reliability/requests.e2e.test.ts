// Request maxima at the boundary (issue 17, item 3), over real HTTP to a real daemon: every numeric field and
// length beyond its documented maximum answers 400 naming the field, a request at every maximum answers 200,
// and the daemon keeps serving everyone else.
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../allocator/options.ts';
import { MAX_ISSUE_CHARS, MAX_K, MAX_QUERY_CHARS } from '../../daemon/requests.ts';
import { killDaemons, raw, serve, settled } from '../helpers/daemon.ts';
import { copyFixture } from '../helpers/repo.ts';

afterAll(killDaemons);

const post = (body: unknown) => ({ body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

describe('request maxima', () => {
  it('refuses every field beyond its maximum with 400, answers at the maxima, and stays up', { timeout: 120_000 }, async () => {
    const repo = fs.realpathSync(copyFixture('mixed'));
    const d = await serve(repo);
    try {
      await settled(d.client);
      const beyond: [string, unknown, string][] = [
        ['/v1/context', { query: 'cart', slots: { core: 1e9, companion: 1e7 } }, 'slots'],
        ['/v1/context', { query: 'cart', slots: `${LIMITS.core + 1}+1` }, 'slots'],
        ['/v1/context', { query: 'cart', budget: LIMITS.budget + 1 }, 'budget'],
        ['/v1/context', { query: 'cart', budget: 1e300 }, 'budget'],
        ['/v1/context', { query: 'cart', objectCap: LIMITS.objectCap + 1 }, 'objectCap'],
        ['/v1/context', { query: 'cart', floor: LIMITS.floor + 1 }, 'floor'],
        ['/v1/context', { query: 'cart', headLines: LIMITS.headLines + 1 }, 'headLines'],
        ['/v1/context', { query: 'cart', rrfK: 1e6 }, 'rrfK'],
        ['/v1/context', { query: 'cart', session: 's'.repeat(201) }, 'session'],
        ['/v1/search', { query: 'cart', k: MAX_K + 1 }, 'k'],
        ['/v1/search', { query: 'c'.repeat(MAX_QUERY_CHARS + 1) }, 'query'],
        ['/v1/files/select', { issue: 'cart', budget: LIMITS.budget + 1, llm: false }, 'budget'],
        ['/v1/files/select', { issue: 'cart', answers: [['a'], ['b'], ['c'], ['d']], llm: false }, 'answers'],
        ['/v1/inventory', { issue: 'i'.repeat(MAX_ISSUE_CHARS + 1) }, 'issue'],
      ];
      for (const [route, body, field] of beyond) {
        const r = await raw(d.info, 'POST', route, post(body));
        expect([route, field, r.status], r.body).toEqual([route, field, 400]);
        expect(r.json().error).toEqual({ code: 'invalid-request', message: expect.stringMatching(new RegExp(`^${field}`)) });
      }
      const t0 = Date.now();
      const [ctx, search, status] = await Promise.all([
        raw(d.info, 'POST', '/v1/context', post({ query: 'cart total '.repeat(900), budget: LIMITS.budget, objectCap: LIMITS.objectCap, floor: 0, headLines: LIMITS.headLines, slots: `${LIMITS.core}+${LIMITS.companion}` })),
        raw(d.info, 'POST', '/v1/search', post({ query: 'cart', k: MAX_K })),
        raw(d.info, 'GET', '/v1/status'),
      ]);
      expect([ctx.status, search.status, status.status], ctx.body.slice(0, 300)).toEqual([200, 200, 200]);
      expect(ctx.json().totalTokens).toBeLessThanOrEqual(LIMITS.budget);
      expect(Date.now() - t0).toBeLessThan(30_000);
      const after = await d.client.status();
      expect(after.pid).toBe(d.child.pid);
      expect(after.queries.errors).toBe(beyond.length);
    } finally {
      expect(await d.stop()).toEqual({ code: 0, signal: null });
      fs.rmSync(repo, { recursive: true, force: true });
    }
  });
});
