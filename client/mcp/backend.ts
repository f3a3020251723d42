/**
 * Where the MCP server's answers come from: the repository's daemon (started
 * if none runs, so every agent session shares one warm index), or the same
 * query engine in this process (`--no-daemon`, or when no daemon can be
 * started) over an index this process brings up to date once, in the
 * background, while it already answers. Both speak the daemon's request shapes.
 */
import fs from 'node:fs';
import type { QueryEngine } from '../../daemon/queries.ts';
import { QueryError } from '../../daemon/query-error.ts';
import {
  parseContextRequest, parseFilesSelectRequest, parseInventoryRequest, parseSearchRequest, parseArbitrateRequest, type Parsed,
} from '../../daemon/requests.ts';
import { parseOutlineRequest, parseReadFileRequest, parseReferencesRequest, parseSymbolRequest } from '../../daemon/symbol-requests.ts';
import type {
  ArbitrateRequest, Arbitration, BuildProgress, ContextAnswer, ContextRequest, DaemonStatus, FileSelection, FilesSelectRequest, Inventory,
  InventoryRequest, ObjectResponse, OutlineAnswer, OutlineRequest, ReadFileAnswer, ReadFileRequest, ReferencesAnswer, ReferencesRequest, SearchHit,
  SearchRequest, SymbolAnswer, SymbolRequest,
} from '../../daemon/types.ts';
import { describeAddress, daemonPaths } from '../../daemon/config.ts';
import { nextBuildProgress } from '../../daemon/status.ts';
import { BadSearch, selectForRequest } from '../../daemon/select-request.ts';
import type { DB } from '../../indexer/store/open.ts';
import type { CodeObject } from '../../indexer/types.ts';
import { connect, DaemonError, type AllotClient } from '../lib/index.ts';

/** The daemon serving a session, and how to stop it. */
export interface DaemonServing {
  pid: number;
  version: string;
  /** `127.0.0.1:PORT` or `unix:/path`. */
  address: string;
  uptimeSeconds: number;
  queriesServed: number;
  lastError: string | null;
  /** This MCP server started it (none was running); it keeps running after the session unless `idleExit` is set. */
  startedBySession: boolean;
  /** With `--idle-exit`: it stops after that many minutes without a request (at `exitsAt` if none comes). */
  idleExit: { minutes: number; exitsAt: string } | null;
  /** The command that stops it. */
  stop: string;
  /** Where a daemon started in the background logs. */
  log: string;
}

/** What `index_status` reports, on either path. */
export interface IndexStatus {
  via: 'daemon' | 'in-process';
  repo: string;
  db: string;
  index: DaemonStatus['index'];
  /** `idle`, `indexing`, `catching-up` (start-up run), `building` (no full build finished yet), `failed`, or in-process `frozen`. */
  state: string;
  /** A whole-repository run has finished on this index: until then every answer covers only part of the repository. */
  complete: boolean;
  /** While not complete: files done of the total of the running build. */
  progress: BuildProgress | null;
  /** Changed files not indexed yet. */
  pendingFiles: number;
  /** Set when results may miss recent changes. */
  catchingUp: boolean;
  daemon: DaemonServing | null;
  /** Why this server answers in-process, when it does. */
  notice: string | null;
}

export interface Backend {
  readonly via: 'daemon' | 'in-process';
  status(): Promise<IndexStatus>;
  search(req: SearchRequest): Promise<SearchHit[]>;
  context(req: ContextRequest): Promise<ContextAnswer>;
  inventory(req: InventoryRequest): Promise<Inventory>;
  selectFiles(req: FilesSelectRequest): Promise<FileSelection>;
  object(id: string): Promise<ObjectResponse | null>;
  findObjects(path: string, name: string): Promise<CodeObject[]>;
  arbitrate(req: ArbitrateRequest): Promise<Arbitration>;
  findSymbol(req: SymbolRequest): Promise<SymbolAnswer>;
  findReferences(req: ReferencesRequest): Promise<ReferencesAnswer>;
  outline(req: OutlineRequest): Promise<OutlineAnswer>;
  readFile(req: ReadFileRequest): Promise<ReadFileAnswer>;
  close(): void;
}

