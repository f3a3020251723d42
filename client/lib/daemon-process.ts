/**
 * Finding, starting and stopping a repository's daemon from the outside.
 * A daemon is running when its pid file names a live allot process AND it
 * answers `GET /v1/status` with the token of `daemon.json` and its own pid;
 * a pid file whose process is gone is stale.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { daemonPaths, readDaemonInfo, type DaemonInfo } from '../../daemon/config.ts';
import { isAlive, isStale, readPid, removeStale } from '../../daemon/lifecycle.ts';
import type { DaemonStatus } from '../../daemon/types.ts';
import { requestJson } from './transport.ts';

const BIN = fileURLToPath(new URL('../bin/allot.js', import.meta.url));

export type DaemonLookup =
  | { state: 'running'; info: DaemonInfo; status: DaemonStatus }
  /** Alive and holding the lock, but not (yet) answering: starting up, or hung. */
  | { state: 'starting'; pid: number }
  | { state: 'stale'; pid: number }
  | { state: 'none' };

/** What runs for `repo` right now. Never changes anything on disk. */
export async function findDaemon(repo: string, opts: { timeoutMs?: number } = {}): Promise<DaemonLookup> {
  const paths = daemonPaths(repo);
  const pid = readPid(paths.pid);
  if (pid === null) return { state: 'none' };
  if (isStale(pid)) return { state: 'stale', pid };
  const info = readDaemonInfo(paths.info);
  if (!info || info.pid !== pid) return { state: 'starting', pid };
  try {
    const status = await requestJson<DaemonStatus>(info, 'GET', '/v1/status', { timeoutMs: opts.timeoutMs ?? 3000 });
    if (status.pid === pid) return { state: 'running', info, status };
  } catch {
    /* not answering (yet) */
  }
  return { state: 'starting', pid };
}

export interface StartOptions {
  /** The index database, when not the repository's default. */
  db?: string;
  socket?: string;
  port?: number;
  /** How long to wait for the daemon to answer. */
  timeoutMs?: number;
  /** The daemon stops after this many minutes without a request (`allot serve --idle-exit`). */
  idleExitMinutes?: number;
  env?: NodeJS.ProcessEnv;
}

/** Starting or stopping a daemon failed (it exited early, or did not answer or stop in time). */
export class DaemonProcessError extends Error {
  override name = 'DaemonProcessError';
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The end of the daemon log, to show why a start failed. */
export function logTail(repo: string, lines = 15): string {
  try {
    return fs.readFileSync(daemonPaths(repo).log, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/** Keeps the log from growing without bound: one previous generation is kept. */
function rotateLog(file: string, maxBytes = 8 * 1024 * 1024): void {
  try {
    if (fs.statSync(file).size > maxBytes) fs.renameSync(file, `${file}.1`);
  } catch {
    /* no log yet */
  }
}

/**
 * The daemon's environment. glibc gives every thread that allocates its own
 * malloc arena and seldom returns their memory; the parser threads of a cold
 * index leave well over 100 MB behind that way on SymPy. Two arenas are plenty
 * for a process whose work is one query thread and one writer. Blocks of 128 KiB
 * and more are mapped on their own and the heap's free top is given back past
 * 128 KiB, so a burst of large answers does not leave the daemon larger for good.
 * Values the user set are kept.
 */
export function daemonEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072', ...env };
}

/**
 * Starts the daemon in the background (detached, logging to
 * `<repo>/.allot/daemon.log`) unless one runs, and waits until it answers.
 */
export async function startDaemonProcess(repo: string, opts: StartOptions = {}): Promise<{ info: DaemonInfo; status: DaemonStatus; started: boolean }> {
  const found = await findDaemon(repo);
  if (found.state === 'running') return { info: found.info, status: found.status, started: false };
  let exited: { code: number | null } | null = null;
  if (found.state !== 'starting') {
    const paths = daemonPaths(repo);
    fs.mkdirSync(paths.dir, { recursive: true });
    rotateLog(paths.log);
    const fd = fs.openSync(paths.log, 'a', 0o600);
    const args = [BIN, ...(opts.db ? ['--db', opts.db] : []), 'serve', repo];
    if (opts.socket) args.push('--socket', opts.socket);
    if (opts.port) args.push('--port', String(opts.port));
    if (opts.idleExitMinutes) args.push('--idle-exit', String(opts.idleExitMinutes));
    try {
      const child = spawn(process.execPath, args, { cwd: repo, detached: true, stdio: ['ignore', fd, fd], env: daemonEnv(opts.env ?? process.env) });
      child.on('exit', (code) => (exited = { code }));
      child.unref();
    } finally {
      fs.closeSync(fd);
    }
  }
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  while (Date.now() < deadline) {
    const now = await findDaemon(repo);
    if (now.state === 'running') return { info: now.info, status: now.status, started: found.state !== 'starting' };
    // Our child gave up (say, another start won the lock and is still coming up): keep waiting for that one.
    if (exited && now.state !== 'starting') {
      const tail = logTail(repo);
      throw new DaemonProcessError(`the daemon exited (code ${(exited as { code: number | null }).code}) before answering${tail ? `; its log says:\n${tail}` : ''}`);
    }
    await sleep(50);
  }
  throw new DaemonProcessError(`the daemon did not answer within ${Math.round((opts.timeoutMs ?? 30_000) / 1000)} s; see ${daemonPaths(repo).log}`);
}

/** Stops the repository's daemon (SIGTERM) and waits for it to exit; cleans up after a dead one. */
export async function stopDaemonProcess(repo: string, opts: { timeoutMs?: number } = {}): Promise<{ pid: number; was: 'running' | 'stale' } | null> {
  const found = await findDaemon(repo);
  if (found.state === 'none') return null;
  const paths = daemonPaths(repo);
  if (found.state === 'stale') {
    if (readPid(paths.pid) === found.pid) removeStale(paths);
    return { pid: found.pid, was: 'stale' };
  }
  const pid = found.state === 'running' ? found.info.pid : found.pid;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    /* already gone */
  }
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  while (isAlive(pid)) {
    if (Date.now() > deadline) throw new DaemonProcessError(`the daemon (pid ${pid}) did not stop within ${Math.round((opts.timeoutMs ?? 30_000) / 1000)} s`);
    await sleep(50);
  }
  if (readPid(paths.pid) === pid) removeStale(paths);
  return { pid, was: 'running' };
}
