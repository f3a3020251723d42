// Benchmark of the daemon (not a test).
//
//   npm run bench:daemon [-- CORPUS]     (default: the SymPy corpus of bash test/bench/corpora.sh)
//
// A real daemon (`allot serve`) on a temporary COPY of the corpus (the corpus
// itself is never edited), started cold, so its start-up run builds the index:
//   (a) warm `POST /v1/context` latency at 1, 8 and 32 concurrent clients
//       (autocannon, keep-alive connections, queries drawn from the corpus);
//   (b) freshness: time from a file write until a search sees the new code,
//       over 50 edits of random files, each made on an idle daemon, then 50
//       edits made back to back (the next one as soon as the previous shows);
//       searched with the default retriever (hybrid) and with BM25 alone;
//   (c) the daemon's RSS (all its threads) after warm-up and after 10,000 queries.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { daemonEnv } from '../../client/lib/daemon-process.ts';
import { createClient, type AllotClient } from '../../client/lib/index.ts';
import { daemonPaths, readDaemonInfo, type DaemonInfo } from '../../daemon/config.ts';
import { openStore } from '../../indexer/store/open.ts';
import { percentile } from './measure.ts';
import { drawQueries } from './queries.ts';

const PROJECT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = path.join(PROJECT, 'client/bin/allot.js');
const DEFAULT_CORPUS = path.join(PROJECT, 'bench-data/sympy/usr/lib/python3/dist-packages/sympy');
const CONCURRENCY = [1, 8, 32];
/** Requests per concurrency level: 10,000 in all after warm-up. */
const AMOUNT: Record<number, number> = { 1: 1500, 8: 3000, 32: 5000 };
const WARMUP = 300;
const EDITS = 50;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ms = (v: number) => `${v.toFixed(1)} ms`;

/** Resident set of a process and all its threads, from /proc. */
function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** A deterministic pseudo-random sequence (mulberry32). */
function random(seed: number): () => number {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function until<T>(what: string, check: () => Promise<T | null | undefined | false>, timeoutMs: number, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check().catch(() => null);
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(everyMs);
  }
}

async function idle(client: AllotClient): Promise<void> {
  await until('the daemon to be idle', async () => {
    const s = await client.status();
    return !s.indexing.catchingUp && s.indexing.state === 'idle' && s.pending.paths === 0 && !s.pending.full;
  }, 600_000, 20);
}

async function freshness(client: AllotClient, repo: string, files: string[], rand: () => number, spaced: boolean, retriever?: 'bm25'): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < EDITS; i++) {
    if (spaced) {
      await idle(client);
      await sleep(100);
    }
    const file = files[Math.floor(rand() * files.length)];
    const name = `allot_fresh_${spaced ? 's' : 'b'}${i}_${Math.floor(rand() * 1e9)}`;
    const t0 = performance.now();
    fs.appendFileSync(path.join(repo, file), `\n\ndef ${name}(x):\n    """Freshness probe ${i}."""\n    return x\n`);
    await until(`edit ${i} of ${file} to show`, async () => {
      const hits = await client.search({ query: name, k: 3, ...(retriever ? { retriever } : {}) });
      return hits.some((h) => h.object === name && h.path === file);
    }, 60_000, 5);
    times.push(performance.now() - t0);
  }
  return times;
}