/** A request the backend refused (bad arguments, an unknown object or file): the message is for the model. */
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

export function statusFromDaemon(s: DaemonStatus, opts: { startedBySession?: boolean; address?: string } = {}): IndexStatus {
  const pendingFiles = s.pending.paths;
  // (a daemon older than the `complete` field: no files and a first run still going is a first build)
  const complete = s.indexing.complete ?? !(s.indexing.catchingUp && s.indexing.batches === 0 && s.index.files === 0);
  return {
    via: 'daemon', repo: s.repo, db: s.db, index: s.index, state: complete ? s.indexing.state : 'building', complete,
    progress: complete ? null : s.indexing.build ?? { phase: 'starting', done: 0, total: 0 }, pendingFiles,
    catchingUp: s.indexing.catchingUp || s.indexing.state === 'indexing' || pendingFiles > 0 || s.pending.full,
    daemon: {
      pid: s.pid, version: s.version, address: opts.address ?? '', uptimeSeconds: s.uptimeSeconds, queriesServed: s.queries.served,
      lastError: s.lastError?.message ?? null, startedBySession: opts.startedBySession ?? false, idleExit: s.idleExit ?? null,
      stop: `allot stop ${s.repo}`, log: daemonPaths(s.repo).log,
    },
    notice: null,
  };
}

export function daemonBackend(client: AllotClient): Backend {
  const address = describeAddress(client.info);
  return {
    via: 'daemon',
    status: async () => statusFromDaemon(await client.status(), { startedBySession: client.started, address }),
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
    findSymbol: (req) => answer(() => client.findSymbol(req)),
    findReferences: (req) => answer(() => client.findReferences(req)),
    outline: (req) => answer(() => client.fileOutline(req)),
    readFile: (req) => answer(() => client.readFile(req)),
    close: () => client.close(),
  };
}

function valid<T>(r: Parsed<T>): T {
  if (!r.ok) throw new BackendError(r.message);
  return r.value;
}

/** The engine's refusals (an unknown file, a path outside the repository) as messages for the model. */
async function refused<T>(call: () => T | Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw err instanceof QueryError || err instanceof BadSearch ? new BackendError(err.message) : err;
  }
}

/**
 * The daemon's query engine in this process. The index is brought up to date once, in the background (no
 * watcher): the server answers at once, and until a first build has finished its answers say they are incomplete.
 */
