/**
 * The methods `allot eval` compares, each a way to turn a query into a context
 * within a token budget: object allocation and its ablations, and the BM25
 * baselines over chunks and whole files. A method prepares once per task
 * (retrieval, shared by every budget) and then renders per budget.
 */
import { packChunks } from '../../allocator/baseline.ts';
import { buildContext, retrievalDepth } from '../../allocator/context.ts';
import { parseAllocateOptions, type AllocateOptionsInput } from '../../allocator/options.ts';
import type { Allocation } from '../../allocator/types.ts';
import { bm25Retriever } from '../../indexer/retrieve/bm25.ts';
import { hybridRetriever } from '../../indexer/retrieve/fusion.ts';
import { loadedQueryLanguages } from '../../indexer/retrieve/query-reading.ts';
import type { Retriever } from '../../indexer/retrieve/retriever.ts';
import { createStructuralRetriever } from '../../indexer/retrieve/structural.ts';
import { denseRetriever, type QueryEmbedder } from '../../indexer/retrieve/dense.ts';
import { asksOf, hybridOf } from '../../indexer/retrieve/select.ts';
import { chunkCandidates } from '../../indexer/retrieve/chunks.ts';
import { literalRetriever } from '../../indexer/retrieve/literal-evidence.ts';
import { storeObjectSource } from '../../indexer/store/object-source.ts';
import { getObjects } from '../../indexer/store/read.ts';
import type { DB } from '../../indexer/store/open.ts';
import { getTokenizer, type Tokenizer } from '../../indexer/tokenizer.ts';
import { excludingRetriever, type Exclusion, type SharedRetriever } from './exclusion.ts';
import { storeFileRanker, type FileRanker } from './file-bm25.ts';

/** One block of a context, whatever made it. Lines are 1-based and inclusive. */
export interface EvalBlock {
  path: string;
  /** `core` / `companion` (allocation), `chunk`, `file`, or what a selector says. */
  role: string;
  /** Lines shown (both 0 when only a descriptor is shown). */
  startLine: number;
  endLine: number;
  /** The unit that was allocated (an object, a chunk, a file); defaults to the shown lines. */
  unit?: { startLine: number; endLine: number };
  tokens: number;
  text: string;
}

export interface EvalContext {
  blocks: EvalBlock[];
  totalTokens: number;
  /** The context exactly as the model would get it. */
  text: string;
}

/** What a method may use: the repository's index, opened for the run. */
export interface MethodEnv {
  db: DB;
  tokenizer: Tokenizer;
  /** The repository's folder (the work tree), for methods that read files from disk; null when unknown. */
  root: string | null;
  /** The whole-file BM25 ranker, built on first use. */
  files(): FileRanker;
  /**
   * BM25 view retrieval for one task, shared by the methods that retrieve views the same way (memoised; a hit is
   * charged its original time, see `SharedRetriever`).
   */
  views(query: string, exclusion: Exclusion | null): SharedRetriever;
  /** Structural (or hybrid) retrieval for one task, memoised like `views`; needs `loadQueryLanguages()` awaited first. */
  structural(query: string, exclusion: Exclusion | null, kind: 'structural' | 'hybrid'): SharedRetriever;
  /** Retrieval with the index's dense vectors (alone, fused with BM25, or with structural and BM25), memoised like `views`. */
  dense(query: string, exclusion: Exclusion | null, kind: DenseKind): SharedRetriever;
  /** Milliseconds of retrieval every memoised retriever served from its memo since the last call (then reset). */
  charged(): number;
}

export type DenseKind = 'dense' | 'bm25-dense' | 'hybrid-dense';

/** A method's work for one query: `render(budget)` after one shared preparation. */
export interface Prepared {
  render(budget: number): EvalContext;
  /**
   * What retrieval put before the budget decides at a budget: the candidate units (objects of the retrieved views,
   * chunks, files) with their line spans, so a run can tell retrieval misses from allocation and rendering losses.
   */
  retrieved(budget: number): { path: string; startLine: number; endLine: number }[];
}

