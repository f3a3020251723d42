// Fuzzing of the daemon's HTTP API and of `allot mcp` (not a test; bounded, loopback only).
//
//   npm run bench:fuzz [-- DIR] [--requests 10000] [--mcp-lines 1000] [--seed 1] [--concurrency 8] [--only FAMILY,...] [--maxima] [--json]
//
// A real daemon (`allot serve`) on a temporary COPY of DIR (default: the `mixed` fixture), with hostile symlinks
// planted in the copy (a folder and a file linking to a sentinel folder beside it), gets --requests fuzzed
// requests per endpoint family (fuzz-cases.ts), then a real `allot mcp` attached to it gets --mcp-lines hostile
// lines. It reports, and exits 1 unless all hold:
//   - 0 answers 5xx and 0 connection failures (MCP: 0 answers -32603, JSON-RPC's internal error);
//   - 0 crashes: the daemon still answers with the same pid, `allot mcp` answered every line as it had to
//     (each id exactly once, one null-id error per line without one) and exits 0 when stdin closes;
//   - 0 writes outside the repository: the sentinel folder and everything beside the repository are as before,
//     and the repository's own files too (only its `.allot/` may change);
//   - every line of the daemon's log is one timestamped line (no forged lines).
// With --maxima it first times requests at every documented maximum (k, budget, slots, query and issue
// lengths), one at a time, as the daemon's CPU seconds and wall ms each: what one request can cost at most.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from '../../client/lib/index.ts';
import { daemonPaths, MAX_BODY_BYTES, readDaemonInfo, type DaemonInfo } from '../../daemon/config.ts';
import { seededRandom } from '../../indexer/random.ts';
import { fingerprint } from '../reliability/fingerprint.ts';
import { FAMILIES, fuzzLine, fuzzRequest, type Family, type FuzzLine, type FuzzRequest } from './fuzz-cases.ts';
import { percentile } from './measure.ts';
import { LIMITS } from '../../allocator/options.ts';
import { MAX_ISSUE_CHARS, MAX_K, MAX_QUERY_CHARS } from '../../daemon/requests.ts';

const PROJECT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = path.join(PROJECT, 'client/bin/allot.js');

interface Options { dir: string; requests: number; mcpLines: number; seed: number; concurrency: number; maxima: boolean; json: boolean; only: Family[] | null }

function options(argv: string[]): Options {
  const o: Options = { dir: path.join(PROJECT, 'test/fixtures/mixed'), requests: 10_000, mcpLines: 1_000, seed: 1, concurrency: 8, maxima: false, json: false, only: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const num = () => {
      const n = Number(argv[++i]);
      if (!Number.isInteger(n) || n < 0) throw new Error(`${a} takes a non-negative integer`);
      return n;
    };
    if (a === '--requests') o.requests = num();
    else if (a === '--mcp-lines') o.mcpLines = num();
    else if (a === '--seed') o.seed = num();
    else if (a === '--concurrency') o.concurrency = Math.max(1, num());
    else if (a === '--json') o.json = true;
    else if (a === '--maxima') o.maxima = true;
    else if (a === '--only') {
      const names = (argv[++i] ?? '').split(',');
      const bad = names.filter((n) => !(FAMILIES as readonly string[]).includes(n));
      if (bad.length) throw new Error(`--only takes families among ${FAMILIES.join(', ')}; not ${bad.join(', ')}`);
      o.only = names as Family[];
    }
    else if (!a.startsWith('--')) o.dir = path.resolve(a);
    else throw new Error(`unknown option ${a}`);
  }
  return o;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, check: () => Promise<T | null | undefined | false> | T | null | undefined | false, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await Promise.resolve().then(check).catch(() => null);
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** Peak resident set of a process (VmHWM), MB. */
function peakRssMb(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** Sends one fuzzed request over a keep-alive agent; resolves with the status (0 when the connection failed). */
function send(agent: http.Agent, info: DaemonInfo, req: FuzzRequest): Promise<{ status: number; ms: number; error?: string }> {
  const t0 = performance.now();
  const headers: Record<string, string> = { host: `127.0.0.1:${info.port}`, ...(req.noToken ? {} : { authorization: `Bearer ${info.token}` }), ...req.headers };
  return new Promise((resolve) => {
    const r = http.request({ host: '127.0.0.1', port: info.port!, method: req.method, path: req.path, headers, agent, timeout: 60_000 }, (res) => {
      res.resume();
      // (an event stream stays open: its status is the answer)
      if (req.path.startsWith('/v1/events') && res.statusCode === 200) res.destroy();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0 }));
      res.on('close', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0 }));
    });
    r.on('timeout', () => r.destroy(new Error('timed out')));
    r.on('error', (err) => resolve({ status: 0, ms: performance.now() - t0, error: err.message }));
    r.end(req.body);
  });
}

