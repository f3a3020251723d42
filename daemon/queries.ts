/**
 * Queries on the daemon's read connection. These are the very functions the
 * CLI runs in-process (`search()`, `buildContext()`), so the output is the
 * same on both paths; the daemon adds no ranking or budget logic of its own.
 */
import fs from 'node:fs';
import path from 'node:path';
import { shownObjects, withoutShown } from '../allocator/already-shown.ts';
import { contentHash } from '../indexer/extract/extract-file.ts';
import { buildContext, retrievalDepth } from '../allocator/context.ts';
import { parseAllocateOptions } from '../allocator/options.ts';
import type { ObjectSource } from '../allocator/types.ts';
import type { Retriever } from '../indexer/retrieve/retriever.ts';
import { createKeptAnswers, readCandidates, readingSource, type KeptAnswers } from './kept-answers.ts';
import { inventory as pathInventory, selectFiles, type SelectFilesOptions } from '../allocator/files/select.ts';
import type { FileSelection } from '../allocator/files/types.ts';
import type { Inventory } from '../allocator/files/inventory.ts';
import type { TokenizerName } from '../indexer/tokenizer.ts';
import { storeFileSource } from '../indexer/store/file-source.ts';
import { getGeneration } from '../indexer/store/write.ts';
import type { CodeObject } from '../indexer/types.ts';
import { createSessions } from './sessions.ts';
import { createResultCache } from './result-cache.ts';
import { vectorsStamp } from '../indexer/store/embeddings.ts';
import { structureGeneration, structureOf } from '../indexer/retrieve/structure-cache.ts';
import type { AllocateOptions } from '../allocator/options.ts';
import type { Allocation } from '../allocator/types.ts';
import { arbitrate } from '../allocator/arbitrate/gate.ts';
import type { Arbitration, ArbitrateLanguage } from '../allocator/arbitrate/types.ts';
import { search, type SearchHit } from '../indexer/retrieve/search.ts';
import { storeArbitrateIndex } from '../indexer/store/arbitrate-source.ts';
import { RetrievalError, retrieverFor, type RetrievalOptions } from '../indexer/retrieve/select.ts';
import { activeEmbedder } from '../indexer/embed/active.ts';
import { modelKey } from '../indexer/embed/types.ts';
import type { QueryEmbedder } from '../indexer/retrieve/dense.ts';
import { followingMemo, storeObjectSource } from '../indexer/store/object-source.ts';
import type { DB } from '../indexer/store/open.ts';
import { fiberObjects, fileText, getObjects, indexedFileInfo, objectReferences, objectViews } from './store-reads.ts';
import type { BuildProgress, ContextAnswer, FileResponse, ObjectResponse, OutlineAnswer, ReadFileAnswer, ReferencesAnswer } from './types.ts';
import { budgetShortfall } from '../allocator/shortfall.ts';
import { getTokenizer } from '../indexer/tokenizer.ts';
import { findSymbols, type SymbolAnswer, type SymbolQuery } from '../indexer/retrieve/symbols.ts';
import { referencesTo, type ReferenceFilter } from '../indexer/store/references.ts';
import { fileOutline } from '../indexer/store/outline.ts';
import { linesWithin } from '../indexer/store/file-lines.ts';
import { fullBuildDone } from '../indexer/store/full-build.ts';
import { MAX_REFERENCE_TARGETS } from './symbol-requests.ts';
import type { ContinueItem, ContinueRequestParsed } from './continue.ts';

import { QueryError } from './query-error.ts';

export { QueryError };

/** Whether the index is complete (a whole-repository run has finished on it), and how far it is when not. */
export type Completeness = { complete: true } | { complete: false; progress: BuildProgress };

/**
 * Whether the index of `db` is complete, reading the flag until it is set (it is never cleared), with the progress
 * `buildProgress` reports while it is not.
 */
export function completenessOf(db: DB, buildProgress?: () => BuildProgress | null): () => Completeness {
  let complete = false;
  return () => {
    complete ||= fullBuildDone(db);
    if (complete) return { complete: true };
    return { complete: false, progress: buildProgress?.() ?? { phase: 'starting', done: 0, total: 0 } };
  };
}