export async function inProcessBackend(repo: string, dbFile: string, notice: string | null, log: (line: string) => void): Promise<Backend> {
  const fresh = !fs.existsSync(dbFile);
  log(`${fresh ? 'building' : 'updating'} the index of ${repo} in-process`);
  // Loaded only here: attached to a daemon, the server needs neither SQLite nor the query engine.
  const [{ indexRepository }, { openStore }, { storeCounts }, { createQueryEngine }] = await Promise.all([
    import('../../indexer/index-repository.ts'), import('../../indexer/store/open.ts'), import('../../indexer/store/read.ts'), import('../../daemon/queries.ts'),
  ]);
  const writer: DB = openStore(dbFile);
  const db: DB = openStore(dbFile, { readonly: true });
  let progress: BuildProgress = { phase: 'starting', done: 0, total: 0 };
  let state: 'indexing' | 'frozen' | 'failed' = 'indexing';
  let failure: string | null = null;
  const engine: QueryEngine = createQueryEngine(db, repo, { buildProgress: () => (state === 'indexing' ? progress : null) });
  const run = indexRepository({ repo, db: writer, onProgress: (p) => (progress = nextBuildProgress(progress, p)) })
    .then((r) => {
      state = 'frozen';
      log(`indexed ${r.files} files in-process (${r.parsed} parsed) in ${r.seconds.toFixed(1)} s`);
    })
    .catch((err: Error) => {
      state = 'failed';
      failure = err.message;
      log(`indexing failed: ${err.message}`);
    })
    .finally(() => writer.close());
  return {
    via: 'in-process',
    status: async () => {
      const c = engine.completeness();
      return {
        via: 'in-process', repo, db: dbFile, index: storeCounts(db), state: c.complete ? (state === 'indexing' ? 'catching-up' : state) : 'building',
        complete: c.complete, progress: c.complete ? null : c.progress, pendingFiles: 0, catchingUp: state === 'indexing', daemon: null,
        notice: failure ? `${notice ? `${notice}; ` : ''}indexing failed: ${failure}` : notice,
      };
    },
    search: async (req) => {
      const r = valid(parseSearchRequest(req));
      return refused(() => engine.search(r.query, r.k, r.retrieval));
    },
    context: async (req) => {
      const r = valid(parseContextRequest(req));
      return refused(() => engine.context(r.query, r.options, r.retrieval, r.session));
    },
    inventory: async (req) => {
      const r = valid(parseInventoryRequest(req));
      return engine.inventory(r.issue, r.tokenizer);
    },
    selectFiles: async (req) => refused(() => selectForRequest(engine, valid(parseFilesSelectRequest(req)))),
    object: async (id) => engine.object(id),
    findObjects: async (p, name) => engine.findObjects(p, name),
    arbitrate: async (req) => {
      const r = valid(parseArbitrateRequest(req));
      return engine.arbitrate(r.default, r.alternative, r.language, r.target);
    },
    findSymbol: async (req) => engine.findSymbol(valid(parseSymbolRequest(req))),
    findReferences: async (req) => refused(() => engine.findReferences(valid(parseReferencesRequest(req)))),
    outline: async (req) => refused(() => engine.outline(valid(parseOutlineRequest(req)).path)),
    readFile: async (req) => refused(() => engine.readFile(valid(parseReadFileRequest(req)))),
    close: () => {
      void run.finally(() => db.close());
    },
  };
}

export interface BackendOptions {
  /** Never use a daemon: answer in-process (`allot mcp --no-daemon`). */
  noDaemon?: boolean;
  /** A daemon this server starts stops after this many minutes without a request (`--idle-exit`). */
  idleExitMinutes?: number;
}

/**
 * The daemon's backend, starting the daemon when none runs; in-process with `noDaemon`, or when it cannot start
 * (the notice says why, and every tool result repeats it).
 */
export async function openBackend(repo: string, dbFile: string, log: (line: string) => void, opts: BackendOptions = {}): Promise<Backend> {
  if (opts.noDaemon) return inProcessBackend(repo, dbFile, null, log);
  try {
    // Agents get what is indexed so far while a first build runs; every result then says the index is incomplete.
    const client = await connect({ repo, start: true, db: dbFile, partial: true, startOptions: { idleExitMinutes: opts.idleExitMinutes } });
    if (client.started) {
      log(
        `started the allot daemon (pid ${client.info.pid}) for ${repo}; ` +
          (opts.idleExitMinutes
            ? `it stops after ${opts.idleExitMinutes} minute(s) without a request`
            : `it keeps serving after this session ends: \`allot stop ${repo}\` stops it, \`allot mcp --idle-exit MINUTES\` makes it stop when unused`),
      );
    } else {
      log(`attached to the allot daemon (pid ${client.info.pid}) for ${repo}${opts.idleExitMinutes ? ' (already running: --idle-exit does not apply to it)' : ''}`);
    }
    return daemonBackend(client);
  } catch (err) {
    const notice = `the allot daemon could not be used (${(err as Error).message.split('\n')[0]}): answering in-process from the index as of this server's start; later edits are not seen`;
    log(notice);
    return inProcessBackend(repo, dbFile, notice, log);
  }
}
