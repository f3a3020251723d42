/**
 * The daemon's query answers, on the main thread: repeated `search` and
 * `context` queries come from memory at once, an identical query already being
 * computed for the same index state is waited for rather than computed again,
 * and everything else runs on a query thread. So the main thread never
 * computes an answer, and a query that hits memory never waits for one that
 * does not.
 *
 * A remembered answer is always the one the query would compute now: it is
 * kept only if the index did not change while it was computed (and the
 * structure had caught up with it), and all are dropped when the index
 * generation or its vectors change.
 */
import type { Allocation } from '../allocator/types.ts';
import { DEFAULT_RETRIEVER } from '../indexer/retrieve/names.ts';
import type { SearchHit } from '../indexer/retrieve/search.ts';
import type { RetrievalOptions } from '../indexer/retrieve/select.ts';
import { vectorsStamp } from '../indexer/store/embeddings.ts';
import type { DB } from '../indexer/store/open.ts';
import { getGeneration } from '../indexer/store/write.ts';
import { answerKey, completenessOf, type AnswerState, type Completeness, type QueryAnswers } from './queries.ts';
import { continueAnswer } from './continue.ts';
import type { Answered, QueryPool } from './query-pool.ts';
import { createResultCache } from './result-cache.ts';

/** Retrievers whose answers do not read the structure (so a structure still catching up does not matter). */
const WITHOUT_STRUCTURE = new Set(['bm25', 'dense']);

const stateKey = (s: Pick<AnswerState, 'generation' | 'vectors'>) => `${s.generation}:${s.vectors ?? ''}`;

/** True when an answer is exactly what the query computes in index state `now`. */
export function answersState(a: Answered<unknown>, now: string, retriever: string): boolean {
  const { before, after } = a;
  const settled = before.generation === after.generation && before.vectors === after.vectors;
  return settled && stateKey(after) === now && (after.structure === after.generation || WITHOUT_STRUCTURE.has(retriever));
}

export interface PoolAnswersOptions {
  /** The repository served (Continue's notes name it). */
  repo?: string;
  /** Whether the index is complete: the daemon's state, on this thread (default: the index's flag, no progress). */
  completeness?: () => Completeness;
  maxAnswers?: number;
}

export function poolAnswers(pool: QueryPool, db: DB, opts: PoolAnswersOptions = {}): QueryAnswers {
  const remembered = createResultCache<SearchHit[] | Allocation>(opts.maxAnswers ?? 256);
  const completeness = opts.completeness ?? completenessOf(db);
  const inFlight = new Map<string, { state: string; answer: Promise<SearchHit[] | Allocation> }>();
  const now = () => stateKey({ generation: getGeneration(db), vectors: vectorsStamp(db) });

  const shared = <T extends SearchHit[] | Allocation>(key: string, retrieval: RetrievalOptions, compute: () => Promise<Answered<T>>): Promise<T> => {
    const state = now();
    const hit = remembered.get(state, key);
    if (hit) return Promise.resolve(hit as T);
    const running = inFlight.get(key);
    if (running?.state === state) return running.answer as Promise<T>;
    const answer = compute().then((a) => {
      const current = now();
      if (answersState(a, current, retrieval.retriever ?? DEFAULT_RETRIEVER)) remembered.set(current, key, a.value);
      return a.value;
    });
    const entry = { state, answer };
    inFlight.set(key, entry);
    const done = () => {
      if (inFlight.get(key) === entry) inFlight.delete(key);
    };
    answer.then(done, done);
    return answer;
  };
  const value = async <T>(a: Promise<Answered<T>>) => (await a).value;

  const answers: QueryAnswers = {
    search: (query, k, r = {}) =>
      shared(answerKey('search', query, k, r), r, () => pool.call('search', [query, k, r])),
    context(query, options, r = {}, session) {
      // A session's answers depend on what it was sent: never shared, and always on the session's own thread.
      if (session !== undefined) return value(pool.call('context', [query, options, r, session], { session }));
      // To the thread that answered it before: it keeps answers across edits while they cannot change (kept-answers.ts).
      const key = answerKey('context', query, options, r);
      return shared(key, r, () => pool.call('context', [query, options, r], { affinity: key }));
    },
    inventory: (issue, tokenizer) => value(pool.call('inventory', [issue, tokenizer])),
    selectFiles: (issue, options, session) => value(pool.call('selectFiles', [issue, options, session], { session })),
    findObjects: (p, name) => value(pool.call('findObjects', [p, name])),
    arbitrate: (d, a, language, at) => value(pool.call('arbitrate', [d, a, language, at])),
    object: (id) => value(pool.call('object', [id])),
    file: (rel) => value(pool.call('file', [rel])),
    hasFiles: () => value(pool.call('hasFiles', [])),
    follow: () => pool.broadcast('follow'),
    completeness,
    findSymbol: (q) => value(pool.call('findSymbol', [q])),
    findReferences: (q) => value(pool.call('findReferences', [q])),
    outline: (p) => value(pool.call('outline', [p])),
    readFile: (q) => value(pool.call('readFile', [q])),
    // Composed here: the completeness is this thread's, the context query goes to a thread (or memory) as any other.
    continueItems: (req) =>
      continueAnswer(req, { repo: opts.repo ?? '', completeness: completeness(), context: async (q, o, r, session) => answers.context(q, o, r, session) }),
  };
  return answers;
}