export interface QueryEngine {
  search(query: string, k: number, retrieval?: RetrievalOptions): Promise<SearchHit[]>;
  /**
   * Object allocation. With a `session` id, objects the session was already sent whole and unchanged get no
   * budget: they are listed in `alreadyShown` instead.
   */
  context(query: string, options: AllocateOptions, retrieval?: RetrievalOptions, session?: string): Promise<ContextAnswer>;
  /** The path inventory for an issue (`allot inventory`). */
  inventory(issue: string, tokenizer?: TokenizerName): Inventory;
  /** Exact whole files for an issue (`allot files`); with a `session`, files it already has unchanged are named, not shown. */
  selectFiles(issue: string, options: SelectFilesOptions, session?: string): Promise<FileSelection>;
  /** Objects of an indexed file named `name` (their name or qualified name), outermost first. */
  findObjects(path: string, name: string): CodeObject[];
  /** Chooses between two candidate programs with typed witnesses from the index (`allot arbitrate`). */
  arbitrate(defaultText: string, alternativeText: string, language: ArbitrateLanguage, at?: { path: string; symbol?: string }): Promise<Arbitration>;
  object(id: string): ObjectResponse | null;
  /** The indexed text of a file; `forbidden` when the path leaves the repository through a symlink. */
  file(relPath: string): FileResponse | 'forbidden' | null;
  /** Whether the index holds any file yet. */
  hasFiles(): boolean;
  /** Brings the structure structural queries read up to date with the index now, so the next query does not have to. */
  follow(): void;
  /** Whether a whole-repository run has finished on the index; until then answers cover part of the repository. */
  completeness(): Completeness;
  /** `find_symbol`: objects by name or qualified name (exact, then prefix, then identifier parts). */
  findSymbol(q: SymbolQuery): SymbolAnswer;
  /** `find_references`: the resolved uses of an object (by id, or by name and optionally its file). */
  findReferences(q: { id?: string; name?: string; path?: string; kinds?: ReferenceFilter[]; limit: number }): ReferencesAnswer;
  /** `file_outline`: a file's objects as a tree. */
  outline(path: string): OutlineAnswer;
  /** `read_file`: lines of an indexed file, verbatim, within a token budget. */
  readFile(q: { path: string; startLine?: number; endLine?: number; budget: number; tokenizer: TokenizerName }): ReadFileAnswer;
}

/** The engine's methods answered now or later (by query threads in front of it), and what is composed from them. */
export type QueryAnswers = {
  [K in keyof QueryEngine]: (...args: Parameters<QueryEngine[K]>) => ReturnType<QueryEngine[K]> | Promise<Awaited<ReturnType<QueryEngine[K]>>>;
} & {
  /** `POST /v1/continue`: an allocation as Continue's context items, after notes on an incomplete index or a small budget. */
  continueItems(req: ContinueRequestParsed): Promise<ContinueItem[]>;
};

/** What an answer depends on: the index generation, the generation the structure has caught up to, the vectors. */
export interface AnswerState {
  generation: number;
  /** -1 before the structure is built or while it is rebuilt in the background. */
  structure: number;
  vectors: string | null;
}

export function answerState(db: DB): AnswerState {
  return { generation: getGeneration(db), structure: structureGeneration(db), vectors: vectorsStamp(db) };
}

/** The key of a remembered answer: the request as the engine reads it. */
export function answerKey(kind: 'search' | 'context', query: string, shape: unknown, r: RetrievalOptions): string {
  return JSON.stringify([kind, query, shape, r.retriever ?? null, r.path ?? null, r.rrfK ?? null, r.line ?? null]);
}

export interface QueryEngineOptions {
  /** Keep answers to repeated queries until the index changes (default true; query threads leave it to the main thread). */
  answerCache?: boolean;
  /** Context answers kept across index generations while what they read is unchanged (default: a fresh memory of `KEPT_TOKENS`). */
  keptAnswers?: KeptAnswers<ContextAnswer>;
  /** How far the running first build is (an in-process one's); null when nothing is running. */
  buildProgress?: () => BuildProgress | null;
}

