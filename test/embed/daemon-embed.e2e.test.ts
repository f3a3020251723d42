/**
 * The daemon embeds in the background: after a batch writes new objects, the
 * writer thread gives them vectors of the index's dense model, and status
 * reports it. A real daemon process on a copy of a fixture.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isSettled, killDaemons, serve, waitFor, type Served } from '../helpers/daemon.ts';
import { allot } from '../helpers/cli.ts';
import { copyFixture } from '../helpers/repo.ts';

describe('daemon: background embedding', () => {
  let daemon: Served | null = null;
  afterAll(async () => {
    await daemon?.stop();
    killDaemons();
  });

  it('embeds new objects after each batch and reports dense status', async () => {
    const repo = copyFixture('mixed');
    const idx = allot(['index', repo, '--embed', 'repo']);
    expect(idx.status, idx.stderr).toBe(0);
    daemon = await serve(repo);
    const settled = await waitFor(async () => {
      const s = await daemon!.client.status();
      return isSettled(s) && s.dense.state === 'ready' ? s : null;
    }, 'the daemon to settle');
    expect(settled.dense.model).toMatch(/^allot\/repo-ppmi@/);
    expect(settled.dense.embedded).toBe(settled.dense.objects);

    fs.writeFileSync(path.join(repo, 'shop', 'totals.py'), 'def discount_total(cart, percent):\n    """Cart total after the discount percent."""\n    return cart.total(percent)\n');
    const hit = await waitFor(async () => {
      const hits = await daemon!.client.search({ query: 'discount total percent', k: 5, retriever: 'dense' });
      return hits.find((h) => h.object === 'discount_total');
    }, 'the new function to be found by dense retrieval');
    expect(hit.path).toBe('shop/totals.py');
    const after = await waitFor(async () => {
      const s = await daemon!.client.status();
      return s.dense.state === 'ready' && s.dense.objects === settled.dense.objects + 1 ? s : null;
    }, 'status to count the new object');
    expect(after.dense.embedded).toBe(after.dense.objects);
  });
});
