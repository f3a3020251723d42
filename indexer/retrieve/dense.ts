/**
 * Dense retrieval: the query's vector against every object's vector of the
 * active model (a brute-force scan of one Float32Array: at 100k vectors of 384
 * dimensions it measures faster than sqlite-vec here, see BENCHMARKS.md). The
 * matrix is read once per index generation, never per request.
 */
import type { Embedder } from '../embed/types.ts';
import { modelKey } from '../embed/types.ts';
import { objectVectors, vectorsStamp } from '../store/embeddings.ts';
import type { DB } from '../store/open.ts';
import { primaryViewReader } from '../store/primary-view.ts';
import { getGeneration } from '../store/write.ts';
import type { Candidate, ObjectKind } from '../types.ts';
import type { Retriever } from './retriever.ts';

interface Matrix {
  generation: number;
  /** The store's vector stamp when read (see `vectorsStamp`). */
  stamp: string | null;
  model: string;
  ids: string[];
  dim: number;
  matrix: Float32Array;
}

const cache = new WeakMap<DB, Matrix>();

function matrixOf(db: DB, model: string): Matrix {
  const generation = getGeneration(db);
  // Vectors are written by the embedding pass without a generation bump: its stamp says when they changed.
  const stamp = vectorsStamp(db);
  const hit = cache.get(db);
  if (hit && hit.generation === generation && hit.stamp === stamp && hit.model === model) return hit;
  const m = { generation, stamp, model, ...objectVectors(db, model) };
  cache.set(db, m);
  return m;
}

/**
 * The k rows of `matrix` with the largest dot product with `q` (vectors are unit length: cosine), best first.
 * @example topK(Float32Array.of(1, 0, 0, 1), 2, Float32Array.of(0, 1), 1) // [{ row: 1, score: 1 }]
 */
export function topK(matrix: Float32Array, dim: number, q: Float32Array, k: number): { row: number; score: number }[] {
  const rows = matrix.length / dim;
  const best: { row: number; score: number }[] = [];
  let floor = -Infinity;
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
    if (best.length < k || s > floor) {
      best.push({ row: r, score: s });
      if (best.length > k) {
        best.sort((a, b) => b.score - a.score || a.row - b.row);
        best.length = k;
        floor = best[k - 1].score;
      } else if (best.length === k) floor = Math.min(...best.map((b) => b.score));
    }
  }
  return best.sort((a, b) => b.score - a.score || a.row - b.row);
}

/** A query embedder: async (a model) or, when it has one, sync (`embedOne`, the repository-trained model). */
export type QueryEmbedder = Embedder & { embedOne?(text: string): Float32Array };

/**
 * @example const r = denseRetriever(db, embedder); await r.prepare!('read a file'); r.retrieve('read a file', 20)
 */
export function denseRetriever(db: DB, embedder: QueryEmbedder): Retriever {
  const model = modelKey(embedder);
  const viewOf = primaryViewReader(db);
  const kindOf = db.prepare('SELECT o.kind, o.qualified_name AS name, f.path FROM objects o JOIN files f ON f.id = o.file_id WHERE o.id = ?');
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
      const q = vectorFor(query);
      if (!q.some((x) => x !== 0)) return []; // no known word: no signal, not a random ranking
      const m = matrixOf(db, model);
      if (m.dim !== q.length) return [];
      const out: Candidate[] = [];
      for (const { row, score } of topK(m.matrix, m.dim, q, k)) {
        const id = m.ids[row];
        const v = viewOf(id);
        const o = kindOf.get(id) as { kind: ObjectKind; name: string; path: string } | undefined;
        if (!v || !o) continue;
        out.push({
          viewId: v.id, objectId: id, fiber: o.path, path: o.path, objectName: o.name, objectKind: o.kind,
          viewKind: v.kind, startLine: v.startLine, endLine: v.endLine, score, reason: `dense (${embedder.id})`,
        });
      }
      return out;
    },
  };
}
