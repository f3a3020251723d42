// The real daemon (`allot serve`) on a temporary copy of test/fixtures/mixed,
// queried over real HTTP: the API, freshness after edits, events, security.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildContext } from '../../allocator/context.ts';
import { retrieverFor } from '../../indexer/retrieve/select.ts';
import { search } from '../../indexer/retrieve/search.ts';
import { storeObjectSource } from '../../indexer/store/object-source.ts';
import { openStore } from '../../indexer/store/open.ts';
import type { DaemonEvent } from '../../daemon/types.ts';
import { allot } from '../helpers/cli.ts';
import { allotAsync, killDaemons, raw, serve, type Served, settled, waitFor } from '../helpers/daemon.ts';
import { checkConsistency, copyFixture, tempDir } from '../helpers/repo.ts';

// whatever happens, no daemon outlives this file
afterAll(killDaemons);

let repo: string;
let d: Served;
/** Whether a search for `name` finds the object `name` in `file` (other hits share identifier parts). */
const finds = async (file: string, name: string) => (await d.client.search({ query: name, k: 10 })).some((h) => h.path === file && h.object === name);

beforeAll(async () => {
  repo = copyFixture('mixed');
  d = await serve(repo);
  await settled(d.client);
});
afterAll(async () => {
  await d?.stop();
  if (process.env.ALLOT_TEST_DAEMON_LOG) fs.writeFileSync(process.env.ALLOT_TEST_DAEMON_LOG, d?.log() ?? '');
  fs.rmSync(repo, { recursive: true, force: true });
});