export interface Method {
  name: string;
  description: string;
  /** The method retrieves with dense vectors: the harness embeds the index with the repository-trained model first. */
  dense?: boolean;
  prepare(env: MethodEnv, query: string, exclusion: Exclusion | null): Prepared;
}

/**
 * @param embedder embeds queries for the dense methods (the repository-trained model is synchronous); null when
 *   the index has no vectors, and then the dense methods fail with a message.
 */
export function methodEnv(db: DB, tokenizer: Tokenizer = getTokenizer('cl100k_base'), root: string | null = null, embedder: QueryEmbedder | null = null): MethodEnv {
  let ranker: FileRanker | undefined;
  let shared: { key: string; retriever: SharedRetriever } | undefined;
  const structural = new Map<string, { key: string; retriever: SharedRetriever }>();
  const own = (exclusion: Exclusion | null): Retriever => createStructuralRetriever(db, loadedQueryLanguages(), { path: exclusion?.path, line: exclusion?.line });
  return {
    db,
    tokenizer,
    root,
    files: () => (ranker ??= storeFileRanker(db)),
    views(query, exclusion) {
      const key = JSON.stringify([query, exclusion]);
      if (shared?.key !== key) shared = { key, retriever: excludingRetriever(bm25Retriever(db), exclusion) };
      return shared.retriever;
    },
    structural(query, exclusion, kind) {
      const key = JSON.stringify([query, exclusion]);
      const hit = structural.get(kind);
      if (hit?.key === key) return hit.retriever;
      // The task's file is the query's own: relative imports resolve from it, and the walk never passes through it.
      const mine = own(exclusion);
      // `hybrid` is `--retriever hybrid` on an index without vectors, exactly.
      const inner = kind === 'structural' ? mine : hybridOf(mine, bm25Retriever(db), null, { codeFile: exclusion?.path, asks: asksOf(db), literals: literalRetriever(db) });
      const retriever = excludingRetriever(inner, exclusion);
      structural.set(kind, { key, retriever });
      return retriever;
    },
    charged() {
      let ms = shared?.retriever.charged() ?? 0;
      for (const s of structural.values()) ms += s.retriever.charged();
      return ms;
    },
    dense(query, exclusion, kind) {
      const key = JSON.stringify([query, exclusion]);
      const hit = structural.get(kind);
      if (hit?.key === key) return hit.retriever;
      if (!embedder?.embedOne) throw new Error('the dense methods need the index embedded with the repository-trained model');
      const dense = denseRetriever(db, embedder);
      const inner =
        kind === 'dense' ? dense
        : kind === 'bm25-dense' ? hybridRetriever([{ retriever: bm25Retriever(db), weight: 1 }, { retriever: dense, weight: 1 }])
        // `--retriever hybrid` on an index with vectors, exactly (its dense part answers prose queries only).
        : hybridOf(own(exclusion), bm25Retriever(db), dense, { codeFile: exclusion?.path, asks: asksOf(db), literals: literalRetriever(db) });
      const retriever = excludingRetriever(inner, exclusion);
      structural.set(kind, { key, retriever });
      return retriever;
    },
  };
}

/** A prepared method whose every context comes with its latency. */
export interface Timed {
  /** The context at a budget and its milliseconds: preparation, rendering, and its retrieval even when memoised. */
  render(budget: number): { ctx: EvalContext; ms: number };
  /** `Prepared.retrieved`, after `render`: the retrieval it repeats is memoised and charged to no latency. */
  retrieved(budget: number): { path: string; startLine: number; endLine: number }[];
}

/**
 * Prepares a method for one query with honest latencies: a memoised retrieval is charged what it cost (see
 * `SharedRetriever`), so every budget's latency includes its retrieval, whichever method or budget ran it first.
 */
