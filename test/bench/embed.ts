// Benchmark of dense embeddings (not a test).
//
//   npm run bench:embed [-- CORPUS] [--model DIR] [--queries 200] [--daemon-only]
//                        (default: the SymPy corpus of bash test/bench/corpora.sh)
//
// 1. The repository-trained embedder on CORPUS (indexed cold into a temporary
//    database): training seconds, embedding-pass rate, peak RSS.
// 2. The transformers.js path with the model folder given (--model DIR or
//    ALLOT_MODEL_DIR): texts/s at batch sizes 1, 8 and 32. Skipped without one.
// 3. Vector search at 10k and 100k random unit vectors (384 dimensions, and 128,
//    the repository model's): a brute-force Float32Array scan against sqlite-vec
//    (vec0, cosine), p50/p99 of a top-20 query.
// 4. `context` latency on CORPUS (budget 4096): bm25, hybrid without vectors,
//    hybrid with the repository model's vectors; p50/p99 over warm queries.
// 5. A real daemon on a copy of CORPUS whose vectors were dropped: context
//    latency while its writer thread re-embeds every object, and after.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawn } from 'node:child_process';
import Database from 'better-sqlite3';
import { daemonEnv } from '../../client/lib/daemon-process.ts';
import { createClient, type AllotClient } from '../../client/lib/index.ts';
import { daemonPaths, readDaemonInfo } from '../../daemon/config.ts';
import * as sqliteVec from 'sqlite-vec';
import { parseAllocateOptions } from '../../allocator/options.ts';
import { createQueryEngine } from '../../daemon/queries.ts';
import { objectTexts } from '../../indexer/embed/embed-index.ts';
import { resolveModelDir } from '../../indexer/embed/model-dir.ts';
import { runEmbedding } from '../../indexer/embed/run.ts';
import { loadTransformersEmbedder } from '../../indexer/embed/transformers.ts';
import { indexRepository } from '../../indexer/index-repository.ts';
import { topK } from '../../indexer/retrieve/dense.ts';
import type { RetrieverName } from '../../indexer/retrieve/select.ts';
import { openStore } from '../../indexer/store/open.ts';
import { percentile } from './measure.ts';
import { drawQueries } from './queries.ts';

const PROJECT = fileURLToPath(new URL('../../', import.meta.url));
const DEFAULT_CORPUS = path.join(PROJECT, 'bench-data/sympy/usr/lib/python3/dist-packages/sympy');

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}

const ms = (v: number) => `${v.toFixed(2)} ms`;
const rssMb = () => process.memoryUsage().rss / 2 ** 20;
const peakMb = () => process.resourceUsage().maxRSS / 1024;

function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function unitVectors(n: number, dim: number, rand: () => number): Float32Array {
  const m = new Float32Array(n * dim);
  for (let r = 0; r < n; r++) {
    let s = 0;
    for (let j = 0; j < dim; j++) s += (m[r * dim + j] = rand() * 2 - 1) ** 2;
    const inv = 1 / Math.sqrt(s);
    for (let j = 0; j < dim; j++) m[r * dim + j] *= inv;
  }
  return m;
}

function timeEach(n: number, fn: (i: number) => void): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    fn(i);
    out.push(performance.now() - t0);
  }
  return out;
}