const bodyBytes = (req: FuzzRequest) => (req.body === undefined ? 0 : Buffer.byteLength(req.body));

interface FamilyReport { requests: number; byStatus: Record<string, number>; fiveXX: number; failed: number; cutOff: number; slowest: string[]; p50: number; p99: number; max: number; samples: string[] }

async function fuzzFamily(info: DaemonInfo, family: Family, o: Options, seed: number): Promise<FamilyReport> {
  const rand = seededRandom(seed);
  const agent = new http.Agent({ keepAlive: true, maxSockets: o.concurrency });
  const report: FamilyReport = { requests: 0, byStatus: {}, fiveXX: 0, failed: 0, cutOff: 0, slowest: [], p50: 0, p99: 0, max: 0, samples: [] };
  const times: number[] = [];
  const slowest: { ms: number; what: string }[] = [];
  let next = 0;
  const worker = async () => {
    while (next < o.requests) {
      next++;
      const req = fuzzRequest(rand, family);
      const r = await send(agent, info, req);
      report.requests++;
      times.push(r.ms);
      slowest.push({ ms: r.ms, what: `${r.status} ${req.method} ${req.path.length > 100 ? `${req.path.slice(0, 60)}... (${req.path.length} chars)` : req.path} ${bodyBytes(req)} body bytes` });
      slowest.sort((a, b) => b.ms - a.ms).splice(3);
      report.byStatus[r.status] = (report.byStatus[r.status] ?? 0) + 1;
      // A body over the limit is refused as soon as the limit is reached: the daemon answers 413 and closes, and a
      // client still sending may see the connection cut instead of the answer. That is the refusal, not a failure.
      // So is a request line over Node's 16 KiB header limit (431, or a reset while it is still being sent).
      const oversized = bodyBytes(req) > MAX_BODY_BYTES || req.path.length > 16 * 1024;
      const cutOff = r.status === 0 && oversized && /EPIPE|ECONNRESET|socket hang up/.test(r.error ?? '');
      if (cutOff) {
        report.cutOff++;
        continue;
      }
      const bad = r.status >= 500 || r.status === 0;
      if (r.status >= 500) report.fiveXX++;
      if (r.status === 0) report.failed++;
      if (bad && report.samples.length < 5) report.samples.push(`${r.status} ${r.error ?? ''} ${req.method} ${req.path.slice(0, 120)} ${String(req.body ?? '').slice(0, 200)}`);
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, worker));
  agent.destroy();
  report.p50 = percentile(times, 50);
  report.p99 = percentile(times, 99);
  report.max = Math.max(...times);
  report.slowest = slowest.map((x) => `${x.ms.toFixed(0)} ms: ${x.what}`);
  return report;
}

/** CPU seconds (user + system, all threads) the process has used. */
function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

/** Words of the repository's own files, for long queries and issues that look like its code. */
function repoWords(repo: string, rand: () => number, chars: number): string {
  const words: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.name.startsWith('.') || e.isSymbolicLink()) continue;
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(py|ts|js|md)$/.test(e.name) && words.length < 200_000) words.push(...fs.readFileSync(p, 'utf8').split(/\s+/).filter(Boolean));
    }
  };
  walk(repo);
  let out = '';
  while (out.length < chars) out += `${words[Math.floor(rand() * words.length)]} `;
  return out.slice(0, chars);
}

interface MaximaRow { request: string; cpuSeconds: number; ms: number; status: number; bytes: number }

