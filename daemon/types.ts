/**
 * Public shapes of the daemon: what `daemon.json` holds, what the HTTP API
 * takes and returns, and the events it streams. Clients (the CLI, the
 * `allot/client` library, editors) speak in these types; request bodies are
 * validated by the zod schemas in `requests.ts`, `daemon.json` by `config.ts`.
 */
import type { Allocation } from '../allocator/types.ts';
import type { IndexProgress } from '../indexer/index-repository.ts';
import type { SearchHit } from '../indexer/retrieve/search.ts';
import type { CodeObject, Reference, View } from '../indexer/types.ts';
import type { SymbolMatch } from '../indexer/retrieve/symbols.ts';
import type { ReferenceSite } from '../indexer/store/references.ts';
import type { OutlineNode } from '../indexer/store/outline.ts';
import type { FileLines } from '../indexer/store/file-lines.ts';

export type { Allocation, SearchHit };
export type { ArbitrateRequest, ContextRequest, FilesSelectRequest, InventoryRequest, SearchRequest } from './requests.ts';
export type { FileSelection } from '../allocator/files/types.ts';
export type { Inventory } from '../allocator/files/inventory.ts';
export type { Arbitration } from '../allocator/arbitrate/types.ts';
export type { DaemonInfo } from './config.ts';
export type { SymbolAnswer, SymbolMatch } from '../indexer/retrieve/symbols.ts';
export type { ReferenceSite } from '../indexer/store/references.ts';
export type { OutlineNode } from '../indexer/store/outline.ts';
export type { OutlineRequest, ReadFileRequest, ReferencesRequest, SymbolRequest } from './symbol-requests.ts';
export type { ContinueItem, ContinueRequest } from './continue.ts';

/**
 * A request carrying this header (any value) is answered from what is indexed even while a brand-new index is
 * still being built, instead of the `index-building` error.
 */
export const PARTIAL_HEADER = 'x-allot-partial';

/**
 * Every query answer carries this header: `true`, or `false` until a whole-repository run has finished on the
 * index once (a first build, or one cut short by a kill and not yet resumed to its end). With `false`, the
 * answer covers only the files indexed so far, `X-Allot-Progress` says how far (`parse 454/5000 files`) and
 * answers that are JSON objects also carry `complete: false` and `progress`.
 */
export const COMPLETE_HEADER = 'x-allot-complete';
export const PROGRESS_HEADER = 'x-allot-progress';

/** How far a first build is: the files its whole-repository run has been through, of all it found. */
export interface BuildProgress {
  phase: 'starting' | 'discover' | 'parse' | 'resolve' | 'done';
  done: number;
  total: number;
}

/** What an answer from an index that is not complete yet carries. */
export interface Incomplete {
  complete: false;
  progress: BuildProgress;
}

/** Every error the API returns has this body, with a matching HTTP status. */
export interface ApiErrorBody {
  error: { code: ErrorCode; message: string };
}

