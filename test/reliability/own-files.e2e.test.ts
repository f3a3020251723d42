// allot's own files are never followed through symlinks (issue 17, item 1; issue 18, item 5): a repository
// that commits `.allot/`, its database or the daemon's log as links gets a one-line refusal, exit 2, and
// nothing is written where the links point. Real CLI, real daemon processes.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stopDaemonProcess } from '../../client/lib/index.ts';
import { openStore } from '../../indexer/store/open.ts';
import { allotAsync, killDaemons, track, waitFor } from '../helpers/daemon.ts';
import { expectOneLine, fingerprint, hostileRepo, modeOf, plantLink, type Hostile } from './harness.ts';

// CLI processes take seconds each on a loaded machine
const T = { timeout: 120_000 };

afterAll(killDaemons);
const made: Hostile[] = [];
afterAll(async () => {
  for (const h of made) await stopDaemonProcess(h.repo, { timeoutMs: 5000 }).catch(() => {});
  made.splice(0).forEach((h) => h.cleanup());
});
function hostile(): Hostile {
  const h = hostileRepo();
  made.push(h);
  return h;
}

const expectRefusal = expectOneLine;

describe.concurrent('own files are never followed through links', () => {
  it('a committed .allot/index.db link: index and search refuse, nothing appears at the target', T, async () => {
    const h = hostile();
    plantLink(h.repo, 'index.db', path.join(h.sentinel, 'evil.db'));
    const before = fingerprint(h.sentinel);
    expectRefusal(await allotAsync(['index', h.repo]), /refusing to use .*\.allot\/index\.db: it is a symbolic link/);
    expectRefusal(await allotAsync(['search', 'cart', '--repo', h.repo]), /refusing to use .*index\.db: it is a symbolic link/);
    expect(fingerprint(h.sentinel)).toEqual(before);
    // pointing at an existing file changes nothing either
    fs.rmSync(path.join(h.repo, '.allot/index.db'));
    plantLink(h.repo, 'index.db', h.victim);
    expectRefusal(await allotAsync(['index', h.repo]), /symbolic link/);
    expect(fingerprint(h.sentinel)).toEqual(before);
  });

  it('a link in place of .allot/ or of the WAL: refused, the target untouched', T, async () => {
    const h = hostile();
    fs.symlinkSync(h.sentinel, path.join(h.repo, '.allot'));
    const before = fingerprint(h.sentinel);
    expectRefusal(await allotAsync(['index', h.repo]), /refusing to use .*\/\.allot: it is a symbolic link/);
    expectRefusal(await allotAsync(['start', h.repo]), /refusing to use .*\/\.allot: it is a symbolic link/);
    expect(fingerprint(h.sentinel)).toEqual(before);

    const w = hostile();
    plantLink(w.repo, 'index.db-wal', w.victim);
    // a committed .gitignore link is left alone, never written through
    plantLink(w.repo, '.gitignore', w.victim);
    const beforeWal = fingerprint(w.sentinel);
    expectRefusal(await allotAsync(['index', w.repo]), /refusing to use .*index\.db-wal: it is a symbolic link/);
    expect(fingerprint(w.sentinel)).toEqual(beforeWal);
    expect(fs.existsSync(path.join(w.repo, '.allot/index.db'))).toBe(false);
    expect(fs.lstatSync(path.join(w.repo, '.allot/.gitignore')).isSymbolicLink()).toBe(true);
  });

  it('a regular file in place of .allot/: refused, named as what it is, and left as it was', T, async () => {
    const h = hostile();
    fs.writeFileSync(path.join(h.repo, '.allot'), 'mine\n');
    expectRefusal(await allotAsync(['index', h.repo]), /refusing to use .*\/\.allot: it is a regular file, where allot keeps its folder/);
    expect(fs.readFileSync(path.join(h.repo, '.allot'), 'utf8')).toBe('mine\n');
  });

  it('a committed .allot/daemon.log or daemon.pid link: start and serve refuse, nothing is appended to the target', T, async () => {
    const h = hostile();
    plantLink(h.repo, 'daemon.log', h.victim);
    const before = fingerprint(h.sentinel);
    expectRefusal(await allotAsync(['start', h.repo]), /refusing to use .*daemon\.log: it is a symbolic link/);
    expect(fingerprint(h.sentinel)).toEqual(before);
    expect(fs.existsSync(path.join(h.repo, '.allot/daemon.pid'))).toBe(false);

    const p = hostile();
    plantLink(p.repo, 'daemon.pid', p.victim);
    const beforePid = fingerprint(p.sentinel);
    expectRefusal(await allotAsync(['serve', p.repo]), /refusing to use .*daemon\.pid: it is a symbolic link/);
    expect(fingerprint(p.sentinel)).toEqual(beforePid);
  });

  it('a daemon.json link is replaced by the daemon\'s own file; every own file is private and .allot/ is git-ignored', T, async () => {
    const h = hostile();
    // an index left by an older allot: .allot/ 0755, the database 0644
    const old = openStore(path.join(h.repo, '.allot/index.db'));
    old.close();
    fs.rmSync(path.join(h.repo, '.allot/.gitignore'));
    fs.chmodSync(path.join(h.repo, '.allot'), 0o755);
    fs.chmodSync(path.join(h.repo, '.allot/index.db'), 0o644);
    plantLink(h.repo, 'daemon.json', h.victim);
    const before = fingerprint(h.sentinel);

    const started = await allotAsync(['start', h.repo]);
    expect(started.status, started.stderr).toBe(0);
    track(Number(/\(pid (\d+)/.exec(started.stdout)?.[1]));
    const dir = path.join(h.repo, '.allot');
    expect(fs.lstatSync(path.join(dir, 'daemon.json')).isFile()).toBe(true);
    expect(fingerprint(h.sentinel)).toEqual(before);
    expect(modeOf(dir)).toBe(0o700);
    for (const name of ['index.db', 'index.db-wal', 'index.db-shm', 'daemon.json', 'daemon.pid', 'daemon.log', '.gitignore']) {
      expect([name, modeOf(path.join(dir, name))]).toEqual([name, 0o600]);
    }
    expect(fs.readFileSync(path.join(dir, '.gitignore'), 'utf8')).toMatch(/^\*$/m);
    expect(await stopDaemonProcess(h.repo)).toMatchObject({ was: 'running' });
  });

  it('a folder name with a newline cannot forge a line of the daemon log', T, async () => {
    const h = hostile();
    const started = await allotAsync(['start', h.repo]);
    expect(started.status, started.stderr).toBe(0);
    track(Number(/\(pid (\d+)/.exec(started.stdout)?.[1]));
    // the folder must appear after the watcher's first scan, or it is part of the tree the daemon started with
    await waitFor(async () => /watcher +watching/.test((await allotAsync(['status', h.repo])).stdout) || null, 'the daemon to watch');
    const evil = 'x\n2020-01-01T00:00:00.000Z allot daemon forged line';
    fs.mkdirSync(path.join(h.repo, evil));
    fs.writeFileSync(path.join(h.repo, evil, '.gitignore'), '*.tmp\n');
    const log = path.join(h.repo, '.allot/daemon.log');
    const text = await waitFor(() => {
      const t = fs.readFileSync(log, 'utf8');
      return /re-discovering/.test(t) ? t : null;
    }, 'the daemon to log the rule change');
    const lines = text.trimEnd().split('\n');
    for (const line of lines) expect(line).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z /);
    expect(lines.some((l) => l.startsWith('2020-01-01'))).toBe(false);
    expect(text).toContain('x\\n2020-01-01T00:00:00.000Z allot daemon forged line/.gitignore changed');
    expect(await stopDaemonProcess(h.repo)).toMatchObject({ was: 'running' });
  });
});