function vectorSearch(): void {
  console.log('\n== vector search: top-20 of random unit vectors (200 queries each) ==');
  console.log('vectors  dim   brute force p50 / p99        sqlite-vec (vec0, cosine) p50 / p99');
  for (const dim of [384, 128]) {
    for (const n of [10_000, 100_000]) {
      const rand = seeded(n + dim);
      const matrix = unitVectors(n, dim, rand);
      const queries = unitVectors(200, dim, rand);
      const q = (i: number) => queries.subarray(i * dim, (i + 1) * dim);
      const brute = timeEach(200, (i) => topK(matrix, dim, q(i), 20));
      // A scratch in-memory database for the extension, not an allot index.
      const db = new Database(':memory:');
      sqliteVec.load(db);
      db.exec(`CREATE VIRTUAL TABLE v USING vec0(embedding float[${dim}] distance_metric=cosine)`);
      const put = db.prepare('INSERT INTO v (rowid, embedding) VALUES (?, ?)');
      db.transaction(() => {
        for (let r = 0; r < n; r++) put.run(BigInt(r), Buffer.from(matrix.buffer, r * dim * 4, dim * 4));
      })();
      const knn = db.prepare('SELECT rowid, distance FROM v WHERE embedding MATCH ? AND k = 20');
      const vec = timeEach(200, (i) => knn.all(Buffer.from(q(i).buffer, q(i).byteOffset, dim * 4)));
      // Same answers? The first hit must agree.
      const a = topK(matrix, dim, q(0), 1)[0].row;
      const b = Number((knn.all(Buffer.from(q(0).buffer, q(0).byteOffset, dim * 4))[0] as { rowid: number | bigint }).rowid);
      db.close();
      console.log(
        `${String(n).padStart(7)}  ${String(dim).padStart(3)}   ${ms(percentile(brute, 50)).padStart(9)} / ${ms(percentile(brute, 99)).padStart(9)}        ${ms(percentile(vec, 50)).padStart(9)} / ${ms(percentile(vec, 99)).padStart(9)}   ratio vec/brute p50 ${(percentile(vec, 50) / percentile(brute, 50)).toFixed(2)}${a === b ? '' : ' (TOP-1 DIFFERS)'}`,
      );
    }
  }
}

async function transformersPath(texts: string[]): Promise<void> {
  console.log('\n== transformers.js path ==');
  const dir = resolveModelDir(flag('model'));
  if (!dir) {
    console.log('skipped: no model folder (--model DIR, ALLOT_MODEL_DIR, or `allot model fetch`)');
    return;
  }
  const before = peakMb();
  const e = await loadTransformersEmbedder(dir);
  console.log(`model ${e.id}@${e.version}, ${e.dimension} dimensions, from ${dir}`);
  const sample = texts.slice(0, 256);
  for (const batch of [1, 8, 32]) {
    const t0 = performance.now();
    for (let i = 0; i < sample.length; i += batch) await e.embed(sample.slice(i, i + batch));
    const s = (performance.now() - t0) / 1000;
    console.log(`batch ${String(batch).padStart(2)}: ${(sample.length / s).toFixed(1)} texts/s`);
  }
  console.log(`peak RSS ${peakMb().toFixed(0)} MB (was ${before.toFixed(0)} MB before loading)`);
}