/** Machine-readable error codes and the HTTP status each is sent with. */
export const ERROR_STATUS = {
  'bad-json': 400,
  'invalid-request': 400,
  unauthorized: 401,
  'forbidden-host': 403,
  'forbidden-origin': 403,
  'forbidden-path': 403,
  'not-found': 404,
  'method-not-allowed': 405,
  'payload-too-large': 413,
  internal: 500,
  'index-building': 503,
  /** The index is damaged (or was replaced by something allot will not read): see `health.reason`. */
  'index-failed': 503,
  /** The query watchdog's answer: not done within the deadline (`ALLOT_QUERY_TIMEOUT_MS`). */
  'query-timeout': 503,
  'shutting-down': 503,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

/** What the index worker is doing. */
export interface IndexingState {
  /** `catching-up` while the start-up run (or a recovery run) goes; `indexing` for watcher batches. */
  state: 'starting' | 'catching-up' | 'indexing' | 'idle' | 'failed';
  /** True until the start-up run has finished once: results may still be incomplete. */
  catchingUp: boolean;
  /**
   * Whether a whole-repository run has ever finished on this index (kept in the index, so a first build killed
   * half-way stays incomplete after a restart until a run finishes). Until then answers carry `complete: false`.
   */
  complete: boolean;
  /** While not complete: how far the running whole-repository run is; null once complete. */
  build: BuildProgress | null;
  /** The running batch's progress, or null when idle. */
  progress: IndexProgress | null;
  /** Batches run since start (the start-up run included). */
  batches: number;
  lastBatch: BatchReport | null;
}

/** The outcome of one index batch. */
export interface BatchReport {
  id: number;
  /** A whole-repository incremental run rather than a list of paths. */
  full: boolean;
  /** How many paths the batch covered (0 for full runs). */
  paths: number;
  /** Files parsed, and files restored from the extraction cache (content indexed before, on any branch or path). */
  parsed: number;
  restored: number;
  removed: number;
  seconds: number;
  finishedAt: string;
  /** Null when it succeeded. */
  error: string | null;
}

/** Work waiting for the index worker. */
export interface PendingWork {
  /** Changed paths not yet handed to the indexer (debouncing or queued behind the running batch). */
  paths: number;
  /** A full incremental run is queued. */
  full: boolean;
}

export interface WatcherState {
  state: 'starting' | 'watching' | 'stopped' | 'error';
  /** Change events received since start. */
  events: number;
  error: string | null;
}

/** Dense retrieval: whether the index has vectors, and the background embedding pass. */
export interface DenseStatus {
  /** `off`: no dense model (BM25 and structural only); `embedding`: new objects are being embedded; `failed`: see reason. */
  state: 'off' | 'ready' | 'embedding' | 'failed';
  /** The model's `id@version`, or null. */
  model: string | null;
  /** Objects with a vector of the model, and objects that should have one (as of the last count). */
  embedded: number;
  objects: number;
  /** Objects per second of the running pass, or null. */
  rate: number | null;
  /** Why dense retrieval is off or failed. */
  reason: string | null;
}

/** `GET /v1/status`. */
export interface DaemonStatus {
  version: string;
  pid: number;
  /** The random nonce of the daemon's pid file: `allot stop` signals only the process that answers with it. */
  nonce: string;
  repo: string;
  db: string;
  startedAt: string;
  uptimeSeconds: number;
  /** Counts of the committed index. */
  index: { files: number; filesByLanguage: Record<string, number>; textByExtension?: Record<string, number>; objects: number; views: number; references: number; resolvedReferences: number };
  /** The extraction cache: rows kept, bytes they take, and the bound (`allot index --cache-mb`; 0: off). */
  cache: { entries: number; bytes: number; maxBytes: number };
  indexing: IndexingState;
  pending: PendingWork;
  watcher: WatcherState;
  queries: {
    served: number; search: number; context: number; objects: number; files: number; arbitrate: number; inventory: number; select: number;
    symbols: number; references: number; outline: number; read: number; continue: number; errors: number;
  };
  dense: DenseStatus;
  /** `failed` once the index is found damaged (a query or a batch met it): queries answer 503 `index-failed` until it is rebuilt. */
  health: { state: 'ok' | 'failed'; reason: string | null };
  lastError: { message: string; at: string } | null;
  /** With `--idle-exit MINUTES`: the daemon stops once no request has arrived for that long (at `exitsAt` if none does). */
  idleExit: { minutes: number; exitsAt: string } | null;
}

/** `GET /v1/objects/:id`. */
export interface ObjectResponse {
  object: CodeObject;
  /** The object's source lines, verbatim (null when its file can no longer be read as indexed). */
  text: string | null;
  views: View[];
  references: { from: Reference[]; to: Reference[] };
}

/** `POST /v1/references`: the objects looked at and the uses resolved to them. */
export interface ReferencesAnswer {
  targets: SymbolMatch[];
  references: ReferenceSite[];
  /** Uses that passed the filter, before the limit. */
  total: number;
  /** Every use of the targets by kind (`test`: uses from test code). */
  counts: Record<'call' | 'import' | 'inherit' | 'test', number>;
  truncated: boolean;
}

/** `POST /v1/outline`: a file's objects as a tree. */
export interface OutlineAnswer {
  path: string;
  language: string;
  lineCount: number;
  /** Objects in the tree (all levels). */
  count: number;
  objects: OutlineNode[];
}

/** `POST /v1/files/read`: lines of an indexed file, verbatim, within a token budget. */
export type ReadFileAnswer = FileLines & { path: string; language: string; budget: number; tokenizer: string };

/** `POST /v1/context`: the allocation, with what did not fit the budget when something did not. */
export type ContextAnswer = Allocation & { warnings?: string[] };

/** `GET /v1/files?path=...`: the text as indexed. */
export interface FileResponse {
  path: string;
  language: string;
  lineCount: number;
  size: number;
  text: string;
}

/** Server-sent events of `GET /v1/events` (the SSE `event:` field is `type`, `data:` the JSON of the rest). */
export type DaemonEvent =
  | { type: 'hello'; status: DaemonStatus }
  | { type: 'changes'; paths: string[]; truncated: number }
  | { type: 'batch'; id: number; full: boolean; paths: number }
  | { type: 'progress'; id: number; progress: IndexProgress }
  | { type: 'indexed'; report: BatchReport; paths: string[]; truncated: number }
  | { type: 'watcher'; watcher: WatcherState }
  | { type: 'error'; message: string };
