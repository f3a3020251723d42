// What the benchmarks that run a real daemon share: starting `allot serve` with the environment `allot start`
// gives it, waiting for it, its resident memory and CPU time from /proc, seeded randomness, and edits that are
// undone at the end.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { daemonEnv } from '../../client/lib/daemon-process.ts';
import { createClient, type AllotClient } from '../../client/lib/index.ts';
import { daemonPaths, readDaemonInfo, type DaemonInfo } from '../../daemon/config.ts';

export const PROJECT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = path.join(PROJECT, 'client/bin/allot.js');

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const ms = (v: number) => `${v.toFixed(1)} ms`;

/** The value of `--name` on the command line, or undefined. */
export function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}

/** The first line of a benchmark's output: the machine and how busy it is. */
export function machine(title: string): string {
  const cpu = os.cpus();
  return `${title} — ${cpu.length} cores (${cpu[0]?.model}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`;
}

/** The corpus folder the command line names (its first argument that is neither a flag nor a flag's value), else `fallback`. */
export function corpusArg(fallback: string): string {
  const positional = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && !all[i - 1]?.startsWith('--'));
  const corpus = path.resolve(positional[0] ?? fallback);
  if (!fs.existsSync(corpus)) {
    console.error(`no corpus at ${corpus}: run \`bash test/bench/corpora.sh\` first (or pass a folder)`);
    process.exit(2);
  }
  return corpus;
}

/** A copy of `corpus` to edit: in `--dir` (kept there with its index for the next run) or in a temporary folder. */
export function workingCopy(corpus: string, prefix: string): { repo: string; warm: boolean; discard(): void } {
  const keep = flag('dir');
  const work = keep ? path.resolve(keep) : fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const repo = path.join(work, path.basename(corpus));
  const warm = fs.existsSync(path.join(repo, '.allot/index.db'));
  if (!warm) fs.cpSync(corpus, repo, { recursive: true });
  console.log(`corpus ${corpus}, ${warm ? 'reusing the copy and index in' : 'copied to'} ${repo}`);
  return { repo, warm, discard: () => (keep ? undefined : fs.rmSync(work, { recursive: true, force: true })) };
}

/** Resident set of a process and all its threads, from /proc (MB). */
export function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** CPU seconds (user + system) a process and all its threads used so far, from /proc. */
export function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 per second on Linux).
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** A deterministic pseudo-random sequence (mulberry32). */
export function random(seed: number): () => number {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function until<T>(what: string, check: () => Promise<T | null | undefined | false>, timeoutMs: number, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check().catch(() => null);
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** Waits until the daemon has nothing running or waiting. */
export async function idle(client: AllotClient): Promise<void> {
  await until('the daemon to be idle', async () => {
    const s = await client.status();
    return !s.indexing.catchingUp && s.indexing.state === 'idle' && s.pending.paths === 0 && !s.pending.full;
  }, 3_600_000, 20);
}

export interface Daemon {
  child: ChildProcess;
  pid: number;
  info: DaemonInfo;
  client: AllotClient;
  log(): string;
  stop(): Promise<void>;
}

/** `allot serve REPO ARGS...` (this checkout's, or `bin`) as a child process, with the environment `allot start` gives it; resolves once it answers. */
export async function serveDaemon(repo: string, args: string[] = [], bin = BIN): Promise<Daemon> {
  const child = spawn(process.execPath, [bin, 'serve', repo, ...args], { stdio: ['ignore', 'ignore', 'pipe'], env: daemonEnv(process.env) });
  let log = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (log += d));
  const pid = child.pid!;
  const exited = new Promise((r) => child.once('exit', r));
  try {
    const info = await until<DaemonInfo>('daemon.json', async () => {
      if (child.exitCode !== null) throw new Error(`the daemon exited: ${log}`);
      const i = readDaemonInfo(daemonPaths(repo).info);
      return i?.pid === pid ? i : null;
    }, 600_000);
    const client = createClient(repo, info);
    return {
      child, pid, info, client, log: () => log,
      async stop() {
        client.close();
        child.kill('SIGTERM');
        await exited;
      },
    };
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
}

/** Appends functions to files of a repository, and puts every file back as it was. */
export function editor(repo: string): { append(file: string, text: string): void; restore(): void } {
  const originals = new Map<string, Buffer>();
  return {
    append(file, text) {
      const abs = path.join(repo, file);
      if (!originals.has(abs)) originals.set(abs, fs.readFileSync(abs));
      fs.appendFileSync(abs, text);
    },
    restore() {
      for (const [abs, content] of originals) fs.writeFileSync(abs, content);
      originals.clear();
    },
  };
}

/** Prints each goal as met or MISSED, under a title. */
export function printGoals(title: string, goals: readonly (readonly [string, boolean])[]): void {
  console.log(`\n${title}`);
  for (const [what, ok] of goals) console.log(`  ${ok ? 'met    ' : 'MISSED '} ${what}`);
}

/** The end of a run: the daemon stopped, edited files put back, a temporary copy removed, the log kept if ALLOT_BENCH_LOG names a file. */
export async function cleanUp(daemon: Daemon, edits: ReturnType<typeof editor>, discard: () => void): Promise<void> {
  await daemon.stop();
  edits.restore();
  discard();
  if (process.env.ALLOT_BENCH_LOG) fs.writeFileSync(process.env.ALLOT_BENCH_LOG, daemon.log());
}

/**
 * Asks `queries` once each, retrying what the watchdog timed out: the query threads build their structures after
 * the start-up run, and on a busy machine a first query can wait for that longer than the deadline.
 */
export async function warmUp(client: AllotClient, queries: string[]): Promise<void> {
  for (const query of queries) {
    await until(`a warm-up answer to ${JSON.stringify(query.slice(0, 40))}`, async () => {
      try {
        return await client.context({ query });
      } catch (err) {
        if ((err as { code?: string }).code === 'query-timeout') return null;
        throw err;
      }
    }, 600_000, 0);
  }
}
