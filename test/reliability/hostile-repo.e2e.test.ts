// A hostile repository served by a real daemon, asked over real HTTP: a committed `.gitignore -> /dev/zero`, a FIFO,
// links to a secret outside, and a find_symbol glob built to backtrack. The daemon settles, never serves the secret,
// refuses the planted paths, answers the glob at once, and drops an indexed file that became a link.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { killDaemons, raw, serve, settled, waitFor } from '../helpers/daemon.ts';
import { hostileRepo } from './harness.ts';

afterAll(killDaemons);

const post = (body: unknown) => ({ body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

describe('a hostile repository behind the daemon', () => {
  it('settles, never serves what lies outside, and answers a backtracking glob at once', { timeout: 120_000 }, async () => {
    const h = hostileRepo();
    fs.writeFileSync(h.victim, 'SECRET_OUTSIDE = 1\n');
    fs.symlinkSync('/dev/zero', path.join(h.repo, 'shop/.gitignore'));
    expect(spawnSync('mkfifo', [path.join(h.repo, 'shop/fifo.py')]).status).toBe(0);
    fs.symlinkSync(h.victim, path.join(h.repo, 'shop/secret.py'));
    fs.symlinkSync(h.sentinel, path.join(h.repo, 'outside'));
    const long = `shop/${'a'.repeat(60)}.py`;
    fs.writeFileSync(path.join(h.repo, long), 'def aaa():\n    return 1\n');
    const d = await serve(h.repo);
    try {
      await settled(d.client, 60_000);
      for (const p of ['shop/fifo.py', 'shop/secret.py', 'outside/victim.txt']) {
        const r = await raw(d.info, 'POST', '/v1/files/read', post({ path: p }));
        expect([p, r.status], r.body).toEqual([p, 404]);
      }
      const search = await raw(d.info, 'POST', '/v1/search', post({ query: 'SECRET_OUTSIDE' }));
      expect(search.status).toBe(200);
      expect(search.body).not.toContain('SECRET_OUTSIDE = 1');

      // picomatch's expression backtracked for minutes on this glob against the long name: a query thread gone
      const glob = `${'*a'.repeat(40)}*b`;
      const found = await raw(d.info, 'POST', '/v1/symbols', post({ name: 'aaa', path: `shop/${glob}` }));
      expect(found.status, found.body).toBe(200);
      expect(found.json().matches).toEqual([]);
      const plain = await raw(d.info, 'POST', '/v1/symbols', post({ name: 'aaa', path: 'shop/*a.py' }));
      expect([...new Set(plain.json().matches.map((m: { path: string }) => m.path))]).toEqual([long]);
      const wide = await raw(d.info, 'POST', '/v1/symbols', post({ name: 'aaa', path: '{a,b}'.repeat(7) }));
      expect(wide.status).toBe(400);
      expect(wide.json().error.message).toMatch(/^path: .*more than 64 globs/);

      // an indexed file swapped for a link to the secret: the watcher drops it, read_file never shows the secret
      const cart = path.join(h.repo, 'shop/cart.py');
      expect((await raw(d.info, 'POST', '/v1/files/read', post({ path: 'shop/cart.py' }))).status).toBe(200);
      fs.rmSync(cart);
      fs.symlinkSync(h.victim, cart);
      await waitFor(async () => (await raw(d.info, 'POST', '/v1/files/read', post({ path: 'shop/cart.py' }))).status !== 200 || null, 'the link to leave the index');
      const after = await raw(d.info, 'POST', '/v1/files/read', post({ path: 'shop/cart.py' }));
      expect(after.body).not.toContain('SECRET_OUTSIDE');
      expect((await d.client.status()).pid).toBe(d.child.pid);
    } finally {
      expect(await d.stop()).toEqual({ code: 0, signal: null });
      h.cleanup();
    }
  });
});
