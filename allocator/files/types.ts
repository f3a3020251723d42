/**
 * Public shapes of `allot files` (exact whole files for issue fixing): what the
 * pipeline reads (FileSource, AnswerSource), what it returns (FileSelection).
 * Like the rest of the allocator, nothing here opens a database, a file or a
 * socket: the store implements FileSource, and answer sources are injected.
 */
import type { TokenizerName } from '../../indexer/tokenizer.ts';

/** Lines are 1-based and inclusive. */
export interface LineSpan {
  path: string;
  startLine: number;
  endLine: number;
}

/** A file's text as it will be shown. */
export interface FileContent {
  /** The text, whole and verbatim (line endings, tabs, trailing spaces, final newline or none, as written). */
  text: string;
  /** Lines as the index counts them (`\r\n` and `\n` end a line; a final newline adds none). */
  lineCount: number;
}

/** Why a file's text cannot be shown verbatim. */
export interface FileUnavailable {
  reason: 'missing' | 'changed-since-indexing' | 'unreadable' | 'not-indexed';
  message: string;
}

/** An object defining a name, as the index knows it. */
export interface Definition extends LineSpan {
  name: string;
  qualifiedName: string;
  kind: string;
}

/** A line that uses a name (a call, an import, an inheritance), with the using object. */
export interface CallerLine {
  path: string;
  line: number;
  /** Qualified name of the using object. */
  from: string;
}

/** A line of an indexed file holding a literal string. */
export interface StringHit {
  path: string;
  line: number;
}

/**
 * The read side `allot files` needs; `indexer/store/file-source.ts` implements
 * it over the index (and the files on disk, for byte-exact text).
 */
export interface FileSource {
  /** Every indexed path, sorted. */
  paths(): string[];
  /** The language the index parsed a path as (`text` for non-code files), or null when not indexed. */
  language(path: string): string | null;
  /** The verbatim text of an indexed file, or why it cannot be shown. */
  content(path: string): FileContent | FileUnavailable;
  /** BM25 of the query over whole files (indexed texts), best first; only files with a positive score. */
  fileScores(query: string): Map<string, number>;
  /** BM25 of the query over object views (the full-text index), the best views' scores summed per object's file. */
  objectScores(query: string): Map<string, number>;
  /**
   * Dense similarity of the query to objects (the index's vectors), the best per source file; absent when the
   * index has no vectors. Queries must have been passed to `prepareDense` first when the model embeds asynchronously.
   */
  denseScores?(query: string): Map<string, number>;
  /** Embeds these queries for `denseScores` (a model that embeds asynchronously). */
  prepareDense?(queries: string[]): Promise<void>;
  /** Source files (neither tests nor docs) whose text holds the identifier whole (case-insensitive). */
  mentions(identifier: string): string[];
  /** Objects whose name (or qualified name) is `name`. */
  definitions(name: string): Definition[];
  /** Lines that call, import or inherit an object named `name` (resolved references first). */
  callers(name: string): CallerLine[];
  /** Lines of indexed files containing `text` literally, at most `limit`. */
  strings(text: string, limit?: number): StringHit[];
  /** For the chunk-bm25 baseline: 20-line chunks of every source file ranked by BM25 of the query, best first. */
  chunks(query: string): (LineSpan & { score: number })[];
}

/** One of the three typed searches. */
export interface SearchSpec {
  kind: 'definition' | 'callers' | 'string';
  /** A name (`definition`, `callers`) or a literal text (`string`). */
  query: string;
}

/** What the pipeline asks an answer source: which files must change? */
export interface LocalizationRequest {
  issue: string;
  /** The path inventory, alphabetical. */
  inventory: string[];
}

/** One answer: a ranked list of paths (best first), and optionally the searches its author wants run. */
export interface Answer {
  paths: string[];
  searches?: SearchSpec[];
}

/**
 * Where answers to "which files must change?" come from: paths given by the
 * caller, a model allot asks over HTTP, the offline localizer, and later the MCP
 * host's model through sampling. Answers must be independent of one another.
 */
export interface AnswerSource {
  /** Shown in the output's `localization.source`: `given`, `llm`, `offline`, ... */
  readonly name: string;
  /**
   * The `index`-th answer (0 and 1 are asked together, 2 only when those two
   * share no file). Null when this source has no such answer (the next source
   * in line is asked instead); a thrown error means the source failed.
   */
  answer(request: LocalizationRequest, index: number): Promise<Answer | null>;
  /**
   * How the answers' agreement is read: `all` (the default) keeps every file both answers name; `top` keeps a file
   * after the first only when some answer ranks it first (see `agreeAtTheTop`).
   */
  readonly agreement?: 'all' | 'top';
}

/** The localization step's record. */
export interface Localization {
  /** Every answer used, in order, as given (before filtering). */
  answers: string[][];
  /**
   * The files kept: named by both of the first two answers, or by the third and either (for the offline localizer,
   * after the first only those some answer ranks first); when no two answers share a file, the first answer's first.
   */
  agreed: string[];
  /** How `agreed` was read: every shared file, shared files at the top, or `none` (no two answers agree, or a baseline). */
  agreement: 'all' | 'top' | 'none';
  /** The source of the answers, e.g. `offline`, `llm`, `given`, `given+offline`. */
  source: string;
  /** Paths dropped from the answers and why. */
  dropped: { path: string; reason: 'test' | 'doc' | 'not-indexed' }[];
}

/** One typed search as run, with the spans it added. */
export interface SearchRecord extends SearchSpec {
  /** `model` (chosen by a model or the caller) or `issue` (derived from the issue text). */
  origin: 'model' | 'issue';
  /** Spans found (before the file limits). */
  found: number;
  /** Spans it added as evidence. */
  added: LineSpan[];
}

export type BlockRole = 'file' | 'evidence' | 'chunk';

/** One rendered block: a whole file, or an evidence span (or, for chunk-bm25, a chunk). */
export interface FileBlock {
  path: string;
  role: BlockRole;
  startLine: number;
  endLine: number;
  /** Exact tokens of the block as it stands in `text` (header line included). */
  tokens: number;
  /** The lines startLine..endLine, verbatim. */
  text: string;
  /** For evidence: the search that found it, e.g. `definition Session.send`. */
  search?: string;
}

/** A block that was not shown, and why. */
export interface SkippedBlock {
  path: string;
  role: BlockRole;
  startLine: number;
  endLine: number;
  /** Tokens the block would have taken (0 when its text could not be read). */
  tokens: number;
  reason: string;
}

/** The whole answer of `allot files` (and of `POST /v1/files/select`). */
export interface FileSelection {
  issue: string;
  budget: number;
  tokenizer: TokenizerName;
  /** Exact tokens of `text`. */
  totalTokens: number;
  localization: Localization;
  searches: SearchRecord[];
  blocks: FileBlock[];
  skipped: SkippedBlock[];
  /** Problems that did not stop the selection (a model that failed, a stale index...). */
  warnings: string[];
  /** The rendered context. */
  text: string;
  /** With a session: chosen files left out because the session already has them unchanged. */
  alreadyShown?: string[];
  /** Set when a baseline produced the selection instead of the selector. */
  baseline?: 'file-bm25' | 'chunk-bm25';
}