export function timed(env: MethodEnv, m: Method, query: string, exclusion: Exclusion | null): Timed {
  env.charged();
  const t0 = performance.now();
  const prepared = m.prepare(env, query, exclusion);
  const prepMs = performance.now() - t0 + env.charged();
  return {
    render(budget) {
      const t1 = performance.now();
      const ctx = prepared.render(budget);
      return { ctx, ms: prepMs + (performance.now() - t1) + env.charged() };
    },
    retrieved(budget) {
      const units = prepared.retrieved(budget);
      env.charged();
      return units;
    },
  };
}

function fromAllocation(a: Allocation): EvalContext {
  return {
    totalTokens: a.totalTokens,
    text: a.text,
    blocks: a.blocks.map((b) => ({
      path: b.path, role: b.role, startLine: b.shownStartLine, endLine: b.shownEndLine,
      unit: { startLine: b.startLine, endLine: b.endLine }, tokens: b.tokens, text: b.text,
    })),
  };
}

function allocation(name: string, description: string, options: AllocateOptionsInput, retrieval: 'bm25' | 'structural' | 'hybrid' | DenseKind = 'bm25'): Method {
  const dense = retrieval === 'dense' || retrieval === 'bm25-dense' || retrieval === 'hybrid-dense';
  return {
    name,
    description,
    ...(dense ? { dense: true } : {}),
    prepare(env, query, exclusion) {
      const retriever =
        retrieval === 'bm25' ? env.views(query, exclusion)
        : retrieval === 'structural' || retrieval === 'hybrid' ? env.structural(query, exclusion, retrieval)
        : env.dense(query, exclusion, retrieval);
      const source = storeObjectSource(env.db);
      // Retrieval is memoised per depth (see `excludingRetriever`): budgets with the same depth share it.
      return {
        retrieved(budget) {
          const candidates = retriever.retrieve(query, retrievalDepth(parseAllocateOptions({ ...options, budget })));
          const objects = getObjects(env.db, [...new Set(candidates.map((c) => c.objectId))]);
          return [...objects.values()].map((o) => ({ path: o.path, startLine: o.startLine, endLine: o.endLine }));
        },
        render: (budget) => fromAllocation(buildContext(query, retriever, source, { ...options, budget }, env.tokenizer)),
      };
    },
  };
}

/** Packs ranked line ranges verbatim (the baselines' shared rule: rank order, the last one cut at the budget). */
function packed(chunks: { path: string; startLine: number; endLine: number; text: string; score: number }[], role: string, budget: number, tok: Tokenizer): EvalContext {
  const p = packChunks(chunks, budget, tok);
  return {
    totalTokens: p.totalTokens,
    text: p.text,
    blocks: p.chunks.map((c) => ({
      path: c.path, role, startLine: c.shownStartLine, endLine: c.shownEndLine,
      unit: { startLine: c.startLine, endLine: c.endLine }, tokens: c.tokens, text: c.text,
    })),
  };
}

/** Files considered by file-bm25: far more than any budget holds. */
const FILE_CANDIDATES = 64;