/** Context latency of a daemon whose writer thread re-embeds every object meanwhile. */
async function queriesWhileEmbedding(corpus: string, dbFile: string, queries: string[]): Promise<void> {
  console.log('\n== queries while the daemon embeds (repository model, every vector to redo) ==');
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'allot-bench-embed-daemon-'));
  fs.cpSync(corpus, repo, { recursive: true });
  fs.mkdirSync(path.join(repo, '.allot'));
  // Moved, not copied: a copied index is one allot did not build in place, which it rebuilds rather than trust.
  for (const ext of ['', '-wal', '-shm']) if (fs.existsSync(dbFile + ext)) fs.renameSync(dbFile + ext, path.join(repo, '.allot', `index.db${ext}`));
  const child = spawn(process.execPath, [path.join(PROJECT, 'client/bin/allot.js'), 'serve', repo], { stdio: 'ignore', env: daemonEnv(process.env) });
  try {
    let client: AllotClient | null = null;
    while (!client) {
      const info = readDaemonInfo(daemonPaths(repo).info);
      if (info && info.pid === child.pid) client = createClient(repo, info);
      else await new Promise((r) => setTimeout(r, 100));
    }
    // The first query builds what every later one reuses (the structure, the vectors in memory): timed apart.
    await client.status().catch(() => null);
    while (!(await client.status().catch(() => null))) await new Promise((r) => setTimeout(r, 100));
    const t = performance.now();
    await client.context({ query: 'first query' });
    console.log(`first query (cold: structure and vectors loaded): ${ms(performance.now() - t)}`);
    const during: number[] = [];
    const after: number[] = [];
    let i = 0;
    let embeddingSeen = false;
    const deadline = Date.now() + 600_000;
    while (Date.now() < deadline) {
      const status = await client.status().catch(() => null);
      if (!status) continue;
      const embedding = status.dense.state === 'embedding';
      embeddingSeen ||= embedding;
      if (embeddingSeen && !embedding && after.length >= 200) break;
      // Each query new: a cached answer would hide any wait.
      const q = `${queries[i % queries.length]}${' '.repeat(Math.floor(i / queries.length))}`;
      i++;
      const t0 = performance.now();
      await client.context({ query: q });
      (embedding ? during : embeddingSeen ? after : during).push(performance.now() - t0);
    }
    const s = await client.status();
    console.log(`dense ${s.dense.state}: ${s.dense.embedded}/${s.dense.objects} objects with ${s.dense.model}`);
    console.log(`context while embedding: ${during.length} queries, p50 ${ms(percentile(during, 50))}, p99 ${ms(percentile(during, 99))}, max ${ms(Math.max(...during))} (query #${during.indexOf(Math.max(...during)) + 1})`);
    console.log(`context after:           ${after.length} queries, p50 ${ms(percentile(after, 50))}, p99 ${ms(percentile(after, 99))}, max ${ms(Math.max(...after))}`);
    client.close();
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    fs.rmSync(repo, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const corpus = path.resolve(process.argv[2] && !process.argv[2].startsWith('--') ? process.argv[2] : DEFAULT_CORPUS);
  if (!fs.existsSync(corpus)) throw new Error(`no corpus at ${corpus}: run bash test/bench/corpora.sh`);
  const nQueries = Number(flag('queries') ?? 200);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'allot-bench-embed-'));
  const dbFile = path.join(dir, 'index.db');
  try {
    console.log(`indexing ${corpus} into ${dbFile}`);
    await indexRepository({ repo: corpus, db: dbFile });
    const db = openStore(dbFile);

    console.log('\n== repository-trained embedder ==');
    const rssBefore = rssMb();
    let trainSeconds = 0;
    const t0 = performance.now();
    const summary = await runEmbedding(db, 'repo', { onTraining: (phase, s) => phase === 'done' && (trainSeconds = s) });
    const total = (performance.now() - t0) / 1000;
    const passSeconds = total - trainSeconds;
    console.log(`model ${summary!.model}`);
    console.log(`training ${trainSeconds.toFixed(2)} s; embedding pass ${summary!.embedded} texts in ${passSeconds.toFixed(2)} s (${(summary!.embedded / passSeconds).toFixed(0)} texts/s)`);
    console.log(`RSS ${rssBefore.toFixed(0)} MB before, peak ${peakMb().toFixed(0)} MB`);
    const again = await runEmbedding(db, 'repo');
    console.log(`re-run on the unchanged index: ${again!.embedded} embedded, ${again!.cached} cached, ${again!.seconds.toFixed(2)} s`);

    const quick = process.argv.includes('--daemon-only');
    if (!quick) {
      await transformersPath([...objectTexts(db)]);
      vectorSearch();
    }

    console.log(`\n== context latency, budget 4096, ${nQueries} warm queries ==`);
    const engine = createQueryEngine(db, corpus);
    const queries = drawQueries(db, nQueries);
    const options = parseAllocateOptions({ budget: 4096 });
    const run = async (retriever: RetrieverName, label: string) => {
      for (const q of queries.slice(0, 20)) await engine.context(q, options, { retriever });
      const times: number[] = [];
      for (const q of queries) {
        const t = performance.now();
        await engine.context(q, options, { retriever });
        times.push(performance.now() - t);
      }
      console.log(`${label.padEnd(34)} p50 ${ms(percentile(times, 50)).padStart(9)}  p99 ${ms(percentile(times, 99)).padStart(9)}`);
      return times;
    };
    if (!quick) {
      const withDense = await run('hybrid', 'hybrid (structural + BM25 + dense)');
      await run('dense', 'dense alone');
      const bm25 = await run('bm25', 'bm25');
      await runEmbedding(db, 'none');
      const without = await run('hybrid', 'hybrid without vectors');
      console.log(`dense adds ${ms(percentile(withDense, 50) - percentile(without, 50))} to hybrid at p50; hybrid with dense / bm25 at p50: ${(percentile(withDense, 50) / percentile(bm25, 50)).toFixed(2)}`);
    }

    // 5. The daemon embedding in the background while queries arrive: the index keeps its model, its vectors are dropped.
    await runEmbedding(db, 'repo');
    db.prepare('DELETE FROM embeddings').run();
    db.close();
    await queriesWhileEmbedding(corpus, dbFile, queries);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
