import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { createClient, type AllotClient } from '../../client/lib/index.ts';
import { daemonPaths, readDaemonInfo, type DaemonInfo } from '../../daemon/config.ts';
import type { DaemonStatus } from '../../daemon/types.ts';
import { PROJECT } from './repo.ts';

export const BIN = path.join(PROJECT, 'client/bin/allot.js');

/** Daemons the tests started, killed by `killDaemons()` whatever happened (a timed-out test skips its own cleanup). */
const spawned = new Set<number>();

/** Remembers a daemon pid for `killDaemons()`. */
export function track(pid: number): number {
  spawned.add(pid);
  return pid;
}

/** Kills (SIGKILL) every tracked daemon still alive. For afterAll hooks. */
export function killDaemons(): void {
  for (const pid of spawned) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  }
  spawned.clear();
}

/** Runs the real `allot` command without blocking (several can run at once). */
export function allotAsync(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: opts.cwd ?? PROJECT, env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** Thrown by a `waitFor` check to stop waiting at once (the condition can no longer come true). */
export class GiveUp extends Error {}

/**
 * Polls `check` until it returns something truthy, or fails after `timeoutMs`
 * with the last value seen. Waiting is always for a condition, never a fixed sleep.
 */
export async function waitFor<T>(
  check: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  what: string,
  timeoutMs = 60_000,
  intervalMs = 25,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v;
      last = v;
    } catch (err) {
      if (err instanceof GiveUp) throw err;
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last: ${last instanceof Error ? last.message : JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

export interface Served {
  child: ChildProcess;
  repo: string;
  info: DaemonInfo;
  client: AllotClient;
  /** What the daemon wrote to stderr so far. */
  log(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM (or another signal) and wait for the exit. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `allot serve <repo>` as a child process and waits until it answers. */
export async function serve(repo: string, args: string[] = [], env: Record<string, string> = {}): Promise<Served> {
  const child = spawn(process.execPath, [BIN, 'serve', repo, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  track(child.pid!);
  let log = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (log += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (log += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.once('exit', (code, signal) => r({ code, signal })));
  let gone = false;
  void exited.then(() => (gone = true));
  const info = await waitFor(() => {
    if (gone) throw new GiveUp(`the daemon exited before answering: ${log}`);
    const i = readDaemonInfo(daemonPaths(repo).info);
    return i && i.pid === child.pid ? i : null;
  }, `daemon.json of pid ${child.pid}`);
  const client = createClient(repo, info, 20_000);
  await waitFor(() => client.status(), 'the daemon to answer');
  return {
    child,
    repo,
    info,
    client,
    log: () => log,
    exited,
    async stop(signal = 'SIGTERM') {
      client.close();
      if (!gone) child.kill(signal);
      return exited;
    },
  };
}

/** `allot serve <repo>` caught early in its start-up run: a batch of files committed, most still to do (at most `share` parsed). */
export async function caughtIndexing(repo: string, share = 0.4): Promise<Served> {
  const d = await serve(repo);
  await waitFor(async () => {
    const p = (await d.client.status()).indexing.progress;
    return p?.phase === 'parse' && p.done >= 1 && p.done < p.total * share;
  }, 'the start-up run to be under way', 60_000, 5);
  return d;
}

/** The daemon has finished its start-up run and has nothing running or waiting. */
export function isSettled(s: DaemonStatus): boolean {
  // A watcher still starting would miss an edit the test makes next.
  return s.watcher.state !== 'starting' && !s.indexing.catchingUp && s.indexing.state !== 'indexing' && s.indexing.state !== 'catching-up' && s.pending.paths === 0 && !s.pending.full;
}

export async function settled(client: AllotClient, timeoutMs = 60_000): Promise<DaemonStatus> {
  return waitFor(async () => {
    const s = await client.status();
    return isSettled(s) ? s : null;
  }, 'the daemon to settle', timeoutMs);
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  json(): any;
}

/** A raw HTTP request with full control of the headers (Host included), for the security tests. */
export function raw(
  info: DaemonInfo,
  method: string,
  urlPath: string,
  opts: { headers?: Record<string, string>; body?: string | Buffer; token?: string | null } = {},
): Promise<RawResponse> {
  const headers: Record<string, string> = { host: `127.0.0.1:${info.port}`, ...opts.headers };
  if (opts.token !== null) headers.authorization = `Bearer ${opts.token ?? info.token}`;
  return new Promise((resolve, reject) => {
    const req = http.request(
      { method, path: urlPath, headers, ...(info.socket ? { socketPath: info.socket } : { host: '127.0.0.1', port: info.port! }), agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json: () => JSON.parse(body) }));
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}
