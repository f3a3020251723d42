// Shared set-up of the reliability tests: a hostile repository (a copy of a
// fixture) beside a sentinel folder that nothing of allot may ever write to,
// and a fingerprint of that folder to prove it.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { copyFixture, tempDir } from '../helpers/repo.ts';
export { fingerprint } from './fingerprint.ts';

export interface Hostile {
  /** The repository (symlinks resolved). */
  repo: string;
  /** A folder outside the repository holding a victim file: it must never change. */
  sentinel: string;
  victim: string;
  /** Removes both. */
  cleanup(): void;
}

/** A fixture repository and, beside it, a sentinel folder with `victim.txt`. */
export function hostileRepo(fixture = 'mixed'): Hostile {
  const repo = fs.realpathSync(copyFixture(fixture));
  const sentinel = fs.realpathSync(tempDir('allot-sentinel-'));
  const victim = path.join(sentinel, 'victim.txt');
  fs.writeFileSync(victim, 'precious\n');
  return { repo, sentinel, victim, cleanup: () => [repo, sentinel].forEach((d) => fs.rmSync(d, { recursive: true, force: true })) };
}

/** Links `<repo>/.allot/<name>` to `target` (a committed symlink, as a checkout would create it). */
export function plantLink(repo: string, name: string, target: string): string {
  const link = path.join(repo, '.allot', name);
  fs.mkdirSync(path.dirname(link), { recursive: true });
  fs.symlinkSync(target, link);
  return link;
}

/** Overwrites 16 KB in the middle of the file with garbage, as a bad disk or a stray write would (its size kept). */
export function garble(file: string): void {
  const fd = fs.openSync(file, 'r+');
  try {
    const size = fs.fstatSync(fd).size;
    const junk = Buffer.alloc(16 * 1024);
    for (let i = 0; i < junk.length; i++) junk[i] = (i * 7919 + 13) % 251;
    fs.writeSync(fd, junk, 0, junk.length, Math.floor(size / 2 / 4096) * 4096);
  } finally {
    fs.closeSync(fd);
  }
}

/** Mode bits of a path (links not followed). */
export function modeOf(p: string): number {
  return fs.lstatSync(p).mode & 0o777;
}

/**
 * Permission faults need a user the file modes apply to: root ignores them. As root, commands run as `nobody`
 * through setpriv (the tree they touch handed to that user); as anyone else, as themselves.
 */
export const UNPRIVILEGED = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : null;

/** Hands `dir` (recursively) to the user permission tests run as. */
export function handOver(dir: string): void {
  if (!UNPRIVILEGED) return;
  const walk = (p: string) => {
    fs.lchownSync(p, UNPRIVILEGED.uid, UNPRIVILEGED.gid);
    if (fs.lstatSync(p).isDirectory()) for (const n of fs.readdirSync(p)) walk(path.join(p, n));
  };
  walk(dir);
}

/** The command line that runs `allot args` as that user. */
export function unprivileged(bin: string, args: string[]): { command: string; args: string[] } {
  if (!UNPRIVILEGED) return { command: process.execPath, args: [bin, ...args] };
  return { command: 'setpriv', args: [`--reuid=${UNPRIVILEGED.uid}`, `--regid=${UNPRIVILEGED.gid}`, '--clear-groups', process.execPath, bin, ...args] };
}

/** Whether this machine lets us mount a small tmpfs in a user namespace (`unshare -rm`), to fill a disk for real. */
export function canMountTmpfs(): boolean {
  const dir = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'allot-tmpfs-probe-'));
  try {
    return spawnSync('unshare', ['-rm', 'sh', '-c', `mount -t tmpfs -o size=64k tmpfs ${dir}`], { stdio: 'ignore' }).status === 0;
  } catch {
    return false;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export interface Ran { status: number | null; stdout: string; stderr: string }

/** Runs a command without blocking and captures its output. */
export function run(command: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** A failed command: exit 2 and exactly one line on stderr, matching `pattern`. */
export function expectOneLine(r: Ran, pattern: RegExp): void {
  expect(r.status, r.stderr).toBe(2);
  expect(r.stderr.trimEnd().split('\n'), r.stderr).toHaveLength(1);
  expect(r.stderr).toMatch(pattern);
}
