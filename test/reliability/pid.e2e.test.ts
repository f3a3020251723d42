// `allot stop` signals only the daemon it started (issue 17, item 2): the pid file's start time must match
// /proc/PID/stat and the process must answer /v1/status with the pid file's nonce. An unrelated process
// whose command line says "allot" (an editor on allot-todo.md) behind a stale or forged record is never
// signalled. Real daemon processes, the real CLI.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findDaemon, stopDaemonProcess } from '../../client/lib/index.ts';
import { daemonPaths } from '../../daemon/config.ts';
import { isAlive, processStartTime, readPidRecord } from '../../daemon/lifecycle.ts';
import { allotAsync, killDaemons, serve } from '../helpers/daemon.ts';
import { hostileRepo, type Hostile } from './harness.ts';

const T = { timeout: 120_000 };
afterAll(killDaemons);
const made: Hostile[] = [];
const bystanders: ChildProcess[] = [];
afterAll(() => {
  bystanders.forEach((b) => b.kill('SIGKILL'));
  made.splice(0).forEach((h) => h.cleanup());
});

/**
 * A process that is not allot but whose command line mentions it, as `vim .../allot-todo.md` would. It notes
 * every SIGTERM, SIGINT or SIGHUP in `<repo>/signals` (and survives them), so a test can tell it was never signalled.
 */
async function bystander(dir: string): Promise<{ pid: number; signals(): string }> {
  const mark = path.join(dir, 'signals');
  const code = `for (const s of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(s, () => require('fs').appendFileSync(${JSON.stringify(mark)}, s + '\\n')); setInterval(() => {}, 1000)`;
  const b = spawn(process.execPath, ['-e', code, '/home/me/allot-todo.md'], { stdio: 'ignore' });
  bystanders.push(b);
  await new Promise((res) => b.once('spawn', res));
  return { pid: b.pid!, signals: () => (fs.existsSync(mark) ? fs.readFileSync(mark, 'utf8') : '') };
}

function repo(): string {
  const h = hostileRepo();
  made.push(h);
  fs.mkdirSync(path.join(h.repo, '.allot'), { mode: 0o700 });
  return h.repo;
}

const writeRecord = (r: string, record: object | string) =>
  fs.writeFileSync(daemonPaths(r).pid, typeof record === 'string' ? record : `${JSON.stringify(record)}\n`, { mode: 0o600 });

describe.concurrent('the pid record', () => {
  it('a reused pid (another start time) is stale: stop removes the record and signals nothing', T, async () => {
    const r = repo();
    const b = await bystander(r);
    const start = processStartTime(b.pid)!;
    writeRecord(r, { pid: b.pid, nonce: 'n'.repeat(22), start: String(Number(start) - 100) });
    const stopped = await allotAsync(['stop', r]);
    expect(stopped.status, stopped.stderr).toBe(0);
    expect(stopped.stdout).toMatch(new RegExp(`removed the stale pid file of pid ${b.pid}`));
    expect(fs.existsSync(daemonPaths(r).pid)).toBe(false);
    expect(isAlive(b.pid)).toBe(true);
    expect(b.signals()).toBe('');
    // and `start` takes the lock over instead of trusting the record
    writeRecord(r, { pid: b.pid, nonce: 'n'.repeat(22), start: '1' });
    expect(await findDaemon(r)).toEqual({ state: 'stale', pid: b.pid });
  });

  it('a record with the right start time that never answers with its nonce is never signalled', T, async () => {
    const r = repo();
    const b = await bystander(r);
    writeRecord(r, { pid: b.pid, nonce: 'n'.repeat(22), start: processStartTime(b.pid) });
    await expect(stopDaemonProcess(r, { timeoutMs: 1500 })).rejects.toThrow(/did not answer as its daemon .* it was not signalled/);
    // an older allot's bare pid file for a process whose command line says allot: not signalled either
    writeRecord(r, `${b.pid}\n`);
    await expect(stopDaemonProcess(r, { timeoutMs: 1500 })).rejects.toThrow(/not signalled/);
    const cli = await allotAsync(['stop', r, '--timeout', '1']);
    expect(cli.status).toBe(2);
    expect(cli.stderr).toMatch(/^allot: .*not signalled.*\n$/);
    expect(isAlive(b.pid)).toBe(true);
    expect(b.signals()).toBe('');
    expect(readPidRecord(daemonPaths(r).pid)?.pid).toBe(b.pid);
  });

  it('a record copied from a live daemon of another repository (its pid, start time and address, another nonce) does not stop it', T, async () => {
    const a = repo();
    const d = await serve(a);
    try {
      const real = readPidRecord(daemonPaths(a).pid)!;
      expect(real).toMatchObject({ pid: d.child.pid, start: processStartTime(d.child.pid!) });
      expect((await d.client.status()).nonce).toBe(real.nonce);
      const r = repo();
      writeRecord(r, { ...real, nonce: 'forged-nonce-forged-nonce' });
      fs.copyFileSync(daemonPaths(a).info, daemonPaths(r).info);
      expect((await findDaemon(r)).state).toBe('starting');
      await expect(stopDaemonProcess(r, { timeoutMs: 1500 })).rejects.toThrow(/not signalled/);
      expect((await d.client.status()).pid).toBe(d.child.pid);
      // the daemon's own record does stop it
      const stopped = await allotAsync(['stop', a]);
      expect(stopped.stdout).toMatch(new RegExp(`stopped allot daemon for .* \\(pid ${d.child.pid}\\)`));
      expect(await d.exited).toEqual({ code: 0, signal: null });
    } finally {
      await d.stop();
    }
  });
});
