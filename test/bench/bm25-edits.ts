// BM25 after many edits against a fresh index of the same tree (issue 17, item 5). Not a test.
//
//   npm run bench:bm25 -- DIR [--edits 500] [--seed 1] [--queries 30]
//
// Copies DIR to a scratch folder, indexes it, then makes random edits (cut lines, paste lines from another file,
// delete, rename, copy; test/helpers/random-edits.ts), re-indexing after each one as the daemon does after a save.
// At the end it indexes the edited tree from scratch and compares, query by query, BM25's top 10 (hits and exact
// scores) and the statistics BM25 normalises by (rows and tokens per column counted by FTS5, against the views).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { indexRepository } from '../../indexer/index-repository.ts';
import { seededRandom } from '../../indexer/random.ts';
import { openStore, type DB } from '../../indexer/store/open.ts';
import { bm25Fingerprint, randomEdit } from '../helpers/random-edits.ts';

const args = process.argv.slice(2);
const opt = (name: string, def: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : def;
};
const dir = args.find((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'));
if (!dir || !fs.existsSync(dir)) {
  console.error('usage: npm run bench:bm25 -- DIR [--edits 500] [--seed 1] [--queries 30]   (a tree of a few hundred files)');
  process.exit(2);
}
const edits = opt('edits', 500);
const rand = seededRandom(opt('seed', 1));
const K = 10;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'allot-bm25-'));
const repo = path.join(tmp, 'repo');
fs.cpSync(dir, repo, { recursive: true });
try {
  const db = openStore(path.join(tmp, 'edited.db'));
  await indexRepository({ repo, db, workers: 0 });
  // Queries: names of objects and pairs of them, drawn from the tree as indexed before the edits.
  const names = db.prepare("SELECT DISTINCT name FROM objects WHERE kind NOT IN ('module', 'file') ORDER BY name").pluck().all() as string[];
  const queries = Array.from({ length: opt('queries', 30) }, (_, i) => {
    const a = names[Math.floor(rand() * names.length)];
    return i % 3 === 2 ? `${a} ${names[Math.floor(rand() * names.length)]}` : a;
  });
  const started = performance.now();
  for (let e = 0; e < edits; e++) {
    randomEdit(repo, rand);
    await indexRepository({ repo, db, workers: 0 });
  }
  const editSeconds = (performance.now() - started) / 1000;
  const fresh = openStore(path.join(tmp, 'fresh.db'));
  await indexRepository({ repo, db: fresh, workers: 0 });
  const views = (d: DB) => d.prepare('SELECT count(*) FROM views').pluck().get() as number;
  const a = bm25Fingerprint(db, queries, K);
  const b = bm25Fingerprint(fresh, queries, K);
  let differ = 0;
  let maxDelta = 0;
  for (const q of queries) {
    const x = a.answers[q];
    const y = b.answers[q];
    const scores = x.length === y.length && x.every((h, i) => h.score === y[i].score);
    // Hits tied with the 10th score may be any of the tied rows: compare those above it.
    const last = y.at(-1)?.score;
    const above = (l: typeof x) => l.filter((h) => y.length < K || h.score !== last).map((h) => h.hit);
    if (!scores || JSON.stringify(above(x)) !== JSON.stringify(above(y))) differ++;
    x.forEach((h, i) => y[i] && (maxDelta = Math.max(maxDelta, Math.abs(h.score - y[i].score))));
  }
  console.log(`${path.resolve(dir)}: ${edits} random edits, each followed by an index run (${editSeconds.toFixed(1)} s)`);
  console.log(`  statistics: edited index counts ${a.statistics.rows} rows for ${views(db)} views (tokens ${a.statistics.tokens.join('/')}); fresh counts ${b.statistics.rows} for ${views(fresh)} (tokens ${b.statistics.tokens.join('/')})`);
  console.log(`  BM25 top ${K}: ${differ} of ${queries.length} queries differ from the fresh index; largest score difference ${maxDelta}`);
  db.close();
  fresh.close();
  if (differ || a.statistics.rows !== b.statistics.rows) process.exitCode = 1;
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
