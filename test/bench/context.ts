// Benchmark of `allot context` latency on an indexed tree (not a test).
//
//   npm run bench:context -- DIR [--queries 200] [--budget 4096] [--cli 20]
//                            [--retrievers bm25,structural,hybrid] [--code-tasks TASKS.jsonl] [--db FILE] [--slowest N]
//
// Queries are drawn deterministically from the tree's own identifiers and
// docstrings (every k-th object). Warm in-process latency: one store, repeated
// `buildContext` calls after a warm-up pass; through the CLI: real `allot
// context` processes (start-up included), fewer of them. --retrievers times each
// retriever named (default bm25); --code-tasks adds code queries, the `query`
// fields of an `allot eval gen-crossfile` file (a file's imports and the lines
// before a position), where the structural retriever's heads apply. --slowest N prints, per retriever and kind,
// the N queries of the most CPU with their CPU in retrieval and in allocation (rendering included).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { allocate } from '../../allocator/allocate.ts';
import { buildContext, retrievalDepth } from '../../allocator/context.ts';
import { parseAllocateOptions } from '../../allocator/options.ts';
import { indexRepository } from '../../indexer/index-repository.ts';
import { retrieverFor, RETRIEVER_NAMES, type RetrieverName } from '../../indexer/retrieve/select.ts';
import { storeObjectSource } from '../../indexer/store/object-source.ts';
import { openStore } from '../../indexer/store/open.ts';
import { percentile } from './measure.ts';
import { drawQueries } from './queries.ts';

const BIN = fileURLToPath(new URL('../../client/bin/allot.js', import.meta.url));

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

async function main() {
  const dir = process.argv[2];
  if (!dir || dir.startsWith('--')) {
    console.error('usage: npm run bench:context -- DIR [--queries 200] [--budget 4096] [--cli 20]');
    process.exit(2);
  }
  const root = path.resolve(dir);
  const n = arg('queries', 200);
  const budget = arg('budget', 4096);
  const cliRuns = arg('cli', 20);
  const slowest = arg('slowest', 0);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'allot-bench-ctx-'));
  const dbFile = flag('db') ? path.resolve(flag('db')!) : path.join(tmp, 'index.db');
  try {
    const s = await indexRepository({ repo: root, db: dbFile });
    const db = openStore(dbFile, { readonly: true });
    const queries = drawQueries(db, n);
    const codeTasks = flag('code-tasks');
    const codeQueries = codeTasks
      ? fs.readFileSync(codeTasks, 'utf8').trim().split('\n').slice(0, n).map((l) => (JSON.parse(l) as { query: string }).query)
      : [];
    const names = (flag('retrievers') ?? 'bm25').split(',') as RetrieverName[];
    for (const name of names) if (!RETRIEVER_NAMES.includes(name)) throw new Error(`unknown retriever ${name}`);
    const source = storeObjectSource(db);
    const rows: { name: string; kind: string; times: number[]; tokens: number; cpuMs: number }[] = [];
    for (const name of names) {
      const retriever = await retrieverFor(db, name);
      for (const [kind, qs] of [['identifiers and docstrings', queries], ['code (cross-file task queries)', codeQueries]] as const) {
        if (!qs.length) continue;
        for (const q of qs) buildContext(q, retriever, source, { budget }); // warm-up
        const times: number[] = [];
        let tokens = 0;
        // CPU time (user + system) per query as well: on a shared machine wall time says more about the load.
        const cpu0 = process.cpuUsage();
        for (const q of qs) {
          const t = performance.now();
          const a = buildContext(q, retriever, source, { budget });
          times.push(performance.now() - t);
          tokens += a.totalTokens;
        }
        const cpu = process.cpuUsage(cpu0);
        rows.push({ name, kind, times, tokens: tokens / qs.length, cpuMs: (cpu.user + cpu.system) / 1000 / qs.length });
        if (slowest > 0) {
          // The same work as buildContext, in its two parts, CPU-timed per query (wall time on a shared machine says little).
          const opts = parseAllocateOptions({ budget });
          const cpuMs = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; };
          const split = qs.map((q) => {
            const c0 = cpuMs();
            const candidates = retriever.retrieve(q, retrievalDepth(opts));
            const c1 = cpuMs();
            allocate(q, candidates, source, undefined, opts);
            return { q, retrieve: c1 - c0, allocate: cpuMs() - c1 };
          });
          split.sort((a, b) => b.retrieve + b.allocate - a.retrieve - a.allocate);
          console.log(`slowest ${name}, ${kind}:`);
          for (const x of split.slice(0, slowest)) console.log(`  ${x.retrieve.toFixed(1)} CPU-ms retrieval + ${x.allocate.toFixed(1)} allocation  ${JSON.stringify(x.q.slice(0, 90))}`);
        }
      }
    }
    db.close();
    const cli: number[] = [];
    for (const q of queries.slice(0, cliRuns)) {
      const t = performance.now();
      const r = spawnSync(process.execPath, [BIN, 'context', q, '--budget', String(budget), '--repo', root, '--db', dbFile], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`allot context failed: ${r.stderr}`);
      cli.push(performance.now() - t);
    }
    const f = (x: number) => `${x.toFixed(1)} ms`;
    console.log(`allot context benchmark — ${os.cpus().length} cores (${os.cpus()[0]?.model}), node ${process.version}`);
    console.log(`${root}: ${s.files} files, ${s.objects} objects; ${queries.length} queries (identifiers and docstrings), B=${budget}`);
    for (const r of rows) {
      console.log(`  in-process (warm), ${r.name}, ${r.kind}: p50 ${f(percentile(r.times, 50))}  p95 ${f(percentile(r.times, 95))}  p99 ${f(percentile(r.times, 99))}  max ${f(Math.max(...r.times))}  CPU ${f(r.cpuMs)}/query  mean tokens ${r.tokens.toFixed(0)}`);
    }
    console.log(`  CLI process        p50 ${f(percentile(cli, 50))}  p99 ${f(percentile(cli, 99))}  (${cli.length} runs, start-up included)`);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
