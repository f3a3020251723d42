/**
 * The reference graph of a repository: objects are nodes; resolved references
 * (call, import, inheritance) and containment (class -> method, module ->
 * function) are undirected edges, so a definition's neighbourhood holds what it
 * uses, what uses it and what encloses it. Nodes live in slots that are reused
 * after removal, so the graph follows index changes without being rebuilt;
 * neighbour lists are kept sorted by object id, so every walk on the graph is
 * independent of slot numbering and of the order edges arrived in.
 */
export interface ReferenceGraph {
  /** Object id per slot ('' for a free slot). */
  ids: string[];
  index: Map<string, number>;
  /** Neighbour slots of each slot, one entry per edge (parallel edges repeat), sorted by id. */
  adjacency: number[][];
  free: number[];
}

export function emptyGraph(): ReferenceGraph {
  return { ids: [], index: new Map(), adjacency: [], free: [] };
}

/** Builds the graph from node ids and directed edges (each stored both ways; edges to unknown ids are dropped). */
export function buildGraph(ids: string[], edges: Iterable<[string, string]>): ReferenceGraph {
  const g = emptyGraph();
  for (const id of ids) addNode(g, id);
  for (const [a, b] of edges) addEdge(g, a, b);
  return g;
}

export function addNode(g: ReferenceGraph, id: string): void {
  if (g.index.has(id)) return;
  const slot = g.free.pop() ?? g.ids.length;
  g.ids[slot] = id;
  g.adjacency[slot] = [];
  g.index.set(id, slot);
}

/** Removes a node and every edge at it. */
export function removeNode(g: ReferenceGraph, id: string): void {
  const slot = g.index.get(id);
  if (slot === undefined) return;
  for (const v of new Set(g.adjacency[slot])) if (v !== slot) g.adjacency[v] = g.adjacency[v].filter((u) => u !== slot);
  g.adjacency[slot] = [];
  g.ids[slot] = '';
  g.index.delete(id);
  g.free.push(slot);
}

/** Adds one undirected edge; self-loops and edges to unknown ids are dropped. Returns whether it was added. */
export function addEdge(g: ReferenceGraph, a: string, b: string): boolean {
  const i = g.index.get(a);
  const j = g.index.get(b);
  if (i === undefined || j === undefined || i === j) return false;
  insertSorted(g, g.adjacency[i], j);
  insertSorted(g, g.adjacency[j], i);
  return true;
}

function insertSorted(g: ReferenceGraph, list: number[], slot: number): void {
  const id = g.ids[slot];
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (g.ids[list[mid]] <= id) lo = mid + 1;
    else hi = mid;
  }
  list.splice(lo, 0, slot);
}

/** Every edge once, as sorted id pairs, in a canonical order (for comparing two graphs). */
export function graphEdges(g: ReferenceGraph): [string, string][] {
  const out: [string, string][] = [];
  g.adjacency.forEach((list, i) => {
    for (const j of list) if (g.ids[i] < g.ids[j]) out.push([g.ids[i], g.ids[j]]);
  });
  return out.sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0));
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
 * from the seeds sorted by id.
 * @returns approximate PageRank mass per node slot (nodes never reached are absent).
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
  const { adjacency, ids } = graph;
  const queue: number[] = [];
  for (const i of [...seeds.keys()].sort((a, b) => (ids[a] < ids[b] ? -1 : ids[a] > ids[b] ? 1 : 0))) {
    touch(i);
    residual[i] += seeds.get(i)! / total;
    queue.push(i);
    queued[i] = 1;
  }
  for (let head = 0; head < queue.length; head++) {
    const u = queue[head];
    queued[u] = 0;
    const r = residual[u];
    const near = adjacency[u];
    const d = near.length;
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
    for (const v of near) {
      touch(v);
      residual[v] += share;
      if (!queued[v] && residual[v] >= epsilon * adjacency[v].length) {
        queue.push(v);
        queued[v] = 1;
      }
    }
  }
  for (const i of touched) if (rank[i] > 0) out.set(i, rank[i]);
  return out;
}
