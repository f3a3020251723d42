/**
 * One daemon per repository: the pid file is the lock. It is created with
 * O_EXCL, so of two daemons starting at once exactly one wins; a pid file whose
 * process is gone (kill -9, a crash, a reboot) is stale and cleaned up.
 *
 * A pid alone names a process only until it exits: after a crash or a reboot
 * the same number may belong to an editor. So the pid file records the
 * process's start time (`/proc/PID/stat` field 22, clock ticks since boot) and
 * a random nonce the daemon also reports in `GET /v1/status`. A record whose
 * process started at another time is stale; only a process with the recorded
 * start time that answers with the recorded nonce is ever signalled (the
 * client's part, in client/lib/daemon-process.ts).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { checkOwnFile, ensureOwnDir, openOwnFile, readOwnFile } from '../indexer/store/own-files.ts';
import type { DaemonPaths } from './config.ts';

/** What the pid file says: `{"pid":…,"nonce":…,"start":…}`. Files of older versions hold only the pid (nonce and start null). */
export interface PidRecord {
  pid: number;
  nonce: string | null;
  /** `/proc/PID/stat` field 22 of the process when it took the lock; null where there is no /proc. */
  start: string | null;
}

const PidRecordSchema = z.object({
  pid: z.number().int().positive(),
  nonce: z.string().min(16).max(128),
  start: z.string().regex(/^\d+$/).nullable(),
}).strict();

/** A fresh nonce for a daemon's pid record: 128 random bits. */
export function newNonce(): string {
  return crypto.randomBytes(16).toString('base64url');
}

/** The fields of `/proc/PID/stat` after the command name (which may hold spaces and parentheses), or null. */
function procStat(pid: number): string[] | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** When the process started (field 22 of /proc/PID/stat, clock ticks since boot); null without /proc or when it is gone. */
export function processStartTime(pid: number): string | null {
  // fields after the name start at field 3 (state), so field 22 is index 19
  return procStat(pid)?.[19] ?? null;
}

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
  return procStat(pid)?.[0] !== 'Z';
}

/** True while the very process of the record runs: alive and, where /proc tells, started when the record says. */
export function isSameProcess(record: PidRecord): boolean {
  if (!isAlive(record.pid)) return false;
  if (record.start === null) return true;
  const now = processStartTime(record.pid);
  return now === null || now === record.start;
}

/**
 * An older allot's pid file (a bare pid): a live process counts as its daemon
 * only when its command line mentions allot. Used only to decide whether such
 * a lock is stale, never to signal anything.
 */
function legacyLooksLikeAllot(pid: number): boolean {
  try {
    return /allot/.test(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
  } catch {
    return true;
  }
}

/** The record in a pid file, or null (absent, garbage, a link). */
export function readPidRecord(file: string): PidRecord | null {
  const text = readOwnFile(file, 4096)?.trim();
  if (!text) return null;
  if (/^\d+$/.test(text)) {
    const pid = Number.parseInt(text, 10);
    return Number.isSafeInteger(pid) && pid > 0 ? { pid, nonce: null, start: null } : null;
  }
  try {
    const parsed = PidRecordSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The pid recorded in a pid file, or null (absent or garbage). */
export function readPid(file: string): number | null {
  return readPidRecord(file)?.pid ?? null;
}

/** A pid record whose process is gone, or is another process that got the same pid. */
export function isStale(record: PidRecord | null): boolean {
  if (record === null || !isSameProcess(record)) return true;
  return record.nonce === null && !legacyLooksLikeAllot(record.pid);
}

export type LockResult = { ok: true; record: PidRecord } | { ok: false; pid: number };

/**
 * Takes the repository's daemon lock for this process: creates the pid file
 * exclusively (never through a link), removing a stale one (and its
 * daemon.json) first. Fails with the holder's pid when a live daemon has it.
 */
export function acquirePidFile(paths: DaemonPaths, who: { pid?: number; nonce?: string } = {}): LockResult {
  const pid = who.pid ?? process.pid;
  const record: PidRecord = { pid, nonce: who.nonce ?? newNonce(), start: processStartTime(pid) };
  ensureOwnDir(paths.dir);
  for (let attempt = 0; attempt < 5; attempt++) {
    let fd: number | null = null;
    try {
      fd = openOwnFile(paths.pid, 'create');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (fd !== null) {
      try {
        fs.writeSync(fd, `${JSON.stringify(record)}\n`);
      } finally {
        fs.closeSync(fd);
      }
      return { ok: true, record };
    }
    checkOwnFile(paths.pid);
    const holder = readPidRecord(paths.pid);
    if (holder && holder.pid === pid && holder.nonce === record.nonce) return { ok: true, record };
    if (holder !== null && !isStale(holder)) return { ok: false, pid: holder.pid };
    // An empty pid file may be a daemon between open and write: give it a moment before calling it stale.
    if (holder === null && attempt < 2 && ageMs(paths.pid) < 1000) {
      sleepSync(50);
      continue;
    }
    removeStale(paths);
  }
  throw new Error(`cannot take the daemon lock ${paths.pid}: it keeps changing`);
}

/** Removes the pid file (only if it is this record's) and daemon.json (only if it names its pid). */
export function releasePidFile(paths: DaemonPaths, record: Pick<PidRecord, 'pid' | 'nonce'>): void {
  const held = readPidRecord(paths.pid);
  if (held?.pid === record.pid && held.nonce === record.nonce) fs.rmSync(paths.pid, { force: true });
  try {
    const info = JSON.parse(readOwnFile(paths.info) ?? '') as { pid?: number };
    if (info.pid === record.pid) fs.rmSync(paths.info, { force: true });
  } catch {
    /* absent or unreadable: nothing of ours */
  }
}

/** Cleans up what a dead daemon left behind (unlinks; a link in their place is removed, never followed). */
export function removeStale(paths: DaemonPaths): void {
  fs.rmSync(paths.pid, { force: true });
  fs.rmSync(paths.info, { force: true });
}

function ageMs(file: string): number {
  try {
    return Date.now() - fs.lstatSync(file).mtimeMs;
  } catch {
    return Infinity;
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Longest Unix socket path (bytes): `sun_path` holds 108 bytes with the final NUL. Longer paths are cut by the
 * kernel, which would put the socket somewhere nobody asked for.
 */
export const MAX_SOCKET_PATH_BYTES = 107;

/** Why a socket path cannot be used, or null. */
export function socketPathProblem(socket: string): string | null {
  const bytes = Buffer.byteLength(socket);
  return bytes > MAX_SOCKET_PATH_BYTES
    ? `--socket path is ${bytes} bytes, over the ${MAX_SOCKET_PATH_BYTES} a Unix socket path can hold: choose a shorter one`
    : null;
}

/** Unlinks a leftover Unix socket file (never anything else) before listening on it. */
export function removeStaleSocket(socket: string): void {
  const st = checkOwnFile(socket, { socket: true });
  if (st) fs.rmSync(socket);
  fs.mkdirSync(path.dirname(socket), { recursive: true, mode: 0o700 });
}
