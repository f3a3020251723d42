/**
 * Validation of the symbol tools' requests (`find_symbol`, `find_references`,
 * `file_outline`, `read_file`), pure. The maxima are exported: the MCP tool
 * schemas use the same ones, and the README documents them.
 */
import { z } from 'zod';
import { globProblem } from '../indexer/retrieve/path-glob.ts';
import { TOKENIZER_NAMES } from '../indexer/tokenizer.ts';
import { OBJECT_KINDS, REFERENCE_FILTERS } from '../indexer/types.ts';
import { ObjectIdSchema, parseWith, RepoPathSchema, type Parsed } from './requests.ts';


/** The longest name or qualified name looked up (characters). */
export const MAX_NAME_CHARS = 1000;
/** The longest path glob of `find_symbol` (characters). */
export const MAX_GLOB_CHARS = 1000;
/** `find_symbol`: matches returned (default and most). */
export const DEFAULT_SYMBOL_LIMIT = 20;
export const MAX_SYMBOL_LIMIT = 200;
/** `find_references`: references returned (default and most). */
export const DEFAULT_REFERENCE_LIMIT = 50;
export const MAX_REFERENCE_LIMIT = 1000;
/** `find_references` by name: at most this many objects of that name are looked at. */
export const MAX_REFERENCE_TARGETS = 20;
/** `read_file`: token budget (default and most), and the largest line number accepted. */
export const DEFAULT_READ_BUDGET = 8192;
export const MAX_READ_BUDGET = 100_000;
export const MAX_LINE = 10_000_000;

const name = z.string().trim().min(1, 'must not be empty').max(MAX_NAME_CHARS);

export const SymbolRequestSchema = z.object({
  name,
  kind: z.enum(OBJECT_KINDS).optional(),
  /** A glob over repository paths (`src/**\/*.ts`), or a folder or file path. */
  path: z.string().min(1).max(MAX_GLOB_CHARS)
    .refine((g) => !g.includes('\0') && !g.startsWith('/') && !g.split('/').includes('..'), 'path must be a repository-relative glob (no leading /, no ..)')
    .superRefine((g, ctx) => {
      const problem = globProblem(g);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .optional(),
  limit: z.number().int().min(1).max(MAX_SYMBOL_LIMIT).default(DEFAULT_SYMBOL_LIMIT),
}).strict();

/** `POST /v1/symbols` body. */
export type SymbolRequest = z.input<typeof SymbolRequestSchema>;

export const ReferencesRequestSchema = z.object({
  /** The object, by id (from find_symbol or search) ... */
  id: ObjectIdSchema.optional(),
  /** ... or by name or qualified name, optionally in one file. */
  name: name.optional(),
  path: RepoPathSchema.optional(),
  /** Only these uses: `call`, `import`, `inherit`, `test` (uses from test code). */
  kinds: z.array(z.enum(REFERENCE_FILTERS)).min(1).max(REFERENCE_FILTERS.length).optional(),
  limit: z.number().int().min(1).max(MAX_REFERENCE_LIMIT).default(DEFAULT_REFERENCE_LIMIT),
}).strict().refine((r) => r.id !== undefined || r.name !== undefined, { message: 'give id, or name (and optionally path)' });

/** `POST /v1/references` body. */
export type ReferencesRequest = z.input<typeof ReferencesRequestSchema>;

export const OutlineRequestSchema = z.object({ path: RepoPathSchema }).strict();

/** `POST /v1/outline` body. */
export type OutlineRequest = z.input<typeof OutlineRequestSchema>;

export const ReadFileRequestSchema = z.object({
  path: RepoPathSchema,
  startLine: z.number().int().min(1).max(MAX_LINE).optional(),
  endLine: z.number().int().min(1).max(MAX_LINE).optional(),
  budget: z.number().int().min(1).max(MAX_READ_BUDGET).default(DEFAULT_READ_BUDGET),
  tokenizer: z.enum(TOKENIZER_NAMES).default('cl100k_base'),
}).strict().refine((r) => r.startLine === undefined || r.endLine === undefined || r.endLine >= r.startLine, { message: 'endLine must not be before startLine' });

/** `POST /v1/files/read` body. */
export type ReadFileRequest = z.input<typeof ReadFileRequestSchema>;

export const parseSymbolRequest = (body: unknown): Parsed<z.output<typeof SymbolRequestSchema>> => parseWith(SymbolRequestSchema, body);
export const parseReferencesRequest = (body: unknown): Parsed<z.output<typeof ReferencesRequestSchema>> => parseWith(ReferencesRequestSchema, body);
export const parseOutlineRequest = (body: unknown): Parsed<z.output<typeof OutlineRequestSchema>> => parseWith(OutlineRequestSchema, body);
export const parseReadFileRequest = (body: unknown): Parsed<z.output<typeof ReadFileRequestSchema>> => parseWith(ReadFileRequestSchema, body);
