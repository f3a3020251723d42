import { identifiers, splitIdentifier } from '../identifiers.ts';
import type { DB } from '../store/open.ts';
import { bm25Retriever } from './bm25.ts';

/** A fixed-size window of a file's lines, scored for a query. */
export interface ScoredChunk {
  path: string;
  startLine: number;
  endLine: number;
  text: string;
  score: number;
}

export const CHUNK_LINES = 20;
/** Files whose chunks compete: those holding the best-matching views. */
const CANDIDATE_FILES = 40;
const K1 = 1.2;
const B = 0.75;

/** Lower-cased identifier terms with their parts: the same words the index matches. */
export function termsOf(text: string): string[] {
  const out: string[] = [];
  for (const id of identifiers(text)) {
    out.push(id.toLowerCase());
    const parts = splitIdentifier(id);
    if (parts.length > 1) out.push(...parts);
  }
  return out;
}

/**
 * Okapi BM25 of each document for the query terms, over the given documents.
 * @example bm25Scores([['parse', 'file'], ['render']], ['parse']) // [0.47..., 0]
 */
export function bm25Scores(docs: string[][], query: string[]): number[] {
  const n = docs.length;
  const avg = docs.reduce((s, d) => s + d.length, 0) / Math.max(1, n);
  const q = [...new Set(query)];
  const df = new Map(q.map((t) => [t, 0]));
  const tfs = docs.map((d) => {
    const tf = new Map<string, number>();
    for (const t of d) if (df.has(t)) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const t of tf.keys()) df.set(t, df.get(t)! + 1);
    return tf;
  });
  return tfs.map((tf, i) => {
    let s = 0;
    for (const [t, f] of tf) {
      const idf = Math.log(1 + (n - df.get(t)! + 0.5) / (df.get(t)! + 0.5));
      s += (idf * f * (K1 + 1)) / (f + K1 * (1 - B + (B * docs[i].length) / Math.max(1, avg)));
    }
    return s;
  });
}

/**
 * The retrieval side of the `chunk-bm25` baseline: the files holding the
 * best-matching views are cut into fixed 20-line chunks, which BM25 then ranks
 * among themselves (IDF over that pool), best first.
 */
export function chunkCandidates(db: DB, query: string, chunkLines = CHUNK_LINES): ScoredChunk[] {
  const files: string[] = [];
  for (const c of bm25Retriever(db).retrieve(query, 400)) {
    if (!files.includes(c.path)) files.push(c.path);
    if (files.length >= CANDIDATE_FILES) break;
  }
  const textOf = db.prepare('SELECT t.text FROM file_texts t JOIN files f ON f.id = t.file_id WHERE f.path = ?').pluck();
  const chunks: Omit<ScoredChunk, 'score'>[] = [];
  for (const path of files) {
    const lines = ((textOf.get(path) as string | undefined) ?? '').split(/\r?\n/);
    if (lines.at(-1) === '') lines.pop();
    for (let start = 0; start < lines.length; start += chunkLines) {
      const end = Math.min(lines.length, start + chunkLines);
      chunks.push({ path, startLine: start + 1, endLine: end, text: lines.slice(start, end).join('\n') });
    }
  }
  const scores = bm25Scores(chunks.map((c) => termsOf(c.text)), termsOf(query));
  return chunks
    .map((c, i) => ({ ...c, score: scores[i] }))
    .filter((c) => c.score > 0)
    .sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : a.startLine - b.startLine));
}
