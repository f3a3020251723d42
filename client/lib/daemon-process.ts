/**
 * Finding, starting and stopping a repository's daemon from the outside.
 * A daemon is running when its pid file names a live process with the
 * recorded start time AND that process answers `GET /v1/status` (with the
 * token of `daemon.json`) with its own pid and the pid file's nonce; a pid file
 * whose process is gone, or is another process with the same pid, is stale.
 * Only a running daemon is ever signalled.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { daemonPaths, readDaemonInfo, type DaemonInfo } from '../../daemon/config.ts';
import { isSameProcess, isStale, readPidRecord, removeStale, type PidRecord } from '../../daemon/lifecycle.ts';
import { ensureOwnDir, openOwnFile, OwnFileError, readOwnFile } from '../../indexer/store/own-files.ts';
import type { DaemonStatus } from '../../daemon/types.ts';
import { BIN } from '../../daemon/package.ts';
import { requestJson } from './transport.ts';


export type DaemonLookup =
  | { state: 'running'; info: DaemonInfo; status: DaemonStatus; record: PidRecord }
  /** Alive and holding the lock, but not (yet) answering: starting up, or hung. */
  | { state: 'starting'; pid: number }
  | { state: 'stale'; pid: number }
  | { state: 'none' };

/** What runs for `repo` right now. Never changes anything on disk. */
export async function findDaemon(repo: string, opts: { timeoutMs?: number } = {}): Promise<DaemonLookup> {
  const paths = daemonPaths(repo);
  const record = readPidRecord(paths.pid);
  if (record === null) return { state: 'none' };
  const pid = record.pid;
  if (isStale(record)) return { state: 'stale', pid };
  const info = readDaemonInfo(paths.info);
  if (!info || info.pid !== pid) return { state: 'starting', pid };
  try {
    const status = await requestJson<DaemonStatus>(info, 'GET', '/v1/status', { timeoutMs: opts.timeoutMs ?? 3000 });
    // An older daemon's pid file holds no nonce: it is found, but never signalled (see stopDaemonProcess).
    if (status.pid === pid && (record.nonce === null || status.nonce === record.nonce)) return { state: 'running', info, status, record };
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
  /** Threads answering queries (the daemon's default when absent). */
  queryThreads?: number;
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
  const file = daemonPaths(repo).log;
  let size = 0;
  try {
    size = fs.lstatSync(file).size;
  } catch {
    return '';
  }
  // the last 64 KB is plenty for 15 lines, and the log may be megabytes
  const text = readTail(file, size, 64 * 1024);
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

function readTail(file: string, size: number, bytes: number): string {
  if (size <= bytes) return readOwnFile(file, bytes) ?? '';
  let fd: number;
  try {
    fd = openOwnFile(file, 'read');
  } catch {
    return '';
  }
  try {
    const buf = Buffer.alloc(bytes);
    const n = fs.readSync(fd, buf, 0, bytes, size - bytes);
    return buf.toString('utf8', 0, n).replace(/^[^\n]*\n/, '');
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * What a daemon that exited early said: the one-line error (`allot: ...`) it ends with, else its last line.
 * @example whyItExited('2026-01-01T00:00:00.000Z starting\nallot: the index x is read-only') // 'the index x is read-only'
 */
export function whyItExited(tail: string): string {
  const lines = tail.split('\n').filter((l) => l.trim());
  const said = lines.filter((l) => l.startsWith('allot: ')).at(-1);
  return said ? said.slice('allot: '.length) : lines.at(-1) ?? 'it wrote nothing to its log';
}

/** Keeps the log from growing without bound: one previous generation is kept (renames move links, never follow them). */
function rotateLog(file: string, maxBytes = 8 * 1024 * 1024): void {
  try {
    const st = fs.lstatSync(file);
    if (st.isFile() && st.size > maxBytes) fs.renameSync(file, `${file}.1`);
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
    let fd: number;
    try {
      ensureOwnDir(paths.dir);
      rotateLog(paths.log);
      fd = openOwnFile(paths.log, 'append');
    } catch (err) {
      if (err instanceof OwnFileError) throw err;
      throw new DaemonProcessError(`cannot start the daemon: cannot write its log ${paths.log} (${(err as Error).message})`);
    }
    const args = [BIN, ...(opts.db ? ['--db', opts.db] : []), 'serve', repo];
    if (opts.socket) args.push('--socket', opts.socket);
    if (opts.port) args.push('--port', String(opts.port));
    if (opts.queryThreads) args.push('--query-threads', String(opts.queryThreads));
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
      throw new DaemonProcessError(`the daemon could not start (exit code ${(exited as { code: number | null }).code}): ${whyItExited(logTail(repo))}`);
    }
    await sleep(50);
  }
  throw new DaemonProcessError(`the daemon did not answer within ${Math.round((opts.timeoutMs ?? 30_000) / 1000)} s; see ${daemonPaths(repo).log}`);
}

/**
 * Stops the repository's daemon (SIGTERM) and waits for it to exit; cleans up after a dead one. Only a process
 * that has the pid file's start time and answers `/v1/status` with its nonce is signalled: a daemon still starting
 * is waited for (up to `timeoutMs`), and a lock holder that never proves itself is left alone with an error.
 */
export async function stopDaemonProcess(repo: string, opts: { timeoutMs?: number } = {}): Promise<{ pid: number; was: 'running' | 'stale' } | null> {
  const paths = daemonPaths(repo);
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const deadline = Date.now() + timeoutMs;
  let found = await findDaemon(repo);
  while (found.state === 'starting' && Date.now() < deadline) {
    await sleep(100);
    found = await findDaemon(repo);
  }
  if (found.state === 'none') return null;
  if (found.state === 'stale') {
    if (readPidRecord(paths.pid)?.pid === found.pid) removeStale(paths);
    return { pid: found.pid, was: 'stale' };
  }
  if (found.state === 'starting') {
    throw new DaemonProcessError(`pid ${found.pid} holds the daemon lock ${paths.pid} but did not answer as its daemon within ${Math.round(timeoutMs / 1000)} s; it was not signalled`);
  }
  const record = found.record;
  if (record.nonce === null) {
    throw new DaemonProcessError(`the daemon (pid ${record.pid}) was started by an older allot whose pid file cannot be verified; it was not signalled (stop it with \`kill ${record.pid}\`)`);
  }
  // Checked again right before the signal: the process must still be the one that answered.
  if (!isSameProcess(record)) {
    if (readPidRecord(paths.pid)?.nonce === record.nonce) removeStale(paths);
    return { pid: record.pid, was: 'running' };
  }
  try {
    process.kill(record.pid, 'SIGTERM');
  } catch {
    /* already gone */
  }
  while (isSameProcess(record)) {
    if (Date.now() > deadline) throw new DaemonProcessError(`the daemon (pid ${record.pid}) did not stop within ${Math.round(timeoutMs / 1000)} s`);
    await sleep(50);
  }
  if (readPidRecord(paths.pid)?.nonce === record.nonce) removeStale(paths);
  return { pid: record.pid, was: 'running' };
}
