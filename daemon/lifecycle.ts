/**
 * One daemon per repository: the pid file is the lock. It is created with
 * O_EXCL, so of two daemons starting at once exactly one wins; a pid file whose
 * process is gone (kill -9, a crash, a reboot) is stale and cleaned up.
 * Whether a live pid really is a healthy daemon is the client's question
 * (it asks `GET /v1/status`); here we only know processes.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DaemonPaths } from './config.ts';

/**
 * True when a process with this pid exists (EPERM means it exists but is not
 * ours). A zombie (exited, not yet reaped by its parent) counts as gone.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    // /proc/<pid>/stat: "pid (comm) state ..."; comm may contain spaces and parentheses.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

/**
 * Whether a live pid looks like an allot process. After a reboot or kill -9
 * the pid may belong to something else; on Linux /proc says what it runs.
 * Elsewhere we cannot tell and assume it is allot (the health check decides).
 */
export function looksLikeAllot(pid: number): boolean {
  try {
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return /allot/.test(cmdline);
  } catch {
    return true;
  }
}

/** The pid recorded in a pid file, or null (absent or garbage). */
export function readPid(file: string): number | null {
  try {
    const pid = Number.parseInt(fs.readFileSync(file, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** A pid file whose process is gone or is not allot. */
export function isStale(pid: number | null): boolean {
  return pid === null || !isAlive(pid) || !looksLikeAllot(pid);
}

export type LockResult = { ok: true } | { ok: false; pid: number };

/**
 * Takes the repository's daemon lock for this process: creates the pid file
 * exclusively, removing a stale one (and its daemon.json) first. Fails with the
 * holder's pid when a live daemon has it.
 */
export function acquirePidFile(paths: DaemonPaths, pid = process.pid): LockResult {
  fs.mkdirSync(paths.dir, { recursive: true });
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      fs.writeFileSync(paths.pid, `${pid}\n`, { flag: 'wx', mode: 0o600 });
      return { ok: true };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = readPid(paths.pid);
    if (holder === pid) return { ok: true };
    if (holder !== null && !isStale(holder)) return { ok: false, pid: holder };
    // An empty pid file may be a daemon between open and write: give it a moment before calling it stale.
    if (holder === null && attempt < 2 && ageMs(paths.pid) < 1000) {
      sleepSync(50);
      continue;
    }
    removeStale(paths);
  }
  throw new Error(`cannot take the daemon lock ${paths.pid}: it keeps changing`);
}

/** Removes the pid file (only if it is ours) and daemon.json (only if it names us). */
export function releasePidFile(paths: DaemonPaths, pid = process.pid): void {
  if (readPid(paths.pid) === pid) fs.rmSync(paths.pid, { force: true });
  try {
    const info = JSON.parse(fs.readFileSync(paths.info, 'utf8')) as { pid?: number };
    if (info.pid === pid) fs.rmSync(paths.info, { force: true });
  } catch {
    /* absent or unreadable: nothing of ours */
  }
}

/** Cleans up what a dead daemon left behind. */
export function removeStale(paths: DaemonPaths): void {
  fs.rmSync(paths.pid, { force: true });
  fs.rmSync(paths.info, { force: true });
}

function ageMs(file: string): number {
  try {
    return Date.now() - fs.statSync(file).mtimeMs;
  } catch {
    return Infinity;
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Unlinks a leftover Unix socket file (never anything else) before listening on it. */
export function removeStaleSocket(socket: string): void {
  try {
    if (fs.lstatSync(socket).isSocket()) fs.rmSync(socket);
  } catch {
    /* absent */
  }
  fs.mkdirSync(path.dirname(socket), { recursive: true });
}
