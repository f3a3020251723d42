/**
 * Where the MCP server's answers come from: the repository's daemon (started
 * if none runs, so every agent session shares one warm index), or, when no
 * daemon can be started, the same query engine in this process over an index
 * brought up to date once at start. Both speak the daemon's request shapes.
 */
import fs from 'node:fs';
import type { QueryEngine } from '../../daemon/queries.ts';
import {
  parseContextRequest, parseFilesSelectRequest, parseInventoryRequest, parseSearchRequest, parseArbitrateRequest, type Parsed,
} from '../../daemon/requests.ts';
import type {
  Allocation, ArbitrateRequest, Arbitration, ContextRequest, DaemonStatus, FileSelection, FilesSelectRequest, Inventory, InventoryRequest,
  ObjectResponse, SearchHit, SearchRequest,
} from '../../daemon/types.ts';
import { BadSearch, selectForRequest } from '../../daemon/select-request.ts';
import type { DB } from '../../indexer/store/open.ts';
import type { CodeObject } from '../../indexer/types.ts';
import { connect, DaemonError, type AllotClient } from '../lib/index.ts';

/** What `index_status` reports, on either path. */
export interface IndexStatus {
  via: 'daemon' | 'in-process';
  repo: string;
  db: string;
  index: DaemonStatus['index'];
  /** `idle`, `indexing`, `catching-up` (start-up run), `building` (first build), `failed`, or `frozen` in-process. */
  state: string;
  /** Changed files not indexed yet. */
  pendingFiles: number;
  /** Set when results may miss recent changes. */
  catchingUp: boolean;
  daemon: { pid: number; version: string; uptimeSeconds: number; queriesServed: number; lastError: string | null } | null;
  /** Why this server answers in-process, when it does. */
  notice: string | null;
}

export interface Backend {
  readonly via: 'daemon' | 'in-process';
  status(): Promise<IndexStatus>;
  search(req: SearchRequest): Promise<SearchHit[]>;
  context(req: ContextRequest): Promise<Allocation>;
  inventory(req: InventoryRequest): Promise<Inventory>;
  selectFiles(req: FilesSelectRequest): Promise<FileSelection>;
  object(id: string): Promise<ObjectResponse | null>;
  findObjects(path: string, name: string): Promise<CodeObject[]>;
  arbitrate(req: ArbitrateRequest): Promise<Arbitration>;
  close(): void;
}

/** A request the backend refused (bad arguments, an index still being built): the message is for the model. */
export class BackendError extends Error {
  override name = 'BackendError';
}

/** The daemon's answer; its error responses (a bad request, an unknown object) become messages for the model. */
async function answer<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw err instanceof DaemonError ? new BackendError(err.message) : err;
  }
}

export function statusFromDaemon(s: DaemonStatus): IndexStatus {
  const pendingFiles = s.pending.paths;
  const state = s.indexing.catchingUp && s.indexing.batches === 0 && s.index.files === 0 ? 'building' : s.indexing.state;
  return {
    via: 'daemon', repo: s.repo, db: s.db, index: s.index, state, pendingFiles,
    catchingUp: s.indexing.catchingUp || s.indexing.state === 'indexing' || pendingFiles > 0 || s.pending.full,
    daemon: { pid: s.pid, version: s.version, uptimeSeconds: s.uptimeSeconds, queriesServed: s.queries.served, lastError: s.lastError?.message ?? null },
    notice: null,
  };
}

export function daemonBackend(client: AllotClient): Backend {
  return {
    via: 'daemon',
    status: async () => statusFromDaemon(await client.status()),
    search: (req) => answer(() => client.search(req)),
    context: (req) => answer(() => client.context(req)),
    inventory: (req) => answer(() => client.inventory(req)),
    selectFiles: (req) => answer(() => client.selectFiles(req)),
    object: async (id) => {
      try {
        return await answer(() => client.object(id));
      } catch (err) {
        if (err instanceof BackendError && /^no object/.test(err.message)) return null;
        throw err;
      }
    },
    findObjects: (p, name) => answer(() => client.findObjects(p, name)),
    arbitrate: (req) => answer(() => client.arbitrate(req)),
    close: () => client.close(),
  };
}

function valid<T>(r: Parsed<T>): T {
  if (!r.ok) throw new BackendError(r.message);
  return r.value;
}

/** The daemon's query engine in this process, over an index brought up to date once (no watcher). */
export async function inProcessBackend(repo: string, dbFile: string, notice: string, log: (line: string) => void): Promise<Backend> {
  const fresh = !fs.existsSync(dbFile);
  log(`${fresh ? 'building' : 'updating'} the index of ${repo} in-process`);
  // Loaded only here: attached to a daemon, the server needs neither SQLite nor the query engine.
  const [{ indexRepository }, { openStore }, { storeCounts }, { createQueryEngine }] = await Promise.all([
    import('../../indexer/index-repository.ts'), import('../../indexer/store/open.ts'), import('../../indexer/store/read.ts'), import('../../daemon/queries.ts'),
  ]);
  await indexRepository({ repo, db: dbFile });
  const db: DB = openStore(dbFile, { readonly: true });
  const engine: QueryEngine = createQueryEngine(db, repo);
  return {
    via: 'in-process',
    status: async () => ({
      via: 'in-process', repo, db: dbFile, index: storeCounts(db), state: 'frozen', pendingFiles: 0, catchingUp: false, daemon: null, notice,
    }),
    search: async (req) => {
      const r = valid(parseSearchRequest(req));
      return engine.search(r.query, r.k, r.retrieval);
    },
    context: async (req) => {
      const r = valid(parseContextRequest(req));
      return engine.context(r.query, r.options, r.retrieval, r.session);
    },
    inventory: async (req) => {
      const r = valid(parseInventoryRequest(req));
      return engine.inventory(r.issue, r.tokenizer);
    },
    selectFiles: async (req) => {
      try {
        return await selectForRequest(engine, valid(parseFilesSelectRequest(req)));
      } catch (err) {
        throw err instanceof BadSearch ? new BackendError(err.message) : err;
      }
    },
    object: async (id) => engine.object(id),
    findObjects: async (p, name) => engine.findObjects(p, name),
    arbitrate: async (req) => {
      const r = valid(parseArbitrateRequest(req));
      return engine.arbitrate(r.default, r.alternative, r.language, r.target);
    },
    close: () => db.close(),
  };
}

/**
 * The daemon's backend, starting the daemon when none runs; in-process when it
 * cannot start (the notice says why, and every tool result repeats it).
 */
export async function openBackend(repo: string, dbFile: string, log: (line: string) => void): Promise<Backend> {
  try {
    // Agents get what is indexed so far while a first build runs; every result then says the index is catching up.
    const client = await connect({ repo, start: true, db: dbFile, partial: true });
    log(`attached to the allot daemon (pid ${client.info.pid}) for ${repo}`);
    return daemonBackend(client);
  } catch (err) {
    const notice = `the allot daemon could not be used (${(err as Error).message.split('\n')[0]}): answering in-process from the index as of this server's start; later edits are not seen`;
    log(notice);
    return inProcessBackend(repo, dbFile, notice, log);
  }
}