/** Each request at the maxima, three times (fresh text each time, so no cached answer), one at a time. */
async function maxima(info: DaemonInfo, repo: string, pid: number, seed: number): Promise<MaximaRow[]> {
  const rand = seededRandom(seed + 2000);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const requests: [string, () => object, string][] = [
    ['search k=10000', () => ({ query: repoWords(repo, rand, 40), k: MAX_K }), '/v1/search'],
    ['search k=10000, 10,000-char query', () => ({ query: repoWords(repo, rand, MAX_QUERY_CHARS), k: MAX_K }), '/v1/search'],
    ['context B=1M, 64+64 slots, 1,000 head lines', () => ({ query: repoWords(repo, rand, 60), budget: LIMITS.budget, objectCap: LIMITS.objectCap, floor: 0, headLines: LIMITS.headLines, slots: `${LIMITS.core}+${LIMITS.companion}` }), '/v1/context'],
    ['context B=1M, 64+64 slots, 10,000-char query', () => ({ query: repoWords(repo, rand, MAX_QUERY_CHARS), budget: LIMITS.budget, objectCap: LIMITS.objectCap, floor: 0, headLines: LIMITS.headLines, slots: `${LIMITS.core}+${LIMITS.companion}` }), '/v1/context'],
    ['files/select B=1M, 200,000-char issue', () => ({ issue: repoWords(repo, rand, MAX_ISSUE_CHARS), budget: LIMITS.budget, llm: false }), '/v1/files/select'],
    ['inventory, 200,000-char issue', () => ({ issue: repoWords(repo, rand, MAX_ISSUE_CHARS) }), '/v1/inventory'],
  ];
  const rows: MaximaRow[] = [];
  for (const [name, body, route] of requests) {
    for (let i = 0; i < 3; i++) {
      const text = JSON.stringify(body());
      const c0 = cpuSeconds(pid);
      const t0 = performance.now();
      const r = await new Promise<{ status: number; bytes: number }>((resolve) => {
        const req = http.request({ host: '127.0.0.1', port: info.port!, method: 'POST', path: route, agent, headers: { host: '127.0.0.1', authorization: `Bearer ${info.token}`, 'content-type': 'application/json' } }, (res) => {
          let bytes = 0;
          res.on('data', (d: Buffer) => (bytes += d.length));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
        });
        req.on('error', () => resolve({ status: 0, bytes: 0 }));
        req.end(text);
      });
      rows.push({ request: name, cpuSeconds: cpuSeconds(pid) - c0, ms: performance.now() - t0, status: r.status, bytes: r.bytes });
    }
  }
  agent.destroy();
  return rows;
}

interface McpReport { lines: number; answers: number; byCode: Record<string, number>; missing: number; duplicated: number; nullIds: number; nullIdsWanted: number; exitCode: number | null; aliveThroughout: boolean }

/** `allot mcp` attached to the daemon: initialize, then the hostile lines, then stdin closes. */
async function fuzzMcp(repo: string, o: Options): Promise<McpReport> {
  const rand = seededRandom(o.seed + 1000);
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('ALLOT_LLM')));
  const child = spawn(process.execPath, [BIN, 'mcp', repo], { stdio: ['pipe', 'pipe', 'pipe'], env });
  const seen = new Map<string, number>();
  let nullIds = 0;
  const byCode: Record<string, number> = {};
  let pending = '';
  let answers = 0;
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    pending += d;
    for (let nl = pending.indexOf('\n'); nl !== -1; nl = pending.indexOf('\n')) {
      const m = JSON.parse(pending.slice(0, nl));
      pending = pending.slice(nl + 1);
      answers++;
      const code = m.error ? String(m.error.code) : m.result?.isError ? 'tool-error' : 'result';
      byCode[code] = (byCode[code] ?? 0) + 1;
      if (m.id === null) nullIds++;
      else seen.set(JSON.stringify(m.id), (seen.get(JSON.stringify(m.id)) ?? 0) + 1);
    }
  });
  child.stderr.resume();
  let exited: number | null | undefined;
  const done = new Promise<number | null>((r) => child.once('exit', (code) => r((exited = code))));
  const write = (b: string | Buffer) => new Promise<void>((r) => (child.stdin.write(b) ? r() : child.stdin.once('drain', () => r())));
  await write(`${JSON.stringify({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'fuzz', version: '1' } } })}\n`);
  await until('the MCP server to initialize', () => seen.has('"init"'), 120_000);
  await write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  const lines: FuzzLine[] = Array.from({ length: o.mcpLines }, (_, i) => fuzzLine(rand, i));
  for (const l of lines) {
    if (typeof l.text === 'string') await write(`${l.text}\n`);
    else {
      await write(l.text.head);
      const mb = Buffer.alloc(1024 * 1024, 'a');
      for (let left = l.text.oversizeBytes - l.text.head.length; left > 0; left -= mb.length) await write(left >= mb.length ? mb : mb.subarray(0, left));
      await write('"}}}\n');
    }
  }
  const wanted = lines.filter((l) => 'id' in l.expect).map((l) => JSON.stringify((l.expect as { id: unknown }).id));
  const nullIdsWanted = lines.filter((l) => 'nullId' in l.expect).length;
  await until('every MCP line to be answered', () => wanted.every((id) => seen.has(id)) && nullIds >= nullIdsWanted, 600_000).catch(() => null);
  const aliveThroughout = exited === undefined;
  child.stdin.end();
  const exitCode = await Promise.race([done, sleep(60_000).then(() => (child.kill('SIGKILL'), -1))]);
  return {
    lines: lines.length, answers: answers - 1, byCode, nullIds, nullIdsWanted,
    missing: wanted.filter((id) => !seen.has(id)).length, duplicated: [...seen.values()].filter((n) => n > 1).length,
    exitCode, aliveThroughout,
  };
}

