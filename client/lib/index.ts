/**
 * allot's client library: `import { connect } from 'allot/client'`.
 *
 *   const allot = await connect({ repo: '/path/to/repo', start: true });
 *   const hits = await allot.search({ query: 'parse config', k: 5 });
 *   const ctx = await allot.context({ query: 'resolve imported names', budget: 2048 });
 *   const defs = await allot.findSymbol({ name: 'Parser.parse' });
 *   for await (const ev of allot.events()) console.log(ev.type);
 *   allot.close();
 *
 * It finds the repository's daemon through `<repo>/.allot/daemon.json`
 * (checking the pid and a live status answer), authenticates with its token,
 * and speaks the HTTP API over loopback TCP or the Unix socket. The CLI talks
 * to the daemon through this same library.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { DaemonInfo } from '../../daemon/config.ts';
import type {
  Allocation, ArbitrateRequest, Arbitration, ContextAnswer, ContextRequest, ContinueItem, ContinueRequest, DaemonEvent, DaemonStatus, FileResponse,
  FileSelection, FilesSelectRequest, Inventory, InventoryRequest, ObjectResponse, OutlineAnswer, OutlineRequest, ReadFileAnswer, ReadFileRequest,
  ReferencesAnswer, ReferencesRequest, SearchHit, SearchRequest, SymbolAnswer, SymbolRequest,
} from '../../daemon/types.ts';
import type { CodeObject } from '../../indexer/types.ts';
import { findDaemon, startDaemonProcess, type StartOptions } from './daemon-process.ts';
import { findRepo } from './repo.ts';
import { PARTIAL_HEADER } from '../../daemon/types.ts';
import { createSseParser } from './sse.ts';
import { DaemonError, DaemonUnreachable, openStream, requestJson, type Endpoint } from './transport.ts';

export type {
  Allocation, ArbitrateRequest, Arbitration, CodeObject, ContextAnswer, ContextRequest, ContinueItem, ContinueRequest, DaemonEvent, DaemonInfo, DaemonStatus,
  FileResponse, FileSelection, FilesSelectRequest, Inventory, InventoryRequest, ObjectResponse, OutlineAnswer, OutlineRequest, ReadFileAnswer,
  ReadFileRequest, ReferencesAnswer, ReferencesRequest, SearchHit, SearchRequest, SymbolAnswer, SymbolRequest,
};
export { DaemonError, DaemonUnreachable, findDaemon, findRepo, startDaemonProcess };
export { DaemonProcessError, stopDaemonProcess, type DaemonLookup } from './daemon-process.ts';

export interface ConnectOptions {
  /** The repository (default: the one containing the current folder). */
  repo?: string;
  /** Start a daemon in the background when none runs. */
  start?: boolean;
  /** Only accept a daemon serving this index database. */
  db?: string;
  /** Passed to the daemon when `start` launches one. */
  startOptions?: Omit<StartOptions, 'db'>;
  /** Per-request timeout (default 60 s). */
  timeoutMs?: number;
  /**
   * Accept answers from an index still being built for the first time (what is indexed so far) instead of
   * the `index-building` error. Agents prefer a partial answer now; `status()` says how far the build is.
   */
  partial?: boolean;
}

/** No daemon serves the repository (and `start` was not asked for). */
export class NoDaemon extends Error {
  constructor(readonly repo: string, detail = '') {
    super(`no allot daemon is running for ${repo}${detail}; run \`allot start\``);
    this.name = 'NoDaemon';
  }
}

export interface AllotClient {
  readonly repo: string;
  readonly info: DaemonInfo;
  /** This client started the daemon (`connect({ start: true })` found none running). */
  readonly started: boolean;
  status(): Promise<DaemonStatus>;
  search(req: SearchRequest): Promise<SearchHit[]>;
  context(req: ContextRequest): Promise<ContextAnswer>;
  /** Objects by name or qualified name: exact, then prefix, then identifier-part matches. */
  findSymbol(req: SymbolRequest): Promise<SymbolAnswer>;
  /** Who calls, imports, inherits or tests an object (by id, or by name and optionally its file). */
  findReferences(req: ReferencesRequest): Promise<ReferencesAnswer>;
  /** A file's objects as a tree. */
  fileOutline(req: OutlineRequest): Promise<OutlineAnswer>;
  /** Lines of an indexed file, verbatim, within a token budget. */
  readFile(req: ReadFileRequest): Promise<ReadFileAnswer>;
  /** Continue's HTTP context provider: context items for a query. */
  continueItems(req: ContinueRequest): Promise<ContinueItem[]>;
  /** Chooses between two candidate programs with typed witnesses from the index. */
  arbitrate(req: ArbitrateRequest): Promise<Arbitration>;
  /** The path inventory for an issue. */
  inventory(req: InventoryRequest): Promise<Inventory>;
  /** Exact whole files for fixing an issue (`allot files`). */
  selectFiles(req: FilesSelectRequest): Promise<FileSelection>;
  object(id: string): Promise<ObjectResponse>;
  /** Objects of an indexed file by name or qualified name. */
  findObjects(path: string, name: string): Promise<CodeObject[]>;
  /** One indexed file's text, as indexed. */
  files(path: string): Promise<FileResponse>;
  /** Index progress and file updates as they happen; ends when `signal` aborts or the daemon stops. */
  events(opts?: { signal?: AbortSignal }): AsyncIterable<DaemonEvent>;
  /** Releases kept-alive connections. */
  close(): void;
}

