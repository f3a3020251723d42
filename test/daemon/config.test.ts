import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { daemonPaths, DaemonInfoSchema, escapeControl, logLine, newToken, readDaemonInfo, writeDaemonInfo, type DaemonInfo } from '../../daemon/config.ts';
import { acquirePidFile, isAlive, isStale, processStartTime, readPid, readPidRecord, releasePidFile, type PidRecord } from '../../daemon/lifecycle.ts';
import { tempDir } from '../helpers/repo.ts';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
const repo = () => {
  const d = tempDir('allot-config-');
  dirs.push(d);
  return d;
};

const info = (over: Partial<DaemonInfo> = {}): DaemonInfo => ({
  version: '0.1.0', pid: process.pid, repo: '/r', db: '/r/.allot/index.db', host: '127.0.0.1', port: 4321, socket: null,
  token: newToken(), startedAt: new Date(0).toISOString(), ...over,
});

describe('daemon.json', () => {
  it('is written with mode 0600 and read back', () => {
    const p = daemonPaths(repo());
    const i = info();
    writeDaemonInfo(p.info, i);
    expect(fs.statSync(p.info).mode & 0o777).toBe(0o600);
    expect(readDaemonInfo(p.info)).toEqual(i);
    expect(fs.readdirSync(p.dir).sort()).toEqual(['.gitignore', 'daemon.json']);
  });

  it('reads absent, partial or foreign files as null', () => {
    const p = daemonPaths(repo());
    expect(readDaemonInfo(p.info)).toBeNull();
    fs.mkdirSync(p.dir, { recursive: true });
    fs.writeFileSync(p.info, '{"version": "0.1.0", "pid": 12');
    expect(readDaemonInfo(p.info)).toBeNull();
    fs.writeFileSync(p.info, JSON.stringify({ ...info(), token: 'short' }));
    expect(readDaemonInfo(p.info)).toBeNull();
  });

  it('names exactly one address: a loopback port or a socket', () => {
    expect(DaemonInfoSchema.safeParse(info()).success).toBe(true);
    expect(DaemonInfoSchema.safeParse(info({ host: null, port: null, socket: '/tmp/s' })).success).toBe(true);
    expect(DaemonInfoSchema.safeParse(info({ socket: '/tmp/s' })).success).toBe(false);
    expect(DaemonInfoSchema.safeParse(info({ host: '0.0.0.0' as '127.0.0.1' })).success).toBe(false);
  });

  it('tokens are long and distinct', () => {
    const a = newToken();
    expect(a.length).toBeGreaterThanOrEqual(43);
    expect(newToken()).not.toBe(a);
  });
});

describe('pid file lock', () => {
  it('admits one holder, refuses a live other, takes over from a dead one or a foreign process', () => {
    const p = daemonPaths(repo());
    // a live process holds the lock with its own start time
    const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', 'allot-lock-holder'], { stdio: 'ignore' });
    try {
      const taken = acquirePidFile(p, { pid: holder.pid! });
      expect(taken).toMatchObject({ ok: true, record: { pid: holder.pid, start: processStartTime(holder.pid!) } });
      expect(acquirePidFile(p)).toEqual({ ok: false, pid: holder.pid });
      releasePidFile(p, (taken as { record: PidRecord }).record);
      expect(fs.existsSync(p.pid)).toBe(false);
    } finally {
      holder.kill();
    }
    // a live pid whose start time is not the recorded one (pid reuse after a crash) is stale
    fs.writeFileSync(p.pid, JSON.stringify({ pid: process.ppid, nonce: 'n'.repeat(22), start: '1' }) + '\n');
    const mine = acquirePidFile(p);
    expect(mine.ok).toBe(true);
    expect(readPid(p.pid)).toBe(process.pid);
    releasePidFile(p, (mine as { record: PidRecord }).record);

    // stale: a pid that is surely gone, with its daemon.json
    fs.writeFileSync(p.pid, '999999999\n');
    writeDaemonInfo(p.info, info({ pid: 999999999 }));
    expect(isAlive(999999999)).toBe(false);
    expect(acquirePidFile(p).ok).toBe(true);
    expect(readPid(p.pid)).toBe(process.pid);
    expect(fs.existsSync(p.info)).toBe(false);
  });

  it('records a nonce and the start time of /proc/PID/stat field 22, in a 0600 file', () => {
    const p = daemonPaths(repo());
    const taken = acquirePidFile(p, { nonce: 'a-nonce-of-sixteen-chars' });
    const record = readPidRecord(p.pid);
    expect(record).toEqual({ pid: process.pid, nonce: 'a-nonce-of-sixteen-chars', start: processStartTime(process.pid) });
    expect(taken).toEqual({ ok: true, record });
    expect(record!.start).toMatch(/^\d+$/);
    expect(fs.statSync(p.pid).mode & 0o777).toBe(0o600);
    expect(isStale(record)).toBe(false);
    expect(isStale({ ...record!, start: String(Number(record!.start) + 1) })).toBe(true);
  });

  it('release leaves files of another daemon alone', () => {
    const p = daemonPaths(repo());
    fs.mkdirSync(p.dir, { recursive: true });
    fs.writeFileSync(p.pid, `${process.ppid}\n`);
    writeDaemonInfo(p.info, info({ pid: process.ppid }));
    releasePidFile(p, { pid: process.pid, nonce: 'x'.repeat(22) });
    expect(fs.existsSync(p.pid)).toBe(true);
    expect(fs.existsSync(path.join(p.dir, 'daemon.json'))).toBe(true);
  });
});

describe('log lines', () => {
  it('escape control characters, so a name cannot forge or split a line', () => {
    expect(escapeControl('dir\n2020-01-01T00:00:00.000Z forged')).toBe('dir\\n2020-01-01T00:00:00.000Z forged');
    expect(escapeControl('a\rb\tc\u001b[31md\u2028e\u0085')).toBe('a\\rb\\tc\\u001b[31md\\u2028e\\u0085');
    expect(escapeControl('plain: ünïcode ok')).toBe('plain: ünïcode ok');
    expect(logLine('x\ny', new Date(0))).toBe('1970-01-01T00:00:00.000Z x\\ny\n');
  });
});