export function createQueryEngine(db: DB, repo: string, opts: QueryEngineOptions = {}): QueryEngine {
  const anyFile = db.prepare('SELECT EXISTS (SELECT 1 FROM files) AS n').pluck();
  const completeness = completenessOf(db, opts.buildProgress);
  /** The file a query comes from must be one of the repository's: indexed, or a regular file inside it. */
  const checkPath = (rel: string | undefined) => {
    if (rel === undefined || indexedFileInfo(db, rel)) return;
    let file = false;
    try {
      file = fs.lstatSync(path.join(repo, rel)).isFile() && !escapesRepo(repo, rel);
    } catch {
      /* absent */
    }
    if (!file) throw new QueryError('invalid-request', `path: ${rel} is not a file of the repository ${repo} (give a repository-relative path of an existing file)`);
  };
  /** An indexed file's row, or the reason it cannot be read. */
  const indexed = (rel: string) => {
    const info = indexedFileInfo(db, rel);
    if (!info) {
      const onDisk = fs.existsSync(path.join(repo, rel));
      throw new QueryError('not-found', `${rel} is not an indexed file of ${repo}${onDisk ? ' (it exists, but is not indexed: ignored, binary, too large, or not indexed yet)' : ' (no such file)'}`);
    }
    if (escapesRepo(repo, rel)) throw new QueryError('forbidden-path', `${rel} leads outside the repository`);
    return info;
  };
  const withWarnings = (allocation: Allocation, source: ObjectSource): ContextAnswer => {
    const warnings = budgetShortfall(allocation, source, getTokenizer(allocation.tokenizer));
    return warnings.length ? { ...allocation, warnings } : allocation;
  };
  const sessions = createSessions();
  const kept = opts.keptAnswers ?? createKeptAnswers<ContextAnswer>(db);
  // File texts and objects remembered across queries while the index leaves their files unchanged.
  const sourceMemo = followingMemo(db);
  // The file source builds term statistics on first use: keep one per index generation.
  let files: { key: string; source: ReturnType<typeof storeFileSource> } | null = null;
  const fileSource = (dense?: QueryEmbedder) => {
    const key = `${getGeneration(db)}:${dense ? modelKey(dense) : ''}`;
    if (files?.key !== key) files = { key, source: storeFileSource(db, repo, { dense }) };
    return files.source;
  };
  // Repeated queries on an unchanged index are answered from memory (sessions never are: they change what is sent).
  // Query threads answer for the main thread, which remembers answers itself: they skip the key and the state reads.
  const caching = opts.answerCache !== false;
  const answers = createResultCache<SearchHit[] | ContextAnswer>(caching ? 256 : 0);
  const indexState = () => {
    const s = answerState(db);
    return `${s.generation}:${s.structure}:${s.vectors ?? ''}`;
  };
  const engine: QueryEngine = {
    async search(query, k, r = {}) {
      checkPath(r.path);
      const remembered = caching ? { state: indexState(), key: answerKey('search', query, k, r) } : null;
      const hit = remembered && answers.get(remembered.state, remembered.key);
      if (hit) return hit as SearchHit[];
      const retriever = await retrieverFor(db, r.retriever, { path: r.path, line: r.line, rrfK: r.rrfK });
      await retriever.prepare?.(query);
      const hits = search(db, query, k, retriever);
      if (remembered) answers.set(remembered.state, remembered.key, hits);
      return hits;
    },
    // An object source per query, over what earlier queries read of files no batch has changed since.
    async context(query, options, r = {}, session) {
      checkPath(r.path);
      const key = answerKey('context', query, options, r);
      const remembered = caching && session === undefined ? { state: indexState(), key } : null;
      const hit = remembered && answers.get(remembered.state, remembered.key);
      if (hit) return hit as ContextAnswer;
      const generation = getGeneration(db);
      const source = storeObjectSource(db, sourceMemo());
      const retriever = await retrieverFor(db, r.retriever, { path: r.path, line: r.line, rrfK: r.rrfK });
      await retriever.prepare?.(query);
      if (session === undefined) {
        // Retrieved first: an answer kept from an earlier generation is reused when these candidates are its own and
        // nothing it read changed since (`kept-answers.ts`).
        const parsed = parseAllocateOptions(options);
        const depth = retrievalDepth(parsed);
        const candidates = retriever.retrieve(query, depth);
        const digest = readCandidates(candidates, parsed.fillRelevance);
        const settled = getGeneration(db) === generation;
        const recalled = settled ? kept.recall(key, digest, generation) : undefined;
        if (recalled) {
          if (remembered) answers.set(remembered.state, remembered.key, recalled);
          return recalled;
        }
        const reading = readingSource(source);
        const given: Retriever = { name: retriever.name, retrieve: (q, k) => (q === query && k === depth ? candidates : retriever.retrieve(q, k)) };
        const allocation = withWarnings(buildContext(query, given, reading, options), reading);
        kept.stats.allocated++;
        if (reading.complete && getGeneration(db) === generation) kept.keep(key, { candidates: digest, generation, paths: reading.paths, answer: allocation, tokens: allocation.totalTokens });
        if (remembered) answers.set(remembered.state, remembered.key, allocation);
        return allocation;
      }
      const memory = sessions.get(session);
      const filtered = withoutShown(retriever, memory.objects, source, options.slots.core + options.slots.companion);
      const allocation = withWarnings(buildContext(query, filtered.retriever, source, options), source);
      for (const [id, digest] of shownObjects(allocation, source)) memory.objects.set(id, digest);
      return { ...allocation, alreadyShown: filtered.alreadyShown() };
    },
    inventory: (issue, tokenizer) => pathInventory(issue, fileSource(), { tokenizer }),
    async selectFiles(issue, options, session) {
      const dense = !options.retriever || options.retriever === 'bm25' || options.baseline ? null : await activeEmbedder(db);
      if (options.retriever === 'dense' && !dense?.on) throw new RetrievalError(dense?.on === false ? dense.reason : 'dense retrieval is off');
      const source = fileSource(dense?.on ? dense.embedder : undefined);
      if (session === undefined) return selectFiles(issue, source, options);
      const memory = sessions.get(session);
      const selection = await selectFiles(issue, source, { ...options, shown: memory.files });
      for (const b of selection.blocks) {
        if (b.role !== 'file') continue;
        const c = source.content(b.path);
        if ('text' in c) memory.files.set(b.path, contentHash(c.text));
      }
      return selection;
    },
    findObjects: (p, name) =>
      fiberObjects(db, p)
        .filter((o) => o.qualifiedName === name || o.name === name)
        .sort((a, b) => Number(b.qualifiedName === name) - Number(a.qualifiedName === name) || a.startLine - b.startLine),
    // A fresh index reader per request: it caches facts that a later batch may change.
    arbitrate: (d, a, language, at) => arbitrate(d, a, { language, at }, storeArbitrateIndex(db, { repoName: path.basename(repo) })),
    object(id) {
      const object = getObjects(db, [id]).get(id);
      if (!object) return null;
      const text = storeObjectSource(db).objects([id]).get(id)?.text ?? null;
      return { object, text, views: objectViews(db, id), references: { from: objectReferences(db, id, 'from'), to: objectReferences(db, id, 'to') } };
    },
    file(rel) {
      const info = indexedFileInfo(db, rel);
      if (!info) return null;
      if (escapesRepo(repo, rel)) return 'forbidden';
      const text = fileText(db, rel);
      if (text === null) return null;
      return { path: rel, language: info.language, lineCount: info.lineCount, size: info.size, text };
    },
    hasFiles: () => anyFile.get() === 1,
    follow: () => void structureOf(db),
    completeness,
    findSymbol: (q) => findSymbols(db, q),
    findReferences(q) {
      let targets;
      if (q.id) {
        const o = getObjects(db, [q.id]).get(q.id);
        if (!o) throw new QueryError('not-found', `no object ${q.id} in the index (it may have changed: look it up again with find_symbol)`);
        targets = [{ id: o.id, name: o.name, qualifiedName: o.qualifiedName, kind: o.kind, path: o.path, startLine: o.startLine, endLine: o.endLine, signature: o.signature, match: 'exact' as const }];
      } else {
        if (q.path) indexed(q.path);
        const found = findSymbols(db, { name: q.name!, path: q.path, limit: MAX_REFERENCE_TARGETS });
        targets = found.matches.filter((m) => m.match === 'exact');
        if (!targets.length) {
          const near = found.matches.slice(0, 5).map((m) => m.qualifiedName);
          throw new QueryError('not-found', `no object named ${q.name}${q.path ? ` in ${q.path}` : ''}${near.length ? ` (similar: ${near.join(', ')})` : ''}`);
        }
      }
      return { targets, ...referencesTo(db, targets.map((t) => t.id), { kinds: q.kinds, limit: q.limit }) };
    },
    outline(rel) {
      const info = indexed(rel);
      const o = fileOutline(db, rel);
      return { path: rel, language: info.language, lineCount: info.lineCount, count: o?.count ?? 0, objects: o?.objects ?? [] };
    },
    readFile(q) {
      const info = indexed(q.path);
      const text = fileText(db, q.path);
      if (text === null) throw new QueryError('not-found', `${q.path} is not an indexed file of ${repo}`);
      try {
        const lines = linesWithin(text, q.startLine ?? 1, q.endLine ?? Number.MAX_SAFE_INTEGER, q.budget, getTokenizer(q.tokenizer));
        return { path: q.path, language: info.language, budget: q.budget, tokenizer: q.tokenizer, ...lines };
      } catch (err) {
        if (err instanceof RangeError) throw new QueryError('invalid-request', `${err.message}: ${q.path}`);
        throw err;
      }
    },
  };
  return engine;
}

/**
 * True when the path on disk is now a symlink, or sits below a folder that
 * resolves outside the repository. The text served comes from the index (which
 * never follows symlinks), but a path that now points elsewhere is refused
 * rather than explained.
 */
export function escapesRepo(repo: string, rel: string): boolean {
  const abs = path.join(repo, rel);
  try {
    if (fs.lstatSync(abs).isSymbolicLink()) return true;
  } catch {
    /* gone from disk since it was indexed: the indexed text is still the answer until the watcher catches up */
  }
  try {
    const root = fs.realpathSync(repo);
    const parent = fs.realpathSync(path.dirname(abs));
    return parent !== root && !parent.startsWith(root + path.sep);
  } catch {
    return false;
  }
}