export const METHODS: readonly Method[] = [
  allocation('allocation', 'object allocation (VITAL-RAG), default options (slots 4+1)', {}),
  allocation('no-quotient', 'ablation: views compete on their own (fragment-level allocation)', { noQuotient: true }),
  allocation('no-render', 'ablation: objects cut at the budget instead of allocated by the formula', { noRender: true }),
  allocation('slots-5+0', 'allocation with 5 core objects and no companion', { slots: '5+0' }),
  allocation('slots-4+1', 'allocation with 4 core objects and 1 companion (the default split)', { slots: '4+1' }),
  allocation('slots-3+2', 'allocation with 3 core objects and 2 companions', { slots: '3+2' }),
  allocation('structural', 'allocation over structural retrieval (the query read as code, resolved through the index, PageRank)', {}, 'structural'),
  allocation('hybrid', 'allocation over structural and BM25 retrieval fused by reciprocal rank', {}, 'hybrid'),
  allocation('fill-all', 'allocation over `hybrid` retrieval with no relevance stop for the fill (`--fill-relevance 0`): the fill spends the whole budget', { fillRelevance: 0 }, 'hybrid'),
  allocation('no-fill', 'the paper\'s strict allocation over `hybrid` retrieval: the K slots only (`--no-fill`)', { noFill: true }, 'hybrid'),
  allocation('dense', 'allocation over dense retrieval with the repository-trained embedder', {}, 'dense'),
  allocation('bm25-dense', 'allocation over BM25 and dense (repository-trained) retrieval fused by reciprocal rank', {}, 'bm25-dense'),
  allocation('hybrid-dense', 'allocation over `--retriever hybrid` on an index with vectors: structural and BM25, plus dense (repository-trained) for prose queries', {}, 'hybrid-dense'),
  {
    name: 'chunk-bm25',
    description: 'baseline: 20-line chunks ranked by BM25, packed verbatim in rank order',
    prepare(env, query, exclusion) {
      const chunks = chunkCandidates(env.db, query).filter((c) => !exclusion || c.path !== exclusion.path);
      return { retrieved: () => chunks, render: (budget) => packed(chunks, 'chunk', budget, env.tokenizer) };
    },
  },
  {
    name: 'file-bm25',
    description: 'baseline: whole files ranked by BM25, packed in rank order (the last one cut at the budget)',
    prepare(env, query, exclusion) {
      const ranker = env.files();
      const files = ranker.rank(query, FILE_CANDIDATES, exclusion ? (p) => p === exclusion.path : undefined).map((f) => {
        const lines = ranker.text(f.path).split('\n');
        if (lines.length > 1 && lines.at(-1) === '') lines.pop();
        return { path: f.path, startLine: 1, endLine: Math.max(1, lines.length), text: lines.join('\n'), score: f.score };
      });
      return { retrieved: () => files, render: (budget) => packed(files, 'file', budget, env.tokenizer) };
    },
  },
];

/**
 * The default (`hybrid-dense`), and `hybrid`, with stricter fill relevance stops: the token curve of issue 16
 * (`allot eval prose` only; `--fill-relevance S` on `allot context`).
 */
export const STOP_METHODS: readonly Method[] = [
  ...[0.6, 0.8, 1].map((share) =>
    allocation(`stop-${share}`, `the default (\`hybrid-dense\`) with the fill's relevance stop at ${share} (\`--fill-relevance ${share}\`)`, { fillRelevance: share }, 'hybrid-dense')),
  // The same curve on an index without vectors (`hybrid`): what the stop trades when no embedding is trained.
  ...[0.6, 0.8, 1].map((share) =>
    allocation(`hybrid-stop-${share}`, `\`hybrid\` with the fill's relevance stop at ${share} (\`--fill-relevance ${share}\`)`, { fillRelevance: share }, 'hybrid')),
];

/** Methods named but not available yet, with the reason. */
export const UNAVAILABLE: Readonly<Record<string, string>> = {};

/** The methods named in `--methods a,b,c` (all available ones when absent), in the order given. */
export function pickMethods(spec: string | undefined, available: readonly Method[] = METHODS): Method[] {
  if (!spec) return [...available];
  const out: Method[] = [];
  for (const name of spec.split(',').map((s) => s.trim()).filter(Boolean)) {
    const m = available.find((x) => x.name === name);
    if (!m) {
      if (UNAVAILABLE[name]) throw new Error(`method "${name}" is not available: ${UNAVAILABLE[name]}`);
      throw new Error(`unknown method "${name}" (known: ${available.map((x) => x.name).join(', ')})`);
    }
    if (!out.includes(m)) out.push(m);
  }
  if (!out.length) throw new Error('--methods names no method');
  return out;
}
