/**
 * The reference graph of a repository in compressed sparse rows: objects are
 * nodes; resolved references (call, import, inheritance) and containment
 * (class -> method, module -> function) are undirected edges, so a definition's
 * neighbourhood holds what it uses, what uses it and what encloses it.
 */
export interface ReferenceGraph {
  ids: string[];
  index: Map<string, number>;
  /** Neighbours of node i are neighbors[offsets[i] .. offsets[i+1]). */
  offsets: Int32Array;
  neighbors: Int32Array;
}

/** Builds the graph from node ids and directed edges (each stored both ways; edges to unknown ids are dropped). */
export function buildGraph(ids: string[], edges: Iterable<[string, string]>): ReferenceGraph {
  const index = new Map(ids.map((id, i) => [id, i]));
  const pairs: number[] = [];
  const degree = new Int32Array(ids.length);
  for (const [a, b] of edges) {
    const i = index.get(a);
    const j = index.get(b);
    if (i === undefined || j === undefined || i === j) continue;
    pairs.push(i, j);
    degree[i]++;
    degree[j]++;
  }
  const offsets = new Int32Array(ids.length + 1);
  for (let i = 0; i < ids.length; i++) offsets[i + 1] = offsets[i] + degree[i];
  const fill = offsets.slice(0, ids.length);
  const neighbors = new Int32Array(offsets[ids.length]);
  for (let k = 0; k < pairs.length; k += 2) {
    const i = pairs[k];
    const j = pairs[k + 1];
    neighbors[fill[i]++] = j;
    neighbors[fill[j]++] = i;
  }
  // Sorted neighbour lists make the graph (and every walk on it) independent of edge order.
  for (let i = 0; i < ids.length; i++) neighbors.subarray(offsets[i], offsets[i + 1]).sort();
  return { ids, index, offsets, neighbors };
}

export interface PageRankOptions {
  /** Teleport probability back to the seeds. */
  alpha?: number;
  /** Residual per unit of degree below which a node is not pushed further. */
  epsilon?: number;
  /** Nodes the walk may reach but never pass through (the query's own file: its future lines are not evidence). */
  blocked?: ReadonlySet<number>;
}

/**
 * Personalized PageRank from weighted seeds by local push (Andersen, Chung and
 * Lang): only the seeds' neighbourhood is touched, so a query costs the same
 * on a small or a huge repository. Deterministic: nodes are pushed in FIFO order
 * from the seeds sorted by index.
 * @returns approximate PageRank mass per node index (nodes never reached are absent).
 */
export function personalizedPageRank(graph: ReferenceGraph, seeds: Map<number, number>, opts: PageRankOptions = {}): Map<number, number> {
  const alpha = opts.alpha ?? 0.15;
  const epsilon = opts.epsilon ?? 1e-3;
  const total = [...seeds.values()].reduce((a, b) => a + b, 0);
  const out = new Map<number, number>();
  if (total <= 0) return out;
  const n = graph.ids.length;
  // Typed arrays, not maps: a query may touch thousands of nodes.
  const rank = new Float64Array(n);
  const residual = new Float64Array(n);
  const queued = new Uint8Array(n);
  const touched: number[] = [];
  const touch = (i: number) => {
    if (residual[i] === 0 && rank[i] === 0) touched.push(i);
  };
  const { offsets, neighbors } = graph;
  const queue: number[] = [];
  for (const i of [...seeds.keys()].sort((a, b) => a - b)) {
    touch(i);
    residual[i] += seeds.get(i)! / total;
    queue.push(i);
    queued[i] = 1;
  }
  for (let head = 0; head < queue.length; head++) {
    const u = queue[head];
    queued[u] = 0;
    const r = residual[u];
    const d = offsets[u + 1] - offsets[u];
    if (d === 0) {
      rank[u] += r;
      residual[u] = 0;
      continue;
    }
    if (r < epsilon * d) continue;
    if (opts.blocked?.has(u)) {
      rank[u] += r;
      residual[u] = 0;
      continue;
    }
    rank[u] += alpha * r;
    residual[u] = 0;
    const share = ((1 - alpha) * r) / d;
    for (let k = offsets[u]; k < offsets[u + 1]; k++) {
      const v = neighbors[k];
      touch(v);
      residual[v] += share;
      if (!queued[v] && residual[v] >= epsilon * (offsets[v + 1] - offsets[v])) {
        queue.push(v);
        queued[v] = 1;
      }
    }
  }
  for (const i of touched) if (rank[i] > 0) out.set(i, rank[i]);
  return out;
}