async function main(): Promise<void> {
  const o = options(process.argv.slice(2));
  if (!fs.existsSync(o.dir)) throw new Error(`no folder ${o.dir}`);
  const say = (line: string) => !o.json && console.log(line);
  const cpu = os.cpus();
  say(`allot fuzz — ${cpu.length} cores, node ${process.version}, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}, seed ${o.seed}`);

  // the repository copy, and beside it a sentinel folder nothing may ever touch; links in the copy point there
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'allot-fuzz-')));
  const repo = path.join(root, 'repo');
  const sentinel = path.join(root, 'sentinel');
  fs.cpSync(o.dir, repo, { recursive: true });
  // an index copied along is caught up with, not rebuilt; a copied daemon's pid file and address are not ours
  for (const f of ['daemon.pid', 'daemon.json', 'daemon.log', 'daemon.log.1']) fs.rmSync(path.join(repo, '.allot', f), { force: true });
  fs.mkdirSync(sentinel);
  fs.writeFileSync(path.join(sentinel, 'victim.txt'), 'precious\n');
  fs.symlinkSync(sentinel, path.join(repo, 'evil-link'));
  fs.mkdirSync(path.join(repo, 'docs'), { recursive: true });
  fs.symlinkSync(path.join(sentinel, 'victim.txt'), path.join(repo, 'docs/victim-link.md'));
  const outside = () => {
    const f = fingerprint(root);
    for (const k of Object.keys(f)) if (k === 'repo/.allot' || k.startsWith('repo/.allot/')) delete f[k];
    return f;
  };
  say(`repository: a copy of ${o.dir} in ${repo}; sentinel ${sentinel}`);

  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('ALLOT_LLM')));
  const daemon = spawn(process.execPath, [BIN, 'serve', repo], { stdio: ['ignore', 'ignore', 'pipe'], env });
  let log = '';
  daemon.stderr.setEncoding('utf8').on('data', (d: string) => (log += d));
  let daemonExit: number | null | undefined;
  daemon.once('exit', (code) => (daemonExit = code));
  const pid = daemon.pid!;
  let failures: string[] = [];
  try {
    const info = await until<DaemonInfo>('daemon.json', () => {
      const i = readDaemonInfo(daemonPaths(repo).info);
      return i?.pid === pid ? i : null;
    }, 120_000);
    const client = createClient(repo, info);
    await until('the first index', async () => {
      const s = await client.status();
      return !s.indexing.catchingUp && s.indexing.state === 'idle' && !s.pending.full && s.pending.paths === 0;
    }, 600_000);
    const worst = o.maxima ? await maxima(info, repo, pid, o.seed) : [];
    if (worst.length) {
      say('  at the maxima (one at a time; the daemon\'s CPU seconds, wall ms, answer size; the worst of 3):');
      for (const name of [...new Set(worst.map((w) => w.request))]) {
        const rows = worst.filter((w) => w.request === name);
        const cpu = Math.max(...rows.map((w) => w.cpuSeconds));
        say(`    ${name.padEnd(48)} ${cpu.toFixed(2)} CPU-s, ${Math.max(...rows.map((w) => w.ms)).toFixed(0)} ms, ${(Math.max(...rows.map((w) => w.bytes)) / 1e6).toFixed(2)} MB, status ${[...new Set(rows.map((w) => w.status))].join('/')}`);
      }
      if (worst.some((w) => w.status !== 200)) failures.push('a request at the maxima was not answered 200');
    }
    const before = outside();
    const started = performance.now();

    const families: Record<string, FamilyReport> = {};
    // (each family's stream depends on the seed and the family only, so --only reproduces part of a whole run)
    for (const [i, family] of o.requests ? FAMILIES.entries() : []) {
      if (o.only && !o.only.includes(family)) continue;
      const t0 = performance.now();
      families[family] = await fuzzFamily(info, family, o, o.seed * 100 + i);
      const f = families[family];
      const statuses = Object.entries(f.byStatus).map(([s, n]) => `${s === '0' ? 'cut' : s}:${n}`).join(' ');
      say(`  ${family.padEnd(10)} ${f.requests} requests in ${((performance.now() - t0) / 1000).toFixed(1)} s; ${statuses}; p50 ${f.p50.toFixed(1)} ms, p99 ${f.p99.toFixed(1)} ms, max ${f.max.toFixed(0)} ms`);
      for (const s of f.samples) say(`      ! ${s}`);
      for (const s of f.slowest) say(`      slowest ${s}`);
    }
    const mcp = o.mcpLines ? await fuzzMcp(repo, o) : null;
    if (mcp) {
      say(`  mcp        ${mcp.lines} lines, ${mcp.answers} answers (${Object.entries(mcp.byCode).map(([c, n]) => `${c}:${n}`).join(' ')}); ids unanswered ${mcp.missing}, answered twice ${mcp.duplicated}, null-id errors ${mcp.nullIds} of ${mcp.nullIdsWanted}; exit ${mcp.exitCode}`);
    }
    const status = await client.status();
    const after = outside();
    const changed = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((k) => before[k] !== after[k]);
    const logLines = log.trimEnd().split('\n').filter(Boolean);
    const forged = logLines.filter((l) => !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z /.test(l));
    const rss = peakRssMb(pid);
    const total = Object.values(families).reduce((a, f) => a + f.requests, 0);
    const fiveXX = Object.values(families).reduce((a, f) => a + f.fiveXX, 0);
    const connFailed = Object.values(families).reduce((a, f) => a + f.failed, 0);

    if (fiveXX) failures.push(`${fiveXX} answers 5xx`);
    if (connFailed) failures.push(`${connFailed} connections failed`);
    if (daemonExit !== undefined || status.pid !== pid) failures.push('the daemon crashed');
    if (mcp && (mcp.missing || mcp.duplicated || mcp.nullIds !== mcp.nullIdsWanted || !mcp.aliveThroughout || mcp.exitCode !== 0)) failures.push('allot mcp did not answer every line as it must, or crashed');
    // -32603 is JSON-RPC's 500: a bad line must get the client's error (-32700, -32600, -32601, -32602) or a tool error
    if (mcp?.byCode['-32603']) failures.push(`${mcp.byCode['-32603']} MCP answers -32603 (internal error)`);
    if (changed.length) failures.push(`${changed.length} writes outside the repository's .allot/: ${changed.slice(0, 5).join(', ')}`);
    if (forged.length) failures.push(`${forged.length} daemon log lines without a timestamp: ${JSON.stringify(forged[0]).slice(0, 200)}`);
    const summary = {
      seed: o.seed, dir: o.dir, requestsPerFamily: o.requests, requests: total, seconds: (performance.now() - started) / 1000,
      fiveXX, connectionFailures: connFailed, crashes: daemonExit !== undefined || status.pid !== pid ? 1 : 0,
      writesOutside: changed.length, forgedLogLines: forged.length, daemonPeakRssMb: rss, queryErrorsCounted: status.queries.errors,
      maxima: worst, families, mcp, failures,
    };
    if (o.json) console.log(JSON.stringify(summary, null, 2));
    say(`\n${total} requests and ${mcp?.lines ?? 0} MCP lines in ${summary.seconds.toFixed(1)} s: ${fiveXX} 5xx, ${connFailed} connection failures, ${summary.crashes} crashes, ${changed.length} writes outside the repository, ${forged.length} forged log lines; daemon peak RSS ${rss.toFixed(0)} MB`);
    say(failures.length ? `FAILED: ${failures.join('; ')}` : 'OK');
  } catch (err) {
    failures = [...failures, (err as Error).message];
    console.error(`fuzz: ${(err as Error).message}\n${log.slice(-2000)}`);
  } finally {
    daemon.kill('SIGTERM');
    await Promise.race([new Promise((r) => daemon.once('exit', r)), sleep(20_000)]);
    if (daemonExit === undefined) daemon.kill('SIGKILL');
    fs.rmSync(root, { recursive: true, force: true });
  }
  process.exit(failures.length ? 1 : 0);
}

await main();