export async function connect(opts: ConnectOptions = {}): Promise<AllotClient> {
  const repo = opts.repo ? fs.realpathSync(path.resolve(opts.repo)) : findRepo();
  const found = await findDaemon(repo);
  let info: DaemonInfo;
  let started = false;
  if (found.state === 'running') info = found.info;
  else if (opts.start) ({ info, started } = await startDaemonProcess(repo, { ...opts.startOptions, db: opts.db }));
  else throw new NoDaemon(repo, found.state === 'starting' ? ` (pid ${found.pid} is starting or not answering)` : '');
  if (opts.db && path.resolve(opts.db) !== info.db) throw new NoDaemon(repo, ` with index ${path.resolve(opts.db)} (the daemon serves ${info.db})`);
  return createClient(repo, info, opts.timeoutMs ?? 60_000, { partial: opts.partial, started });
}

/** A client for a known daemon (what `connect` returns). */
export function createClient(repo: string, info: DaemonInfo, timeoutMs = 60_000, opts: { partial?: boolean; started?: boolean } = {}): AllotClient {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const ep: Endpoint = info;
  const headers = opts.partial ? { [PARTIAL_HEADER]: '1' } : undefined;
  const get = <T>(p: string) => requestJson<T>(ep, 'GET', p, { agent, timeoutMs, headers });
  const post = <T>(p: string, body: unknown) => requestJson<T>(ep, 'POST', p, { agent, timeoutMs, body, headers });
  return {
    repo,
    info,
    started: opts.started ?? false,
    status: () => get<DaemonStatus>('/v1/status'),
    search: (req) => post<SearchHit[]>('/v1/search', req),
    context: (req) => post<ContextAnswer>('/v1/context', req),
    findSymbol: (req) => post<SymbolAnswer>('/v1/symbols', req),
    findReferences: (req) => post<ReferencesAnswer>('/v1/references', req),
    fileOutline: (req) => post<OutlineAnswer>('/v1/outline', req),
    readFile: (req) => post<ReadFileAnswer>('/v1/files/read', req),
    continueItems: (req) => post<ContinueItem[]>('/v1/continue', req),
    arbitrate: (req) => post<Arbitration>('/v1/arbitrate', req),
    inventory: (req) => post<Inventory>('/v1/inventory', req),
    selectFiles: (req) => post<FileSelection>('/v1/files/select', req),
    object: (id) => get<ObjectResponse>(`/v1/objects/${encodeURIComponent(id)}`),
    findObjects: (p, name) => get<CodeObject[]>(`/v1/objects?path=${encodeURIComponent(p)}&name=${encodeURIComponent(name)}`),
    files: (p) => get<FileResponse>(`/v1/files?path=${encodeURIComponent(p)}`),
    events: (o = {}) => eventStream(ep, o.signal),
    close: () => agent.destroy(),
  };
}

async function* eventStream(ep: Endpoint, signal?: AbortSignal): AsyncGenerator<DaemonEvent> {
  const res = await openStream(ep, '/v1/events', { signal });
  const queue: DaemonEvent[] = [];
  const parser = createSseParser((m) => queue.push({ type: m.event, ...JSON.parse(m.data) } as DaemonEvent));
  res.setEncoding('utf8');
  try {
    for await (const chunk of res) {
      parser.push(chunk as string);
      while (queue.length) yield queue.shift()!;
    }
  } catch (err) {
    if (!signal?.aborted) throw new DaemonUnreachable(`event stream ended: ${(err as Error).message}`, err);
  } finally {
    res.destroy();
  }
}
