// Benchmark of `allot context` latency on an indexed tree (not a test).
//
//   npm run bench:context -- DIR [--queries 200] [--budget 4096] [--cli 20]
//
// Queries are drawn deterministically from the tree's own identifiers and
// docstrings (every k-th object). Warm in-process latency: one store, repeated
// `buildContext` calls after a warm-up pass; through the CLI: real `allot
// context` processes (start-up included), fewer of them.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildContext } from '../../allocator/context.ts';
import { indexRepository } from '../../indexer/index-repository.ts';
import { bm25Retriever } from '../../indexer/retrieve/bm25.ts';
import { storeObjectSource } from '../../indexer/store/object-source.ts';
import { openStore } from '../../indexer/store/open.ts';
import { percentile } from './measure.ts';
import { drawQueries } from './queries.ts';

const BIN = fileURLToPath(new URL('../../client/bin/allot.js', import.meta.url));

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
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'allot-bench-ctx-'));
  const dbFile = path.join(tmp, 'index.db');
  try {
    const s = await indexRepository({ repo: root, db: dbFile });
    const db = openStore(dbFile, { readonly: true });
    const queries = drawQueries(db, n);
    const retriever = bm25Retriever(db);
    const source = storeObjectSource(db);
    for (const q of queries) buildContext(q, retriever, storeObjectSource(db), { budget }); // warm-up
    const times: number[] = [];
    let tokens = 0;
    for (const q of queries) {
      const t = performance.now();
      const a = buildContext(q, retriever, storeObjectSource(db), { budget });
      times.push(performance.now() - t);
      tokens += a.totalTokens;
    }
    void source;
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
    console.log(`  in-process (warm)  p50 ${f(percentile(times, 50))}  p99 ${f(percentile(times, 99))}  max ${f(Math.max(...times))}  mean tokens ${(tokens / queries.length).toFixed(0)}`);
    console.log(`  CLI process        p50 ${f(percentile(cli, 50))}  p99 ${f(percentile(cli, 99))}  (${cli.length} runs, start-up included)`);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
