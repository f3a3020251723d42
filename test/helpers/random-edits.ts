import fs from 'node:fs';
import path from 'node:path';
import { bm25Retriever } from '../../indexer/retrieve/bm25.ts';
import { ftsStatistics, type FtsStatistics } from '../../indexer/store/fts.ts';
import type { DB } from '../../indexer/store/open.ts';

/** Every file under `root` (repo-relative), skipping `.allot` and `.git`. */
export function listFiles(root: string, rel = ''): string[] {
  return fs.readdirSync(path.join(root, rel), { withFileTypes: true }).flatMap((e) => {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) return e.name === '.allot' || e.name === '.git' ? [] : listFiles(root, p);
    return e.isFile() ? [p] : [];
  });
}

const pick = <T>(rand: () => number, xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];

/**
 * One random edit of a tree, as people and checkouts make them: cut a run of lines, paste lines taken from another
 * file, delete a file, rename one, or add a copy of one under a new name. Returns what it did.
 */
export function randomEdit(root: string, rand: () => number): string {
  const files = listFiles(root);
  if (!files.length) return 'nothing to edit';
  const file = pick(rand, files);
  const abs = path.join(root, file);
  const op = rand();
  if (op < 0.35) {
    const lines = fs.readFileSync(abs, 'utf8').split('\n');
    const at = Math.floor(rand() * lines.length);
    const n = 1 + Math.floor(rand() * 12);
    lines.splice(at, n);
    fs.writeFileSync(abs, lines.join('\n'));
    return `cut ${n} lines of ${file} at ${at + 1}`;
  }
  if (op < 0.7) {
    const from = fs.readFileSync(path.join(root, pick(rand, files)), 'utf8').split('\n');
    const start = Math.floor(rand() * from.length);
    const taken = from.slice(start, start + 1 + Math.floor(rand() * 30));
    const lines = fs.readFileSync(abs, 'utf8').split('\n');
    lines.splice(Math.floor(rand() * (lines.length + 1)), 0, ...taken);
    fs.writeFileSync(abs, lines.join('\n'));
    return `pasted ${taken.length} lines into ${file}`;
  }
  if (op < 0.8 && files.length > 3) {
    fs.rmSync(abs);
    return `deleted ${file}`;
  }
  const ext = path.extname(file);
  const to = path.join(path.dirname(file), `${path.basename(file, ext)}_${Math.floor(rand() * 1e6)}${ext}`);
  if (op < 0.9) fs.renameSync(abs, path.join(root, to));
  else fs.copyFileSync(abs, path.join(root, to));
  return `${op < 0.9 ? 'renamed' : 'copied'} ${file} to ${to}`;
}

/** What BM25 answers to each query, row ids left out: the statistics and every hit with its exact score. */
export interface Bm25Fingerprint {
  statistics: FtsStatistics;
  answers: Record<string, { score: number; hit: string }[]>;
}

/** BM25's answers to `queries` (the first `k` hits each, ties ordered by what the hit is, not by row id). */
export function bm25Fingerprint(db: DB, queries: string[], k: number): Bm25Fingerprint {
  const bm25 = bm25Retriever(db);
  const answers: Bm25Fingerprint['answers'] = {};
  for (const q of queries) {
    answers[q] = bm25
      .retrieve(q, k)
      .map((c) => ({ score: c.score, hit: `${c.objectId} ${c.viewKind} ${c.path}:${c.startLine}-${c.endLine}` }))
      .sort((a, b) => b.score - a.score || (a.hit < b.hit ? -1 : a.hit > b.hit ? 1 : 0));
  }
  return { statistics: ftsStatistics(db), answers };
}
