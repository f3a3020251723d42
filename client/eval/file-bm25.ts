/**
 * The retrieval side of the `file-bm25` baseline: whole files ranked by Okapi
 * BM25 over the same code-aware terms the index matches (identifiers whole and
 * split into parts), with IDF over every indexed file of the repository. Built
 * once per repository as an inverted index, so a query costs its postings.
 */
import { termsOf } from '../../indexer/retrieve/chunks.ts';
import type { DB } from '../../indexer/store/open.ts';

const K1 = 1.2;
const B = 0.75;

export interface RankedFile {
  path: string;
  score: number;
}

export interface FileRanker {
  /** Files with a positive score, best first (ties by path); at most `limit`. */
  rank(query: string, limit: number, exclude?: (path: string) => boolean): RankedFile[];
  /** The indexed text of a file. */
  text(path: string): string;
  readonly files: number;
}

/** Builds the ranker over `(path, text)` documents; the same scores as `bm25Scores` over all of them. */
export function fileRanker(docs: Iterable<{ path: string; text: string }>): FileRanker {
  const paths: string[] = [];
  const texts: string[] = [];
  const lengths: number[] = [];
  const postings = new Map<string, { doc: number; tf: number }[]>();
  for (const { path, text } of docs) {
    const doc = paths.length;
    paths.push(path);
    texts.push(text);
    const terms = termsOf(text);
    lengths.push(terms.length);
    const tf = new Map<string, number>();
    for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const [t, f] of tf) {
      const list = postings.get(t);
      if (list) list.push({ doc, tf: f });
      else postings.set(t, [{ doc, tf: f }]);
    }
  }
  const n = paths.length;
  const avg = lengths.reduce((s, l) => s + l, 0) / Math.max(1, n);
  const byPath = new Map(paths.map((p, i) => [p, i]));
  return {
    files: n,
    text: (p) => texts[byPath.get(p) ?? -1] ?? '',
    rank(query, limit, exclude) {
      const scores = new Map<number, number>();
      for (const t of new Set(termsOf(query))) {
        const list = postings.get(t);
        if (!list) continue;
        const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
        for (const { doc, tf } of list) {
          const s = (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * lengths[doc]) / Math.max(1, avg)));
          scores.set(doc, (scores.get(doc) ?? 0) + s);
        }
      }
      return [...scores]
        .filter(([doc, s]) => s > 0 && !exclude?.(paths[doc]))
        .map(([doc, score]) => ({ path: paths[doc], score }))
        .sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
        .slice(0, limit);
    },
  };
}

/** The ranker over every file of an index. */
export function storeFileRanker(db: DB): FileRanker {
  const rows = db.prepare('SELECT f.path, t.text FROM files f JOIN file_texts t ON t.file_id = f.id ORDER BY f.path').iterate() as Iterable<{ path: string; text: string }>;
  return fileRanker(rows);
}
