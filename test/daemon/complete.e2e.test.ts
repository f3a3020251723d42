// Honest states through the real daemon: a first build killed half-way is never served as complete after a
// restart; `--idle-exit`; and Continue's HTTP context provider contract on `POST /v1/continue`.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../indexer/store/open.ts';
import { fullBuildDone } from '../../indexer/store/full-build.ts';
import { chosenToken } from '../../daemon/config.ts';
import { allot } from '../helpers/cli.ts';
import { caughtIndexing, killDaemons, raw, serve, settled, waitFor } from '../helpers/daemon.ts';
import { copyFixture, moduleTree, tempDir, writeTree } from '../helpers/repo.ts';

const dirs: string[] = [];
afterAll(() => {
  killDaemons();
  dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true }));
});

const json = (body: unknown) => ({ body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

describe('ALLOT_TOKEN', () => {
  it('is taken when long and plain enough, and refused with a clear error otherwise', () => {
    expect(chosenToken(undefined)).toBeNull();
    expect(chosenToken('')).toBeNull();
    expect(chosenToken('a'.repeat(32))).toBe('a'.repeat(32));
    expect(() => chosenToken('short')).toThrow(/^ALLOT_TOKEN must be 32 to 512 characters/);
    expect(() => chosenToken(`${'a'.repeat(40)} b`)).toThrow(/ALLOT_TOKEN/);
    const repo = copyFixture('mixed');
    dirs.push(repo);
    const r = allot(['serve', repo], { env: { ALLOT_TOKEN: 'too short' } });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('allot: ALLOT_TOKEN must be 32 to 512 characters of letters, digits and ._~+/=- (e.g. `openssl rand -base64 32`)\n');
  });
});

describe.concurrent('honest states', () => {
  it('a first build killed with -9 stays incomplete after a restart until a full run finishes', { timeout: 180_000 }, async () => {
    const repo = fs.realpathSync(tempDir('allot-partial-'));
    dirs.push(repo);
    writeTree(repo, moduleTree(300));
    const first = await caughtIndexing(repo, 0.5);
    // Kill it once a batch of files is committed and most are still to do.
    const reader = openStore(path.join(repo, '.allot/index.db'), { readonly: true });
    const committed = reader.prepare('SELECT count(*) AS n FROM files').pluck();
    await waitFor(() => (committed.get() as number) > 0, 'a committed batch', 60_000, 5);
    reader.close();
    first.child.kill('SIGKILL');
    await first.exited;
    const db = openStore(path.join(repo, '.allot/index.db'), { readonly: true });
    const files = (db.prepare('SELECT count(*) AS n FROM files').get() as { n: number }).n;
    expect(files).toBeGreaterThan(0);
    expect(fullBuildDone(db)).toBe(false);
    db.close();

    // The restarted daemon holds those files, and says they are a part.
    const d = await serve(repo);
    try {
      const s = await d.client.status();
      expect(s.indexing.complete).toBe(false);
      expect(s.indexing.build).not.toBeNull();
      const refused = await raw(d.info, 'POST', '/v1/search', json({ query: 'work_1_1' }));
      const partial = await raw(d.info, 'POST', '/v1/symbols', { ...json({ name: 'work_1_1' }), headers: { 'content-type': 'application/json', 'x-allot-partial': '1' } });
      if (!(await d.client.status()).indexing.complete) {
        expect(refused.status).toBe(503);
        expect(refused.json().error).toEqual({ code: 'index-building', message: expect.stringMatching(/^the index is still being built \((starting|discover|parse \d+\/\d+ files|resolve \d+\/\d+ files)/) });
      }
      if (partial.headers['x-allot-complete'] === 'false') {
        expect(partial.headers['x-allot-progress']).toMatch(/^(starting|discover|parse \d+\/300 files|resolve 300\/300 files)/);
        expect(partial.json()).toMatchObject({ complete: false, progress: { phase: expect.any(String) } });
      }
      // (the restart's run may already be past its parse phase: at least the status read first said incomplete)
      await settled(d.client, 120_000);
      const after = await d.client.status();
      expect(after.indexing).toMatchObject({ complete: true, build: null });
      const done = await raw(d.info, 'POST', '/v1/symbols', json({ name: 'work_299_1' }));
      expect(done.status).toBe(200);
      expect(done.headers['x-allot-complete']).toBe('true');
      expect(done.json().matches[0]).toMatchObject({ qualifiedName: 'work_299_1', path: 'pkg/d19/mod299.py', match: 'exact' });
      expect(done.json()).not.toHaveProperty('complete');
    } finally {
      await d.stop();
    }
    const check = openStore(path.join(repo, '.allot/index.db'), { readonly: true });
    expect(fullBuildDone(check)).toBe(true);
    check.close();
  });

  it('--idle-exit: stops once no request has come for that long, and says so', { timeout: 60_000 }, async () => {
    const repo = fs.realpathSync(copyFixture('mixed'));
    dirs.push(repo);
    // 0.05 minutes: 3 s without a request (status requests count: a client is there).
    const d = await serve(repo, ['--idle-exit', '0.05']);
    await settled(d.client);
    const s = await d.client.status();
    expect(s.idleExit).toMatchObject({ minutes: 0.05, exitsAt: expect.any(String) });
    // A request moves the deadline.
    const before = Date.parse(s.idleExit!.exitsAt);
    await d.client.findSymbol({ name: 'Cart' });
    expect(Date.parse((await d.client.status()).idleExit!.exitsAt)).toBeGreaterThanOrEqual(before);
    const t0 = Date.now();
    expect(await d.exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - t0).toBeLessThan(20_000);
    expect(d.log()).toMatch(/no request for 0\.05 minute\(s\) \(--idle-exit\): stopping[\s\S]*stopped/);
    expect(fs.existsSync(path.join(repo, '.allot/daemon.pid'))).toBe(false);
  });

  it('POST /v1/continue answers Continue\'s HTTP context provider: {query, fullInput} in, [{name, description, content}] out', { timeout: 60_000 }, async () => {
    const repo = fs.realpathSync(copyFixture('mixed'));
    dirs.push(repo);
    // A token chosen once (ALLOT_TOKEN), so Continue's config keeps working across restarts.
    const token = 'continue-config-token-0123456789abcdef';
    const d = await serve(repo, ['--port', '0'], { ALLOT_TOKEN: token });
    expect(d.info.token).toBe(token);
    try {
      await settled(d.client);
      // What Continue sends for a "normal" provider: an empty query and the user's whole input, plus its params.options.
      const r = await raw(d.info, 'POST', '/v1/continue', json({ query: '', fullInput: '@allot how is the discount percent applied to a cart total?', options: { budget: 1024 } }));
      expect(r.status).toBe(200);
      expect(r.headers['x-allot-complete']).toBe('true');
      const items = r.json() as { name: string; description: string; content: string }[];
      expect(items.length).toBeGreaterThan(0);
      for (const item of items) {
        expect(Object.keys(item).sort()).toEqual(['content', 'description', 'name']);
        expect(typeof item.name).toBe('string');
        expect(item.description).toMatch(/^[\w/.]+:\d+-\d+ \(\w+, (core|companion|interface|fill); allot\)$/);
      }
      expect(items.map((i) => i.content).join('\n')).toContain('def apply_discount(amount, percent):');
      // Its query, when it has one, wins over the full input; unknown fields from a newer Continue are ignored.
      const q = (await raw(d.info, 'POST', '/v1/continue', json({ query: 'formatPrice currency', fullInput: 'ignored', workspacePath: repo, somethingNew: true }))).json() as { name: string }[];
      expect(q[0].name).toBe('formatPrice');
      // Notes come as items: a workspace the daemon does not serve, a budget too small, no query at all.
      const other = (await raw(d.info, 'POST', '/v1/continue', json({ query: 'cart', workspacePath: '/somewhere/else' }))).json() as { name: string; content: string }[];
      expect(other[0]).toMatchObject({ name: 'allot: other repository', content: expect.stringContaining(`this allot daemon serves ${repo}, not the workspace /somewhere/else`) });
      const tiny = (await raw(d.info, 'POST', '/v1/continue', json({ query: 'apply discount', options: { budget: 5 } }))).json() as { name: string; content: string }[];
      expect(tiny).toEqual([expect.objectContaining({ name: 'allot: budget', content: expect.stringMatching(/^Note from allot: nothing fit the budget of 5 tokens/) })]);
      expect((await raw(d.info, 'POST', '/v1/continue', json({ query: '', fullInput: '@allot' }))).json()).toEqual([expect.objectContaining({ name: 'allot: no query' })]);
      // The token is still required (Continue sends it from params.headers), and bad options are refused.
      expect((await raw(d.info, 'POST', '/v1/continue', { ...json({ query: 'cart' }), token: null })).status).toBe(401);
      const bad = await raw(d.info, 'POST', '/v1/continue', json({ query: 'cart', options: { budget: 'lots' } }));
      expect(bad.status).toBe(400);
      expect(bad.json().error.message).toMatch(/^options\.budget: /);
    } finally {
      await d.stop();
    }
  });
});
