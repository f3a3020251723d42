/**
 * Dense retrieval: the query's vector against every vector of the active
 * model (a brute-force scan of one Float32Array: it measures as fast as
 * sqlite-vec up to 100k vectors, see BENCHMARKS.md). Vectors are read once and
 * then only the newly written ones, never per request.
 */
import type { Embedder } from '../embed/types.ts';
import { modelKey } from '../embed/types.ts';
import { objectsWithHashes, vectorsSeq, vectorsSince } from '../store/embeddings.ts';
import type { DB } from '../store/open.ts';
import { primaryViewReader } from '../store/primary-view.ts';
import type { Candidate, ObjectKind } from '../types.ts';
import type { Retriever } from './retriever.ts';

/**
 * The model's vectors in memory, one row per embedded text (not per object:
 * which objects have a text is looked up for the few best rows of a query).
 * Rows are appended as the embedding pass writes them, so a reader never
 * reloads what it has; rows no object uses any more simply find no object.
 */
interface Matrix {
  model: string;
  seq: number;
  hashes: string[];
  dim: number;
  data: Float32Array;
}

const cache = new WeakMap<DB, Matrix>();

function matrixOf(db: DB, model: string): Matrix {
  let m = cache.get(db);
  // seq -1: nothing read yet. Vectors written before the sequence existed (an index upgraded by migration 004) carry
  // seq 0 with no `vectors_seq` stamp, and must be read too.
  if (!m || m.model !== model) cache.set(db, (m = { model, seq: -1, hashes: [], dim: 0, data: new Float32Array(0) }));
  const seq = vectorsSeq(db);
  if (seq !== m.seq) {
    const add = vectorsSince(db, model, m.seq);
    if (seq < m.seq || (m.dim && add.dim && add.dim !== m.dim)) {
      // The store was reset (vectors dropped, another model): start over.
      cache.delete(db);
      return matrixOf(db, model);
    }
    append(m, add);
    m.seq = seq;
  }
  return m;
}

function append(m: Matrix, add: { hashes: string[]; dim: number; vectors: Buffer[] }): void {
  if (!add.hashes.length) return;
  m.dim ||= add.dim;
  const rows = m.hashes.length + add.hashes.length;
  if (m.data.length < rows * m.dim) {
    // Grow by half again, so appending batch after batch stays linear.
    const grown = new Float32Array(Math.max(rows, Math.ceil(m.hashes.length * 1.5)) * m.dim);
    grown.set(m.data.subarray(0, m.hashes.length * m.dim));
    m.data = grown;
  }
  const bytes = new Uint8Array(m.data.buffer);
  add.vectors.forEach((v, i) => bytes.set(v, (m.hashes.length + i) * m.dim * 4));
  for (const h of add.hashes) m.hashes.push(h);
}

/**
 * The k rows of `matrix` with the largest dot product with `q` (vectors are unit length: cosine), best first.
 * @example topK(Float32Array.of(1, 0, 0, 1), 2, Float32Array.of(0, 1), 1) // [{ row: 1, score: 1 }]
 */
