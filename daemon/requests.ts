/**
 * Validation of API inputs (zod), pure. The shapes are the CLI's: a search
 * takes what `allot search` takes, a context request what `allot context`
 * takes, and the allocation options are checked by the allocator's own
 * schema so both paths accept and reject exactly the same things.
 */
import { z } from 'zod';
import { AllocateOptionsSchema, LIMITS, type AllocateOptions } from '../allocator/options.ts';
import { normalizePath } from '../indexer/paths.ts';
import { BASELINES } from '../allocator/files/baselines.ts';
import { FILE_RETRIEVERS } from '../allocator/files/offline.ts';
import { RETRIEVER_NAMES } from '../indexer/retrieve/names.ts';
import type { RetrievalOptions } from '../indexer/retrieve/select.ts';
import { TOKENIZER_NAMES } from '../indexer/tokenizer.ts';

/**
 * Request maxima (beyond: 400 `invalid-request`; the README's API section lists them). The allocation
 * options' own are `LIMITS` in allocator/options.ts. At these maxima one request costs at most about
 * 1.5 CPU-seconds and a few MB of answer on SymPy's index (see BENCHMARKS.md).
 */
/** The longest query accepted (characters). */
export const MAX_QUERY_CHARS = 10_000;
export const MAX_K = 10_000;
export const MAX_PATH_CHARS = 4096;

/** A repository-relative path (see `parseFilePath`), normalised. */
export const RepoPathSchema = z.string().max(MAX_PATH_CHARS).transform((raw, ctx) => {
  const p = parseFilePath(raw);
  if (p.ok) return p.value;
  ctx.addIssue({ code: 'custom', message: `${p.message} (got ${JSON.stringify(raw.slice(0, 200))})` });
  return z.NEVER;
});

/** How to retrieve, as `--retriever` and `--path` say it on the command line. */
const retrieval = {
  retriever: z.enum(RETRIEVER_NAMES).optional(),
  path: RepoPathSchema.optional(),
  line: z.number().int().min(1).max(2 ** 31 - 1).optional(),
  rrfK: z.number().int().min(1).max(1000).optional(),
};

export const SearchRequestSchema = z.object({
  query: z.string().max(MAX_QUERY_CHARS),
  k: z.number().int().min(1).max(MAX_K).default(20),
  ...retrieval,
}).strict();

/** `POST /v1/search` body. */
export type SearchRequest = z.input<typeof SearchRequestSchema>;

/** A client's name for one task's run of calls; see allocator/already-shown.ts. */
export const SessionSchema = z.string().min(1).max(200);

export const ContextRequestSchema = AllocateOptionsSchema.extend({
  query: z.string().max(MAX_QUERY_CHARS),
  ...retrieval,
  session: SessionSchema.optional(),
}).strict();

/** `POST /v1/context` body: the query plus `allot context`'s options (`slots` as `"4+1"` or `{core, companion}`). */
export type ContextRequest = z.input<typeof ContextRequestSchema>;

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

function describe(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
}

export function parseWith<S extends z.ZodType>(schema: S, body: unknown): Parsed<z.output<S>> {
  const r = schema.safeParse(body);
  return r.success ? { ok: true, value: r.data } : { ok: false, message: describe(r.error) };
}

export function parseSearchRequest(body: unknown): Parsed<{ query: string; k: number; retrieval: RetrievalOptions }> {
  const r = parseWith(SearchRequestSchema, body);
  if (!r.ok) return r;
  const { query, k, ...rest } = r.value;
  const retrieval = retrievalOf(rest);
  return retrieval.ok ? { ok: true, value: { query, k, retrieval: retrieval.value } } : retrieval;
}

export function parseContextRequest(body: unknown): Parsed<{ query: string; options: AllocateOptions; retrieval: RetrievalOptions; session?: string }> {
  const r = parseWith(ContextRequestSchema, body);
  if (!r.ok) return r;
  const { query, retriever, path, line, rrfK, session, ...options } = r.value;
  const retrieval = retrievalOf({ retriever, path, line, rrfK });
  return retrieval.ok ? { ok: true, value: { query, options, retrieval: retrieval.value, session } } : retrieval;
}

/** The retrieval fields of a request; a cursor's `line` means nothing without the `path` it is in. */
function retrievalOf(r: RetrievalOptions): Parsed<RetrievalOptions> {
  if (r.line !== undefined && r.path === undefined) return { ok: false, message: 'line: needs path (the file the line is in)' };
  return { ok: true, value: { retriever: r.retriever, path: r.path, line: r.line, rrfK: r.rrfK } };
}

/** The longest issue text accepted (characters). */
export const MAX_ISSUE_CHARS = 200_000;

export const InventoryRequestSchema = z.object({
  issue: z.string().min(1).max(MAX_ISSUE_CHARS),
  tokenizer: z.enum(TOKENIZER_NAMES).optional(),
}).strict();

/** `POST /v1/inventory` body: what `allot inventory` takes. */
export type InventoryRequest = z.input<typeof InventoryRequestSchema>;

export function parseInventoryRequest(body: unknown): Parsed<z.output<typeof InventoryRequestSchema>> {
  return parseWith(InventoryRequestSchema, body);
}

