/**
 * Validation of API inputs (zod), pure. The shapes are the CLI's: a search
 * takes what `allot search` takes, a context request what `allot context`
 * takes, and the allocation options are checked by the allocator's own
 * schema so both paths accept and reject exactly the same things.
 */
import { z } from 'zod';
import { AllocateOptionsSchema, type AllocateOptions } from '../allocator/options.ts';
import { normalizePath } from '../indexer/paths.ts';
import { RETRIEVER_NAMES, type RetrievalOptions } from '../indexer/retrieve/select.ts';

/** The longest query accepted (characters). */
export const MAX_QUERY_CHARS = 10_000;
export const MAX_K = 10_000;

/** How to retrieve, as `--retriever` and `--path` say it on the command line. */
const retrieval = {
  retriever: z.enum(RETRIEVER_NAMES).optional(),
  path: z.string().max(4096).optional(),
};

export const SearchRequestSchema = z.object({
  query: z.string().max(MAX_QUERY_CHARS),
  k: z.number().int().min(1).max(MAX_K).default(20),
  ...retrieval,
}).strict();

/** `POST /v1/search` body. */
export type SearchRequest = z.input<typeof SearchRequestSchema>;

export const ContextRequestSchema = AllocateOptionsSchema.extend({
  query: z.string().max(MAX_QUERY_CHARS),
  ...retrieval,
}).strict();

/** `POST /v1/context` body: the query plus `allot context`'s options (`slots` as `"4+1"` or `{core, companion}`). */
export type ContextRequest = z.input<typeof ContextRequestSchema>;

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

function describe(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`).join('; ');
}

function parseWith<S extends z.ZodType>(schema: S, body: unknown): Parsed<z.output<S>> {
  const r = schema.safeParse(body);
  return r.success ? { ok: true, value: r.data } : { ok: false, message: describe(r.error) };
}

export function parseSearchRequest(body: unknown): Parsed<{ query: string; k: number; retrieval: RetrievalOptions }> {
  const r = parseWith(SearchRequestSchema, body);
  if (!r.ok) return r;
  const { query, k, retriever, path } = r.value;
  return { ok: true, value: { query, k, retrieval: { retriever, path } } };
}

export function parseContextRequest(body: unknown): Parsed<{ query: string; options: AllocateOptions; retrieval: RetrievalOptions }> {
  const r = parseWith(ContextRequestSchema, body);
  if (!r.ok) return r;
  const { query, retriever, path, ...options } = r.value;
  return { ok: true, value: { query, options, retrieval: { retriever, path } } };
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
  if (raw === undefined || raw === '') return { ok: false, message: 'missing ?path=' };
  if (raw.length > 4096) return { ok: false, message: 'path too long' };
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
  at: z.string().max(4096).optional(),
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