describe('allot serve: the API', () => {
  it('publishes how to reach it in daemon.json (0600) and reports its status', async () => {
    const file = path.join(repo, '.allot/daemon.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(d.info).toMatchObject({ pid: d.child.pid, repo: fs.realpathSync(repo), host: '127.0.0.1', socket: null });
    const s = await d.client.status();
    expect(s).toMatchObject({
      pid: d.child.pid,
      repo: fs.realpathSync(repo),
      index: { files: 8, filesByLanguage: { python: 4, text: 2, typescript: 2 } },
      indexing: { state: 'idle', catchingUp: false, lastBatch: { full: true, error: null } },
      pending: { paths: 0, full: false },
      watcher: { state: 'watching' },
      lastError: null,
    });
    expect(s.index.objects).toBeGreaterThan(10);
    // The catch-up parses every file; a stat-only re-check follows when it scanned before the watcher was ready.
    expect(d.log()).toMatch(/indexed repository: 8 parsed/);
    expect(s.indexing.batches).toBe(/indexed repository: 0 parsed/.test(d.log()) ? 2 : 1);
    expect(s.uptimeSeconds).toBeGreaterThanOrEqual(0);
  });

  it('answers search and context exactly as the in-process functions do', async () => {
    const db = openStore(path.join(repo, '.allot/index.db'), { readonly: true });
    try {
      expect(await d.client.search({ query: 'apply discount', k: 7 })).toEqual(search(db, 'apply discount', 7, await retrieverFor(db)));
      expect(await d.client.search({ query: 'apply discount', k: 7, retriever: 'bm25' })).toEqual(search(db, 'apply discount', 7));
      const options = { budget: 700, slots: '3+1' as const };
      const remote = await d.client.context({ query: 'cart total price', ...options });
      expect(remote).toEqual(buildContext('cart total price', await retrieverFor(db), storeObjectSource(db), options));
      const structural = await d.client.context({ query: 'from shop.pricing import with_tax\nx = ', retriever: 'structural', ...options });
      expect(structural.blocks[0]).toMatchObject({ path: 'shop/pricing.py', object: 'with_tax' });
      expect(remote.totalTokens).toBeLessThanOrEqual(700);
      expect(remote.blocks.length).toBeGreaterThan(0);
    } finally {
      db.close();
    }
  });

  it('arbitrates between two programs against the index, and refuses malformed requests', async () => {
    const good = 'from shop.pricing import apply_discount\n\n\ndef half(amount):\n    return apply_discount(amount, 50)\n';
    const bad = 'from shop.pricing import apply_discount\n\n\ndef half(amount):\n    return apply_discount(amount)\n';
    const body = await d.client.arbitrate({ default: bad, alternative: good, language: 'python' });
    expect(body.choice).toBe('alternative');
    expect(body.witnesses.find((w: { type: string }) => w.type === 'interface')).toMatchObject({ direction: 'alternative' });
    const same = await d.client.arbitrate({ default: good, alternative: good, language: 'python' });
    expect(same.choice).toBe('default');
    const missing = await raw(d.info, 'POST', '/v1/arbitrate', { body: JSON.stringify({ default: good, language: 'python' }) });
    expect(missing.status).toBe(400);
    expect(missing.json().error.code).toBe('invalid-request');
  });

  it('gives the CLI the same output through the daemon as in-process', async () => {
    const before = (await d.client.status()).queries;
    // --json prints every field; --explain prints the whole trace and the rendered text
    const cases = [['search', 'formatPrice', '--json'], ['context', 'apply discount', '--budget', '512', '--explain']];
    const runs = await Promise.all(cases.map((args) => Promise.all([allotAsync([...args, '--repo', repo]), allotAsync([...args, '--repo', repo, '--no-daemon'])])));
    for (const [via, local] of runs) {
      expect(via.status, via.stderr).toBe(0);
      expect(via.stdout).toBe(local.stdout);
      expect(via.stdout.length).toBeGreaterThan(10);
    }
    const after = (await d.client.status()).queries;
    expect(after.search - before.search).toBe(1);
    expect(after.context - before.context).toBe(1);
  });

  it('serves one object with its views and references, and indexed files', async () => {
    const [hit] = await d.client.search({ query: 'apply_discount', k: 1 });
    const o = await d.client.object(hit.objectId);
    expect(o.object).toMatchObject({ id: hit.objectId, name: 'apply_discount', path: 'shop/pricing.py' });
    expect(o.views.map((v) => v.kind)).toEqual(expect.arrayContaining(['signature', 'body']));
    expect(o.references.to.length).toBeGreaterThan(0);
    expect(o.references.to.every((r) => r.targetId === hit.objectId)).toBe(true);
    const f = await d.client.files('shop/pricing.py');
    expect(f.text).toBe(fs.readFileSync(path.join(repo, 'shop/pricing.py'), 'utf8'));
    expect(f).toMatchObject({ path: 'shop/pricing.py', language: 'python' });
    await expect(d.client.object('ffffffffffffffff')).rejects.toMatchObject({ status: 404, code: 'not-found' });
    await expect(d.client.files('shop/nothing.py')).rejects.toMatchObject({ status: 404, code: 'not-found' });
  });
});

describe('allot serve: watching', () => {
  it('reflects a saved file, a new file in a new folder and a deletion', async () => {
    fs.appendFileSync(path.join(repo, 'shop/cart.py'), '\n\ndef quokka_checkout(cart):\n    """Checks out with a quokka."""\n    return cart\n');
    await waitFor(() => finds('shop/cart.py', 'quokka_checkout'), 'the edit to show');
    fs.mkdirSync(path.join(repo, 'billing/invoices'), { recursive: true });
    fs.writeFileSync(path.join(repo, 'billing/invoices/pdf.py'), 'def render_wombat_invoice(order):\n    return order\n');
    await waitFor(() => finds('billing/invoices/pdf.py', 'render_wombat_invoice'), 'the new file to show');
    fs.rmSync(path.join(repo, 'billing'), { recursive: true });
    await waitFor(async () => !(await finds('billing/invoices/pdf.py', 'render_wombat_invoice')), 'the deleted folder to vanish');
    await expect(d.client.files('billing/invoices/pdf.py')).rejects.toMatchObject({ code: 'not-found' });
  });

  it('honours ignore rules, and re-discovers when they change', async () => {
    fs.mkdirSync(path.join(repo, 'node_modules/dep'), { recursive: true });
    fs.writeFileSync(path.join(repo, 'node_modules/dep/index.js'), 'function ignored_platypus() {}\n');
    fs.writeFileSync(path.join(repo, 'scratch.py'), 'def scratch_echidna():\n    pass\n');
    await waitFor(() => finds('scratch.py', 'scratch_echidna'), 'scratch.py to show');
    expect((await d.client.search({ query: 'ignored_platypus' })).filter((h) => h.path.startsWith('node_modules/'))).toEqual([]);
    fs.writeFileSync(path.join(repo, '.gitignore'), 'scratch.py\n');
    await waitFor(async () => !(await finds('scratch.py', 'scratch_echidna')), 'scratch.py to leave the index');
    fs.rmSync(path.join(repo, '.gitignore'));
    await waitFor(() => finds('scratch.py', 'scratch_echidna'), 'scratch.py to come back');
    const s = await settled(d.client);
    expect(s.watcher.state).toBe('watching');
    fs.rmSync(path.join(repo, 'scratch.py'));
    fs.rmSync(path.join(repo, 'node_modules'), { recursive: true });
    await waitFor(async () => !(await finds('scratch.py', 'scratch_echidna')), 'scratch.py to be gone');
  });

  it('streams index progress and file updates', async () => {
    await settled(d.client);
    const ac = new AbortController();
    const seen: DaemonEvent[] = [];
    const reading = (async () => {
      for await (const ev of d.client.events({ signal: ac.signal })) {
        seen.push(ev);
        if (ev.type === 'indexed' && ev.paths.includes('web/format.ts')) break;
      }
    })();
    await waitFor(() => seen.some((e) => e.type === 'hello'), 'the hello event');
    fs.appendFileSync(path.join(repo, 'web/format.ts'), '\nexport const KANGAROO = 1;\n');
    await waitFor(() => seen.some((e) => e.type === 'indexed'), 'the indexed event');
    ac.abort();
    await reading;
    const types = seen.map((e) => e.type);
    expect(types[0]).toBe('hello');
    expect(types).toEqual(expect.arrayContaining(['changes', 'batch', 'progress', 'indexed']));
    expect(seen.some((e) => e.type === 'changes' && e.paths.includes('web/format.ts'))).toBe(true);
    expect(seen.findLast((e) => e.type === 'indexed')).toMatchObject({ report: { parsed: 1, error: null }, paths: ['web/format.ts'] });
  });
});

describe('allot serve: security', () => {
  it('requires the bearer token', async () => {
    const none = await raw(d.info, 'GET', '/v1/status', { token: null });
    expect(none.status).toBe(401);
    expect(none.json().error.code).toBe('unauthorized');
    const wrong = await raw(d.info, 'POST', '/v1/search', { token: 'a'.repeat(43), body: '{"query":"cart"}' });
    expect(wrong.status).toBe(401);
    expect((await raw(d.info, 'GET', '/v1/status')).status).toBe(200);
  });

  it('refuses foreign Host headers (DNS rebinding) and browser origins, and sends no CORS headers', async () => {
    for (const host of ['attacker.example', `rebind.attacker.example:${d.info.port}`, '192.168.1.5']) {
      const r = await raw(d.info, 'GET', '/v1/status', { headers: { host } });
      expect(r.status, host).toBe(403);
      expect(r.json().error.code).toBe('forbidden-host');
    }
    expect((await raw(d.info, 'GET', '/v1/status', { headers: { host: `localhost:${d.info.port}` } })).status).toBe(200);
    const origin = await raw(d.info, 'POST', '/v1/search', { headers: { origin: 'http://attacker.example' }, body: '{"query":"x"}' });
    expect(origin.status).toBe(403);
    const preflight = await raw(d.info, 'OPTIONS', '/v1/search', { token: null, headers: { origin: 'http://attacker.example', 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBeGreaterThanOrEqual(400);
    for (const r of [origin, preflight]) expect(Object.keys(r.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
  });

  it('serves only indexed files inside the repository', async () => {
    const outside = tempDir('allot-outside-');
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'top secret\n');
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(repo, 'leak.txt'));
    try {
      for (const p of ['../../etc/passwd', '..%2F..%2Fetc%2Fpasswd', '%2Fetc%2Fpasswd', 'shop/..%2F..%2Fx', 'shop%5C..%5C..%5Cx', 'leak.txt', `${encodeURIComponent(outside)}%2Fsecret.txt`]) {
        const r = await raw(d.info, 'GET', `/v1/files?path=${p}`);
        expect([403, 404], p).toContain(r.status);
        expect(r.body).not.toMatch(/top secret|root:/);
      }
      expect((await raw(d.info, 'GET', '/v1/files?path=..%2F..%2Fetc%2Fpasswd')).json().error.code).toBe('forbidden-path');
      expect((await raw(d.info, 'GET', '/v1/files?path=shop%2Fcart.py')).status).toBe(200);
    } finally {
      fs.rmSync(path.join(repo, 'leak.txt'));
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it('answers bad requests with clear errors and keeps serving', async () => {
    const malformed = await raw(d.info, 'POST', '/v1/search', { body: '{"query": "cart"' });
    expect(malformed.status).toBe(400);
    expect(malformed.json()).toEqual({ error: { code: 'bad-json', message: expect.stringMatching(/malformed JSON/) } });
    const invalid = await raw(d.info, 'POST', '/v1/context', { body: '{"query": "cart", "slots": "0+9"}' });
    expect(invalid.status).toBe(400);
    expect(invalid.json().error).toEqual({ code: 'invalid-request', message: expect.stringMatching(/^slots: /) });
    const big = await raw(d.info, 'POST', '/v1/search', { body: JSON.stringify({ query: 'x'.repeat(1024 * 1024) }) });
    expect(big.status).toBe(413);
    expect(big.json().error.code).toBe('payload-too-large');
    expect((await raw(d.info, 'GET', '/v1/nowhere')).status).toBe(404);
    expect((await d.client.search({ query: 'cart', k: 1 })).length).toBe(1);
  });
});

describe('allot serve: one per repository, and SIGTERM', () => {
  it('refuses a second daemon on the same repository', async () => {
    const second = allot(['serve', repo]);
    expect(second.status).toBe(2);
    expect(second.stderr).toMatch(new RegExp(`pid ${d.child.pid}\\) is already running`));
    expect((await d.client.status()).pid).toBe(d.child.pid);
  });

  it('answers an empty repository with empty results, not an error', async () => {
    const empty = tempDir('allot-empty-');
    const e = await serve(empty);
    try {
      await settled(e.client);
      expect(await e.client.search({ query: 'anything' })).toEqual([]);
      const ctx = await e.client.context({ query: 'anything' });
      expect(ctx.blocks).toEqual([]);
      expect((await e.client.status()).index.files).toBe(0);
    } finally {
      await e.stop();
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });

  it('on SIGTERM closes the database and removes its pid file', async () => {
    const exit = await d.stop('SIGTERM');
    expect(exit).toEqual({ code: 0, signal: null });
    expect(fs.existsSync(path.join(repo, '.allot/daemon.pid'))).toBe(false);
    expect(fs.existsSync(path.join(repo, '.allot/daemon.json'))).toBe(false);
    // closed cleanly: the WAL was checkpointed away
    expect(fs.existsSync(path.join(repo, '.allot/index.db-wal'))).toBe(false);
    const db = openStore(path.join(repo, '.allot/index.db'), { readonly: true });
    expect(checkConsistency(db)).toEqual([]);
    db.close();
    expect(d.log()).toMatch(/stopping: SIGTERM[\s\S]*stopped/);
  });
});
