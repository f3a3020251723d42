// `allot start` / `status` / `stop`, `--daemon` on demand, stale pid files and
// the Unix socket, through the real CLI and the client library. Each test has
// its own repository, so they run side by side (CLI processes take a while to boot).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connect, findDaemon, NoDaemon, stopDaemonProcess } from '../../client/lib/index.ts';
import { newToken, writeDaemonInfo } from '../../daemon/config.ts';
import { isAlive } from '../../daemon/lifecycle.ts';
import { allotAsync, killDaemons, raw, settled, track, waitFor } from '../helpers/daemon.ts';
import { copyFixture, tempDir } from '../helpers/repo.ts';

// whatever happens, no daemon outlives this file
afterAll(killDaemons);

const dirs: string[] = [];
const repos: string[] = [];
function fixture(): string {
  const repo = fs.realpathSync(copyFixture('mixed'));
  repos.push(repo);
  return repo;
}
afterAll(async () => {
  for (const repo of repos) await stopDaemonProcess(repo).catch(() => {});
  [...repos, ...dirs].forEach((d) => fs.rmSync(d, { recursive: true, force: true }));
});

describe.concurrent('allot start, status, stop', () => {
  it('starts one daemon in the background, finds it again, and stops it', async () => {
    const repo = fixture();
    const started = await allotAsync(['start', repo]);
    expect(started.status, started.stderr).toBe(0);
    const pid = track(Number(/started allot daemon for .* \(pid (\d+), 127\.0\.0\.1:\d+\)/.exec(started.stdout)?.[1]));
    expect(isAlive(pid)).toBe(true);
    expect(fs.existsSync(path.join(repo, '.allot/daemon.log'))).toBe(true);

    const allot = await connect({ repo });
    await settled(allot);
    // independent commands run side by side
    const [again, status, search] = await Promise.all([
      allotAsync(['start', repo]),
      allotAsync(['status', repo]),
      allotAsync(['search', 'apply discount', '--json'], { cwd: path.join(repo, 'shop') }),
    ]);
    expect(again.stdout).toMatch(new RegExp(`already running: allot daemon for .* \\(pid ${pid},`));
    expect(status.status).toBe(0);
    expect(status.stdout).toMatch(new RegExp(`pid +${pid}, up \\d+`));
    expect(status.stdout).toMatch(/index +8 files \(python 4, text 2, typescript 2\)/);
    expect(status.stdout).toMatch(/watcher +watching/);
    // the CLI in the repository used the daemon
    expect(JSON.parse(search.stdout)[0]).toMatchObject({ object: 'apply_discount', fiber: 'shop/pricing.py' });
    expect((await allot.status()).queries.search).toBe(1);
    allot.close();

    const stopped = await allotAsync(['stop', repo]);
    expect(stopped.stdout).toMatch(new RegExp(`stopped allot daemon for .* \\(pid ${pid}\\)`));
    expect(isAlive(pid)).toBe(false);
    expect(fs.existsSync(path.join(repo, '.allot/daemon.pid'))).toBe(false);
    const [after, stopAgain] = await Promise.all([allotAsync(['status', repo]), allotAsync(['stop', repo])]);
    expect(after.status).toBe(1);
    expect(after.stdout).toMatch(/not running/);
    expect(stopAgain.stdout).toMatch(/no allot daemon running/);
    await expect(connect({ repo })).rejects.toBeInstanceOf(NoDaemon);
  });

  it('cleans up a stale pid file, starts on demand with --daemon, and listens on a Unix socket (0600) when asked', async () => {
    const repo = fixture();
    fs.mkdirSync(path.join(repo, '.allot'), { recursive: true });
    fs.writeFileSync(path.join(repo, '.allot/daemon.pid'), '999999999\n');
    writeDaemonInfo(path.join(repo, '.allot/daemon.json'), {
      version: '0.0.0', pid: 999999999, repo, db: path.join(repo, '.allot/index.db'), host: '127.0.0.1', port: 9, socket: null,
      token: newToken(), startedAt: new Date(0).toISOString(),
    });
    expect(await findDaemon(repo)).toEqual({ state: 'stale', pid: 999999999 });

    const ctx = await allotAsync(['context', 'cart total', '--budget', '300', '--daemon', '--repo', repo]);
    expect(ctx.status, ctx.stderr).toBe(0);
    expect(ctx.stderr).toMatch(/started the daemon/);
    expect(ctx.stdout).toMatch(/cart/i);
    const found = await findDaemon(repo);
    if (found.state === 'running') track(found.info.pid);
    // (a brand-new index answers `index-building` until its first run is done: the CLI waited for it)
    expect(found.state === 'running' && found.status.queries.context).toBeGreaterThanOrEqual(1);
    expect(await stopDaemonProcess(repo)).toMatchObject({ was: 'running' });

    const dir = tempDir('allot-sock-');
    dirs.push(dir);
    const socket = path.join(dir, 'allot.sock');
    const started = await allotAsync(['start', repo, '--socket', socket]);
    expect(started.status, started.stderr).toBe(0);
    expect(started.stdout).toMatch(new RegExp(`unix:${socket}`));
    expect(fs.statSync(socket).isSocket()).toBe(true);
    expect(fs.statSync(socket).mode & 0o777).toBe(0o600);
    const allot = await connect({ repo });
    track(allot.info.pid);
    expect(allot.info).toMatchObject({ socket, port: null, host: null });
    await waitFor(async () => (await allot.search({ query: 'formatPrice', k: 1 })).length === 1, 'a search over the socket');
    expect((await raw(allot.info, 'GET', '/v1/status', { headers: { host: 'attacker.example' } })).status).toBe(403);
    expect((await raw(allot.info, 'GET', '/v1/status', { headers: { host: 'localhost' } })).status).toBe(200);
    expect((await raw(allot.info, 'GET', '/v1/status', { token: null, headers: { host: 'localhost' } })).status).toBe(401);
    allot.close();
    expect(await stopDaemonProcess(repo)).toMatchObject({ was: 'running' });
    expect(fs.existsSync(socket)).toBe(false);
  });
});
