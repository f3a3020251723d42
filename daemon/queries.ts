/**
 * Queries on the daemon's read connection. These are the very functions the
 * CLI runs in-process (`search()`, `buildContext()`), so the output is the
 * same on both paths; the daemon adds no ranking or budget logic of its own.
 */
import fs from 'node:fs';
import path from 'node:path';
import { shownObjects, withoutShown } from '../allocator/already-shown.ts';
import { contentHash } from '../indexer/extract/extract-file.ts';
import { buildContext } from '../allocator/context.ts';
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
import { storeObjectSource } from '../indexer/store/object-source.ts';
import type { DB } from '../indexer/store/open.ts';
import { fiberObjects, fileText, getObjects, indexedFileInfo, objectReferences, objectViews } from './store-reads.ts';
import type { FileResponse, ObjectResponse } from './types.ts';

export interface QueryEngine {
  search(query: string, k: number, retrieval?: RetrievalOptions): Promise<SearchHit[]>;
  /**
   * Object allocation. With a `session` id, objects the session was already sent whole and unchanged get no
   * budget: they are listed in `alreadyShown` instead.
   */
  context(query: string, options: AllocateOptions, retrieval?: RetrievalOptions, session?: string): Promise<Allocation>;
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
}

/** The engine's methods answered now or later: the engine itself, or query threads in front of it. */
export type QueryAnswers = {
  [K in keyof QueryEngine]: (...args: Parameters<QueryEngine[K]>) => ReturnType<QueryEngine[K]> | Promise<Awaited<ReturnType<QueryEngine[K]>>>;
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
  return JSON.stringify([kind, query, shape, r.retriever ?? null, r.path ?? null, r.rrfK ?? null]);
}

export interface QueryEngineOptions {
  /** Keep answers to repeated queries until the index changes (default true; query threads leave it to the main thread). */
  answerCache?: boolean;
}

export function createQueryEngine(db: DB, repo: string, opts: QueryEngineOptions = {}): QueryEngine {
  const anyFile = db.prepare('SELECT EXISTS (SELECT 1 FROM files) AS n').pluck();
  const sessions = createSessions();
  // The file source builds term statistics on first use: keep one per index generation.
  let files: { key: string; source: ReturnType<typeof storeFileSource> } | null = null;
  const fileSource = (dense?: QueryEmbedder) => {
    const key = `${getGeneration(db)}:${dense ? modelKey(dense) : ''}`;
    if (files?.key !== key) files = { key, source: storeFileSource(db, repo, { dense }) };
    return files.source;
  };
  // Repeated queries on an unchanged index are answered from memory (sessions never are: they change what is sent).
  const answers = createResultCache<SearchHit[] | Allocation>(opts.answerCache === false ? 0 : 256);
  const indexState = () => {
    const s = answerState(db);
    return `${s.generation}:${s.structure}:${s.vectors ?? ''}`;
  };
  return {
    async search(query, k, r = {}) {
      const state = indexState();
      const key = answerKey('search', query, k, r);
      const hit = answers.get(state, key);
      if (hit) return hit as SearchHit[];
      const retriever = await retrieverFor(db, r.retriever, { path: r.path, rrfK: r.rrfK });
      await retriever.prepare?.(query);
      const hits = search(db, query, k, retriever);
      answers.set(state, key, hits);
      return hits;
    },
    // A fresh object source per query: it memoises file lines, which a later batch may change.
    async context(query, options, r = {}, session) {
      const state = indexState();
      const key = answerKey('context', query, options, r);
      if (session === undefined) {
        const hit = answers.get(state, key);
        if (hit) return hit as Allocation;
      }
      const source = storeObjectSource(db);
      const retriever = await retrieverFor(db, r.retriever, { path: r.path, rrfK: r.rrfK });
      await retriever.prepare?.(query);
      if (session === undefined) {
        const allocation = buildContext(query, retriever, source, options);
        answers.set(state, key, allocation);
        return allocation;
      }
      const memory = sessions.get(session);
      const filtered = withoutShown(retriever, memory.objects, source, options.slots.core + options.slots.companion);
      const allocation = buildContext(query, filtered.retriever, source, options);
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
  };
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