export const FilesSelectRequestSchema = z.object({
  issue: z.string().min(1).max(MAX_ISSUE_CHARS),
  budget: z.number().int().min(0).max(LIMITS.budget).optional(),
  tokenizer: z.enum(TOKENIZER_NAMES).optional(),
  /** Ranked answers to "which files must change?" (`--answer`); with them no model is asked. */
  answers: z.array(z.array(z.string().max(MAX_PATH_CHARS)).max(200)).max(3).optional(),
  /** Typed searches (`--search`): `definition NAME`, `callers NAME`, `string "TEXT"`. */
  searches: z.array(z.string().max(1000)).max(4).optional(),
  /** Who produced `answers`, shown as `localization.source` (default `given`; the MCP server says `sampling`). */
  answersFrom: z.string().regex(/^[a-z][a-z0-9+-]{0,31}$/, 'a short lower-case name').optional(),
  baseline: z.enum(BASELINES).optional(),
  /** How the offline localizer ranks objects (`--retriever`): bm25 (default), hybrid or dense. */
  retriever: z.enum(FILE_RETRIEVERS).optional(),
  /** Ask the model configured by ALLOT_LLM_URL in the daemon's environment (default true; `--no-llm`). */
  llm: z.boolean().default(true),
  session: SessionSchema.optional(),
}).strict();

/** `POST /v1/files/select` body: what `allot files` takes. */
export type FilesSelectRequest = z.input<typeof FilesSelectRequestSchema>;

export type FilesSelectRequestParsed = z.output<typeof FilesSelectRequestSchema>;

export function parseFilesSelectRequest(body: unknown): Parsed<FilesSelectRequestParsed> {
  return parseWith(FilesSelectRequestSchema, body);
}

/** `GET /v1/objects?path=P&name=N`: the objects of one indexed file with that name or qualified name. */
export function parseObjectLookup(path: string | undefined, name: string | undefined): Parsed<{ path: string; name: string }> {
  const p = parseFilePath(path);
  if (!p.ok) return p;
  if (!name || name.length > 1000) return { ok: false, message: 'missing or overlong ?name= (at most 1000 characters)' };
  return { ok: true, value: { path: p.value, name } };
}

/** Body text to JSON, or a message saying why not. */
export function parseJsonBody(text: string): Parsed<unknown> {
  if (!text.trim()) return { ok: false, message: 'empty body: expected a JSON object' };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    return { ok: false, message: `malformed JSON: ${(err as Error).message}` };
  }
}

export const ObjectIdSchema = z.string().regex(/^[0-9a-f]{16}$/, 'object ids are 16 hex digits');

/**
 * A `/v1/files` path: repo-relative, `/`-separated, inside the repository.
 * Absolute paths, `..` segments, backslashes and NUL bytes are refused, before
 * any lookup.
 */
export function parseFilePath(raw: string | undefined): Parsed<string> {
  if (raw === undefined || raw === '') return { ok: false, message: 'missing path' };
  if (raw.length > MAX_PATH_CHARS) return { ok: false, message: `path too long (over ${MAX_PATH_CHARS} characters)` };
  if (raw.includes('\0')) return { ok: false, message: 'path contains a NUL byte' };
  if (raw.includes('\\')) return { ok: false, message: 'path must use / separators' };
  if (raw.startsWith('/') || /^[A-Za-z]:/.test(raw)) return { ok: false, message: 'path must be relative to the repository' };
  if (raw.split('/').some((s) => s === '..')) return { ok: false, message: 'path must not contain ..' };
  const normal = normalizePath(raw);
  if (!normal || normal === '.' || normal.startsWith('../')) return { ok: false, message: 'path is not inside the repository' };
  return { ok: true, value: normal };
}

export const ArbitrateRequestSchema = z.object({
  /** The default program's text (a whole file, or one function meant for `at`). */
  default: z.string().max(200_000),
  alternative: z.string().max(200_000),
  language: z.enum(['python', 'typescript', 'tsx', 'javascript']),
  /** `path[:symbol]`, repository-relative: the file that supplies imports and scope. */
  at: z.string().max(MAX_PATH_CHARS).optional(),
}).strict();

/** `POST /v1/arbitrate` body: what `allot arbitrate` reads from its files and flags. */
export type ArbitrateRequest = z.input<typeof ArbitrateRequestSchema>;

export function parseArbitrateRequest(body: unknown): Parsed<z.output<typeof ArbitrateRequestSchema> & { target?: { path: string; symbol?: string } }> {
  const r = parseWith(ArbitrateRequestSchema, body);
  if (!r.ok || !r.value.at) return r;
  const colon = r.value.at.lastIndexOf(':');
  const [file, symbol] = colon > 0 ? [r.value.at.slice(0, colon), r.value.at.slice(colon + 1) || undefined] : [r.value.at, undefined];
  const rel = normalizePath(file);
  if (rel.startsWith('..') || rel.startsWith('/')) return { ok: false, message: `at: ${r.value.at} is not a path inside the repository` };
  return { ok: true, value: { ...r.value, target: { path: rel, symbol } } };
}