export function topK(matrix: Float32Array, dim: number, q: Float32Array, k: number): { row: number; score: number }[] {
  const rows = matrix.length / dim;
  const n = Math.min(k, rows);
  if (n <= 0) return [];
  // A min-heap of the best n so far: its root is the score to beat.
  const hs = new Float64Array(n);
  const hr = new Int32Array(n);
  let size = 0;
  const worse = (i: number, j: number) => hs[i] < hs[j] || (hs[i] === hs[j] && hr[i] > hr[j]);
  const swap = (i: number, j: number) => {
    const s = hs[i]; hs[i] = hs[j]; hs[j] = s;
    const r = hr[i]; hr[i] = hr[j]; hr[j] = r;
  };
  const tail = dim - (dim % 4);
  for (let r = 0; r < rows; r++) {
    const o = r * dim;
    // Four accumulators: independent additions the CPU can overlap (about twice as fast as one sum).
    let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (let j = 0; j < tail; j += 4) {
      s0 += matrix[o + j] * q[j];
      s1 += matrix[o + j + 1] * q[j + 1];
      s2 += matrix[o + j + 2] * q[j + 2];
      s3 += matrix[o + j + 3] * q[j + 3];
    }
    for (let j = tail; j < dim; j++) s0 += matrix[o + j] * q[j];
    const s = s0 + s1 + s2 + s3;
    if (size < n) {
      hs[size] = s;
      hr[size] = r;
      for (let i = size++; i > 0; ) {
        const p = (i - 1) >> 1;
        if (!worse(i, p)) break;
        swap(i, p);
        i = p;
      }
    } else if (s > hs[0]) {
      hs[0] = s;
      hr[0] = r;
      for (let i = 0; ; ) {
        const l = 2 * i + 1, rr = l + 1;
        let m = i;
        if (l < n && worse(l, m)) m = l;
        if (rr < n && worse(rr, m)) m = rr;
        if (m === i) break;
        swap(i, m);
        i = m;
      }
    }
  }
  const out = Array.from({ length: size }, (_, i) => ({ row: hr[i], score: hs[i] }));
  return out.sort((a, b) => b.score - a.score || a.row - b.row);
}

/**
 * The objects whose vectors of `model` are nearest to `q` (about `rows` of them; texts no object has any more are
 * skipped, objects sharing a text share its score), best first. A zero vector (no known word) finds nothing.
 * @example nearestObjects(db, 'allot/repo-ppmi@03804cda789b', embedder.embedOne('read a file'), 50)[0].path
 */
export function nearestObjects(db: DB, model: string, q: Float32Array, rows: number): { id: string; kind: string; name: string; path: string; score: number }[] {
  if (!q.some((x) => x !== 0)) return [];
  const m = matrixOf(db, model);
  if (m.dim !== q.length) return [];
  const best = topK(m.data.subarray(0, m.hashes.length * m.dim), m.dim, q, rows);
  const scoreOf = new Map(best.map((b) => [m.hashes[b.row], b.score]));
  return objectsWithHashes(db, [...scoreOf.keys()])
    .map((o) => ({ id: o.id, kind: o.kind, name: o.name, path: o.path, score: scoreOf.get(o.hash)! }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
}

/** A query embedder: async (a model) or, when it has one, sync (`embedOne`, the repository-trained model). */
export type QueryEmbedder = Embedder & { embedOne?(text: string): Float32Array };

/**
 * @example const r = denseRetriever(db, embedder); await r.prepare!('read a file'); r.retrieve('read a file', 20)
 */
export function denseRetriever(db: DB, embedder: QueryEmbedder): Retriever {
  const model = modelKey(embedder);
  const viewOf = primaryViewReader(db);
  let prepared: { query: string; vector: Float32Array } | null = null;
  const vectorFor = (query: string): Float32Array => {
    if (prepared?.query === query) return prepared.vector;
    if (embedder.embedOne) return embedder.embedOne(query);
    throw new Error('dense retrieval needs the query embedded first: await retriever.prepare(query)');
  };
  return {
    name: 'dense',
    async prepare(query) {
      if (!embedder.embedOne) prepared = { query, vector: (await embedder.embed([query]))[0] };
    },
    retrieve(query, k) {
      if (k <= 0) return [];
      const out: Candidate[] = [];
      for (const o of nearestObjects(db, model, vectorFor(query), k * 2 + 10)) {
        const v = viewOf(o.id);
        if (!v) continue;
        out.push({
          viewId: v.id, objectId: o.id, fiber: o.path, path: o.path, objectName: o.name, objectKind: o.kind as ObjectKind,
          viewKind: v.kind, startLine: v.startLine, endLine: v.endLine, score: o.score, reason: `dense (${embedder.id})`,
        });
        if (out.length >= k) break;
      }
      return out;
    },
  };
}