async function main(): Promise<void> {
  const corpus = path.resolve(process.argv[2] ?? DEFAULT_CORPUS);
  if (!fs.existsSync(corpus)) {
    console.error(`no corpus at ${corpus}: run \`bash test/bench/corpora.sh\` first (or pass a folder)`);
    process.exit(2);
  }
  const cpu = os.cpus();
  console.log(`allot daemon benchmark — ${cpu.length} cores (${cpu[0]?.model}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'allot-bench-daemon-'));
  const repo = path.join(tmp, path.basename(corpus));
  fs.cpSync(corpus, repo, { recursive: true });
  console.log(`corpus ${corpus}, copied to ${repo}`);

  const started = performance.now();
  // the environment `allot start` gives the daemon
  const child = spawn(process.execPath, [BIN, 'serve', repo], { stdio: ['ignore', 'ignore', 'pipe'], env: daemonEnv(process.env) });
  let log = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (log += d));
  const pid = child.pid!;
  let client: AllotClient | null = null;
  try {
    const info = await until<DaemonInfo>('daemon.json', async () => {
      const i = readDaemonInfo(daemonPaths(repo).info);
      return i?.pid === pid ? i : null;
    }, 60_000);
    client = createClient(repo, info);
    const c = client;
    await idle(c);
    const s0 = await c.status();
    console.log(`start-up run (cold index): ${((performance.now() - started) / 1000).toFixed(1)} s to idle; ${s0.index.files} files, ${s0.index.objects} objects, ${s0.index.views} views; RSS ${rssMb(pid).toFixed(0)} MB`);

    const db = openStore(path.join(repo, '.allot/index.db'), { readonly: true });
    const queries = drawQueries(db, 200);
    // Queries never asked before (the answer cache cannot help): the cost of a first query.
    const seen = new Set(queries);
    const unseen = [...new Set(drawQueries(db, 2000))].filter((q) => !seen.has(q)).slice(0, 500);
    const pyFiles = (db.prepare("SELECT path FROM files WHERE language = 'python' ORDER BY path").pluck().all() as string[]);
    db.close();

    for (let i = 0; i < WARMUP; i++) await c.context({ query: queries[i % queries.length] });
    const rssWarm = rssMb(pid);
    console.log(`after ${WARMUP} warm-up queries: RSS ${rssWarm.toFixed(0)} MB`);

    console.log(`\n(a) warm POST /v1/context latency (B = 4096, ${queries.length} queries in rotation)`);
    const requests = queries.map((q) => ({ method: 'POST', path: '/v1/context', body: JSON.stringify({ query: q }) }));
    const latency: Record<number, { p50: number; p99: number; rps: number }> = {};
    let served = 0;
    const bm25 = await autocannon({
      url: `http://127.0.0.1:${info.port}`,
      connections: 1,
      amount: 500,
      timeout: 60,
      headers: { authorization: `Bearer ${info.token}`, 'content-type': 'application/json' },
      requests: queries.map((q) => ({ method: 'POST', path: '/v1/context', body: JSON.stringify({ query: q, retriever: 'bm25' }) })),
    });
    served += 500;
    console.log(`  BM25 only, 1 client: p50 ${ms(bm25.latency.p50)}, p99 ${ms(bm25.latency.p99)} (500 queries)`);
    console.log(`  default retriever (hybrid: structural + BM25):`);
    for (const connections of CONCURRENCY) {
      const r = await autocannon({
        url: `http://127.0.0.1:${info.port}`,
        connections,
        amount: AMOUNT[connections],
        timeout: 60,
        headers: { authorization: `Bearer ${info.token}`, 'content-type': 'application/json' },
        requests,
      });
      if (r.errors || r.non2xx || r.timeouts) throw new Error(`${connections} clients: ${r.errors} errors, ${r.non2xx} non-2xx, ${r.timeouts} timeouts`);
      served += AMOUNT[connections];
      latency[connections] = { p50: r.latency.p50, p99: r.latency.p99, rps: AMOUNT[connections] / r.duration };
      console.log(`  ${String(connections).padStart(2)} client(s): p50 ${ms(r.latency.p50)}, p99 ${ms(r.latency.p99)}, ${latency[connections].rps.toFixed(0)} queries/s (${AMOUNT[connections]} queries)`);
    }
    const cold: number[] = [];
    for (const q of unseen) {
      const t0 = performance.now();
      await c.context({ query: q });
      cold.push(performance.now() - t0);
    }
    served += unseen.length;
    console.log(`  each query new (no cached answer), 1 client: p50 ${ms(percentile(cold, 50))}, p99 ${ms(percentile(cold, 99))} (${unseen.length} queries)`);
    const rssRightAfter = rssMb(pid);
    // The daemon collects garbage once it has been quiet for 2 s: what it keeps is the figure that matters.
    await sleep(3000);
    const rssAfter = rssMb(pid);
    console.log(`  RSS right after the last query ${rssRightAfter.toFixed(0)} MB, after 3 s of quiet ${rssAfter.toFixed(0)} MB`);
    const status = await c.status();
    console.log(`  (${status.queries.served} queries served in all, ${status.queries.errors} errors)`);
    const growth = (rssAfter / rssWarm - 1) * 100;

    console.log(`\n(b) freshness: file write -> a search finds the new function (${EDITS} edits of random Python files in the copy)`);
    const rand = random(4242);
    const line = (label: string, t: number[]) => console.log(`  ${label.padEnd(40)} p50 ${ms(percentile(t, 50))}, p95 ${ms(percentile(t, 95))}, max ${ms(Math.max(...t))}`);
    const spaced = await freshness(c, repo, pyFiles, rand, true, 'bm25');
    line('edits on an idle daemon, BM25 search:', spaced);
    const spacedHybrid = await freshness(c, repo, pyFiles, rand, true);
    line('edits on an idle daemon, default search:', spacedHybrid);
    const burst = await freshness(c, repo, pyFiles, rand, false, 'bm25');
    line('edits back to back, BM25 search:', burst);
    await idle(c);
    const last = (await c.status()).indexing.lastBatch;

    console.log(`\n(c) daemon RSS (all threads): ${rssWarm.toFixed(0)} MB after warm-up, ${rssAfter.toFixed(0)} MB after ${served} more queries (${growth >= 0 ? '+' : ''}${growth.toFixed(1)}%), ${rssMb(pid).toFixed(0)} MB after the edits`);
    console.log(`    last batch: ${last?.paths} path(s), ${last?.seconds.toFixed(2)} s (includes the resolution pass; the new text is visible as soon as the file's rows commit, before it)`);

    const goals = [
      [`p50 at one client under 20 ms (warm: ${queries.length} queries in rotation)`, latency[1].p50 < 20],
      [`p50 at one client under 20 ms (every query new)`, percentile(cold, 50) < 20],
      [`freshness p95 under 500 ms (edits on an idle daemon, BM25 search)`, percentile(spaced, 95) < 500],
      [`freshness p95 under 500 ms (edits on an idle daemon, default search)`, percentile(spacedHybrid, 95) < 500],
      [`RSS under 500 MB`, Math.max(rssWarm, rssAfter) < 500],
      [`RSS growth over 10,000 queries within 10%`, growth <= 10],
    ] as const;
    console.log('\ngoals:');
    for (const [what, ok] of goals) console.log(`  ${ok ? 'met    ' : 'MISSED '} ${what}`);
  } finally {
    client?.close();
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(tmp, { recursive: true, force: true });
    if (process.env.ALLOT_BENCH_LOG) fs.writeFileSync(process.env.ALLOT_BENCH_LOG, log);
  }
}

await main();
