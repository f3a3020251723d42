/**
 * The MCP tools: names, descriptions and input schemas that tell a model when
 * to use each (every accepted value and bound is stated), and handlers that
 * turn a backend's answer into text (for the model) plus the same answer as
 * JSON (`structuredContent`). A handler never throws: every failure comes back
 * as a tool error with a message. While no full build has finished, a call
 * waits a bounded time for it, then answers from what is indexed and says so
 * first.
 */
import { z } from 'zod';
import { arbitrationText } from '../../allocator/arbitrate/report.ts';
import { parseSlots } from '../../allocator/options.ts';
import { RETRIEVER_NAMES } from '../../indexer/retrieve/names.ts';
import { OBJECT_KINDS, REFERENCE_FILTERS } from '../../indexer/types.ts';
import { BackendError, type Backend, type IndexStatus } from './backend.ts';
import {
  CONTEXT_BUDGET, CONTEXT_SLOTS, DEFAULT_READ_BUDGET, DEFAULT_REFERENCE_LIMIT, DEFAULT_SYMBOL_LIMIT, MAX_GLOB_CHARS, MAX_ISSUE_CHARS, MAX_LINE,
  MAX_NAME_CHARS, MAX_PATH_CHARS, MAX_PROGRAM_CHARS, MAX_QUERY_CHARS, MAX_READ_BUDGET, MAX_REFERENCE_LIMIT, MAX_SESSION_CHARS, MAX_SYMBOL_LIMIT,
  SEARCH_K, SELECT_BUDGET,
} from './limits.ts';
import {
  catchingUpLine, contextText, incompleteLine, objectText, outlineText, readFileHeader, referencesText, searchText, selectionText, statusText, symbolText,
} from './render.ts';
import { sampledAnswers, type AskModel } from './sampling.ts';
import { DEFAULT_INDEX_WAIT_MS } from './index-wait.ts';

export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: z.ZodRawShape;
  annotations: { readOnlyHint: boolean; openWorldHint: boolean };
  handle(args: Record<string, unknown>): Promise<ToolResult>;
}

/** What the tools need besides the backend: the host's model, when the host offers sampling. */
export interface ToolHost {
  /** Null when the host did not declare the sampling capability. */
  askModel(): AskModel | null;
  log(line: string): void;
  /** How long a call waits for a first full build to finish before answering from what is indexed (default 10 s). */
  indexWaitMs?: number;
}

const POLL_MS = 200;

const session = z
  .string()
  .min(1)
  .max(MAX_SESSION_CHARS)
  .optional()
  .describe(`Any id you choose for this task (1-${MAX_SESSION_CHARS} characters, e.g. the task or conversation id). Within one session, objects and files already sent unchanged are not sent again: they are listed as "(already shown: ...)" so each call brings new evidence.`);

/** A repository-relative path argument: checked by the backend (relative, inside the repository, existing). */
const repoPath = (what: string) =>
  z.string().min(1).max(MAX_PATH_CHARS).describe(`${what} Repository-relative, with / separators (e.g. src/app/models.py); absolute paths and .. are refused, and the file must exist.`);

const retrieval = {
  retriever: z.enum(RETRIEVER_NAMES).optional().describe('How to retrieve: hybrid (default: BM25 fused with structural resolution of the code in the query, plus dense for prose when the index has vectors), bm25 (words only), structural (what the code in the query imports, calls and names, and its reference-graph neighbours), or dense (embedding similarity; only when the index was built with vectors, an error otherwise).'),
  path: repoPath('The file the query comes from (the file being edited): resolves its relative imports and keeps its own objects out of the results.').optional(),
  line: z.number().int().min(1).max(2 ** 31 - 1).optional().describe("With path: the cursor's line in that file. The names its code above already uses are not the ones the next lines are about to use, so the still-unused imports rank first."),
};

const text = (t: string, structured?: object): ToolResult => ({
  content: [{ type: 'text', text: t }],
  ...(structured ? { structuredContent: structured as Record<string, unknown> } : {}),
});

export const toolError = (message: string): ToolResult => ({ content: [{ type: 'text', text: message }], isError: true });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The status, after waiting up to `waitMs` for a first full build to finish. */
async function settledStatus(backend: Backend, waitMs: number): Promise<IndexStatus | null> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const s = await backend.status().catch((): IndexStatus | null => null);
    if (!s || s.complete || Date.now() + POLL_MS > deadline) return s;
    await sleep(POLL_MS);
  }
}

interface Answer {
  /** Text items: the first carries the notes around it. */
  text: string[];
  json: object;
}

/**
 * Runs a call once the index is complete or the bounded wait is over. An answer from an incomplete index starts
 * with a line saying so (and its JSON carries `complete: false` with the progress); the catching-up note ends it.
 */
async function withIndex(backend: Backend, waitMs: number, call: (complete: boolean) => Promise<Answer>, known: { complete: boolean }): Promise<ToolResult> {
  let status: IndexStatus | null;
  let r: Answer;
  if (known.complete) {
    // Once complete, always complete: the status (for the catching-up note) is fetched alongside the call.
    [status, r] = await Promise.all([backend.status().catch((): IndexStatus | null => null), call(true)]);
  } else {
    status = await settledStatus(backend, waitMs);
    known.complete = status?.complete ?? false;
    try {
      r = await call(status?.complete ?? true);
    } catch (err) {
      // "No object named X" from an incomplete index is not evidence either: the refusal says so first.
      const first = incompleteLine(status);
      if (err instanceof BackendError && first) throw new BackendError(`${first}\n\n${err.message}`);
      throw err;
    }
  }
  const complete = status?.complete ?? true;
  const first = incompleteLine(status);
  const last = catchingUpLine(status);
  const parts = [...r.text];
  if (first) parts[0] = `${first}\n\n${parts[0]}`;
  if (last) parts[parts.length - 1] = `${parts[parts.length - 1]}\n\n${last}`;
  const json = complete || Array.isArray(r.json) ? r.json : { ...r.json, complete: false, progress: status?.progress ?? null };
  return { content: parts.map((t) => ({ type: 'text' as const, text: t })), structuredContent: json as Record<string, unknown> };
}

/** `4+1`, or K as a number or digits (K-1 core objects and one companion). */
function slotsOf(v: string | number | undefined): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'number' || /^\s*\d+\s*$/.test(v)) {
    const k = Number(v);
    if (!Number.isInteger(k) || k < CONTEXT_SLOTS.min || k > CONTEXT_SLOTS.max) {
      throw new BackendError(`slots must be from ${CONTEXT_SLOTS.min} to ${CONTEXT_SLOTS.max} (one core object and one companion at least), got ${v}`);
    }
    return `${k - 1}+1`;
  }
  let s;
  try {
    s = parseSlots(v);
  } catch (err) {
    throw new BackendError((err as Error).message);
  }
  if (s.core + s.companion > CONTEXT_SLOTS.max) throw new BackendError(`slots must add up to at most ${CONTEXT_SLOTS.max}, got ${v}`);
  return v;
}

export function defineTools(backend: Backend, host: ToolHost): ToolDefinition[] {
  const waitMs = host.indexWaitMs ?? DEFAULT_INDEX_WAIT_MS;
  const known = { complete: false };
  const run = (call: (complete: boolean) => Promise<Answer>) => withIndex(backend, waitMs, call, known);
  const tools: ToolDefinition[] = [
    {
      name: 'search_code',
      title: 'Search code',
      description:
        'Find where something is in this repository: ranked functions, classes, methods and types whose name, signature, body or docstring match the query, one compact line each (path:lines, qualified name, kind, object id). Use it to locate code by words; use find_symbol when you know the name, get_context when you need the code itself, read_object to read one result whole.',
      inputSchema: {
        query: z.string().min(1).max(MAX_QUERY_CHARS).describe(`Words, identifiers or code to look for (1-${MAX_QUERY_CHARS} characters).`),
        k: z.number().int().min(SEARCH_K.min).max(SEARCH_K.max).optional().describe(`How many results, ${SEARCH_K.min}-${SEARCH_K.max} (default ${SEARCH_K.default}).`),
        ...retrieval,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
      handle: (a) =>
        run(async (complete) => {
          const hits = await backend.search({ query: a.query as string, k: (a.k as number | undefined) ?? SEARCH_K.default, retriever: a.retriever as never, path: a.path as string | undefined, line: a.line as number | undefined });
          return { text: [searchText(hits, complete)], json: { hits } };
        }),
    },
    {
      name: 'get_context',
      title: 'Get code context',
      description:
        'The code most relevant to a query, packed into a token budget: whole functions, classes and methods (one slot per object, never the same object twice), each with its path and signature and the largest query-centred window that fits; when the query is code, the objects it imports, calls or names come as their heads (declaration and first lines), and the budget left lists the heads of more of them. Use it before writing or changing code, with the lines around the cursor (imports included) or a description of what you need. Pass a session id to get only new evidence on repeated calls. A budget too small for anything comes back as an error saying what it would need.',
      inputSchema: {
        query: z.string().min(1).max(MAX_QUERY_CHARS).describe(`Code (e.g. the lines before the cursor, with the file's imports), identifiers, a stack trace, or a description (1-${MAX_QUERY_CHARS} characters).`),
        budget: z.number().int().min(CONTEXT_BUDGET.min).max(CONTEXT_BUDGET.max).optional().describe(`Token budget of the whole context, ${CONTEXT_BUDGET.min}-${CONTEXT_BUDGET.max} (default ${CONTEXT_BUDGET.default}).`),
        slots: z.union([z.string().max(20), z.number().int()]).optional().describe(`How many objects: K from ${CONTEXT_SLOTS.min} to ${CONTEXT_SLOTS.max} (default 5: 4 core objects and 1 companion), or "core+companions" such as "4+1" or "3+2" (at least one core object, at most ${CONTEXT_SLOTS.max} in all).`),
        ...retrieval,
        session,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
      handle: async (a) => {
        const slots = slotsOf(a.slots as string | number | undefined);
        const result = await run(async (complete) => {
          const allocation = await backend.context({
            query: a.query as string, ...(a.budget !== undefined ? { budget: a.budget as number } : {}), ...(slots ? { slots } : {}),
            retriever: a.retriever as never, path: a.path as string | undefined, line: a.line as number | undefined, session: a.session as string | undefined,
          });
          return { text: [contextText(allocation, complete)], json: allocation };
        });
        // Nothing fit: an error the model can act on (a larger budget), not an empty context.
        const json = result.structuredContent as { blocks?: unknown[]; warnings?: string[] } | undefined;
        return json && !json.blocks?.length && json.warnings?.some((w) => w.startsWith('nothing fit')) ? { ...result, isError: true } : result;
      },
    },
    {
      name: 'select_files',
      title: 'Select files to fix an issue',
      description:
        `For fixing a bug or an issue: the files that must change, shown whole and verbatim (quote their lines exactly in your edit), plus short evidence spans (definitions, callers, error strings) from a few other files, within a token budget (default ${SELECT_BUDGET.default}). Give the full issue text. The files are localized by two independent answers kept where they agree: your host's model is asked through MCP sampling when available, else a configured model, else allot's offline localizer; the result says which answered.`,
      inputSchema: {
        issue: z.string().min(1).max(MAX_ISSUE_CHARS).describe(`The issue or bug report, whole: title, description, tracebacks, error messages (1-${MAX_ISSUE_CHARS} characters).`),
        budget: z.number().int().min(SELECT_BUDGET.min).max(SELECT_BUDGET.max).optional().describe(`Token budget of the whole context, ${SELECT_BUDGET.min}-${SELECT_BUDGET.max} (default ${SELECT_BUDGET.default}).`),
        session,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
      handle: (a) =>
        run(async () => {
          const issue = a.issue as string;
          const common = { issue, ...(a.budget !== undefined ? { budget: a.budget as number } : {}), session: a.session as string | undefined };
          const ask = host.askModel();
          let warning: string | null = null;
          if (ask) {
            try {
              const inv = await backend.inventory({ issue });
              const { answers, searches } = await sampledAnswers(issue, inv.paths, ask);
              const selection = await backend.selectFiles({ ...common, answers, searches, answersFrom: 'sampling' });
              return { text: [selectionText(selection)], json: selection };
            } catch (err) {
              if (err instanceof BackendError) throw err;
              warning = `the host's model did not answer through sampling (${(err as Error).message}); another source answered`;
              host.log(warning);
            }
          }
          const selection = await backend.selectFiles(common);
          if (warning) selection.warnings.unshift(warning);
          return { text: [selectionText(selection)], json: selection };
        }),
    },
    {
      name: 'read_object',
      title: 'Read one code object',
      description:
        'One function, method, class or type whole, exactly as written, with what it references and where it is referenced from (callers, importers, subclasses). Identify it by the id from search_code, find_symbol or get_context, or by its file path and name (plain or qualified, e.g. "Parser.parse").',
      inputSchema: {
        id: z.string().regex(/^[0-9a-f]{16}$/, 'object ids are 16 hex digits').optional().describe('The object id (16 hex digits).'),
        path: repoPath('The file defining it (with name).').optional(),
        name: z.string().min(1).max(MAX_NAME_CHARS).optional().describe(`Its name or qualified name (with path; 1-${MAX_NAME_CHARS} characters).`),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
      handle: (a) =>
        run(async () => {
          const id = a.id as string | undefined;
          if (id) {
            const found = await backend.object(id);
            if (!found) throw new BackendError(`no object ${id} in the index (it may have changed: search again)`);
            return { text: [objectText(found)], json: found };
          }
          if (!a.path || !a.name) throw new BackendError('give either id, or both path and name');
          const matches = await backend.findObjects(a.path as string, a.name as string);
          if (!matches.length) throw new BackendError(`no object named ${a.name as string} in ${a.path as string} (is the path repository-relative and indexed?)`);
          const found = await backend.object(matches[0].id);
          if (!found) throw new BackendError(`the object ${a.name as string} vanished from the index while reading it: try again`);
          return { text: [objectText(found, matches.slice(1))], json: { ...found, otherMatches: matches.slice(1) } };
        }),
    },
    {
      name: 'find_symbol',
      title: 'Find a definition by name',
      description:
        `Where a function, class, method, type or constant is defined, by name: exact matches first (its name, its qualified name such as "Parser.parse", or module path plus qualified name such as "pkg.parser.Parser.parse"; "Parser::parse" and "Parser#parse" also work), then names starting with it, then names made of the same identifier parts ("parse config" finds parse_config_file and parseConfig). Each match: path:lines, kind, qualified name, signature and id (for read_object and find_references). Use it instead of search_code when you know the name.`,
      inputSchema: {
        name: z.string().min(1).max(MAX_NAME_CHARS).describe(`A name or qualified name (1-${MAX_NAME_CHARS} characters).`),
        kind: z.enum(OBJECT_KINDS).optional().describe(`Only objects of this kind: ${OBJECT_KINDS.join(', ')} (module: a source file as a whole; file: a non-code text file).`),
        path: z.string().min(1).max(MAX_GLOB_CHARS).optional().describe(`Only under these repository paths: a glob such as "src/**/*.ts" or "**/tests/**", or a plain folder or file path such as "src/parser" (1-${MAX_GLOB_CHARS} characters).`),
        limit: z.number().int().min(1).max(MAX_SYMBOL_LIMIT).optional().describe(`How many matches, 1-${MAX_SYMBOL_LIMIT} (default ${DEFAULT_SYMBOL_LIMIT}).`),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
      handle: (a) =>
        run(async (complete) => {
          const r = await backend.findSymbol({ name: a.name as string, kind: a.kind as never, path: a.path as string | undefined, limit: a.limit as number | undefined });
          return { text: [symbolText(r, complete)], json: r };
        }),
    },
    {
      name: 'find_references',
      title: 'Find references to an object',
      description:
        `Who calls, imports, inherits from or tests an object, from the references the index resolved: each use with its path:line, the kind of use, the function, method or class it sits in, and the line's text; uses from code first, then uses from tests. Identify the object by id (from find_symbol, search_code or read_object), or by name (plain or qualified) and, to pick one of several, the path of the file defining it. Filter with kinds: ${REFERENCE_FILTERS.join(', ')} (test: uses from test code).`,
      inputSchema: {
        id: z.string().regex(/^[0-9a-f]{16}$/, 'object ids are 16 hex digits').optional().describe('The object id (16 hex digits).'),
        name: z.string().min(1).max(MAX_NAME_CHARS).optional().describe(`Its name or qualified name, when no id is given (1-${MAX_NAME_CHARS} characters): every object of exactly that name is looked at.`),
        path: repoPath('With name: the file defining the object.').optional(),
        kinds: z.array(z.enum(REFERENCE_FILTERS)).min(1).max(REFERENCE_FILTERS.length).optional().describe(`Only these uses: any of ${REFERENCE_FILTERS.join(', ')} (default all).`),
        limit: z.number().int().min(1).max(MAX_REFERENCE_LIMIT).optional().describe(`How many uses, 1-${MAX_REFERENCE_LIMIT} (default ${DEFAULT_REFERENCE_LIMIT}).`),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
      handle: (a) =>
        run(async (complete) => {
          if (!a.id && !a.name) throw new BackendError('give either id, or name (and optionally path)');
          const r = await backend.findReferences({
            ...(a.id ? { id: a.id as string } : { name: a.name as string, ...(a.path ? { path: a.path as string } : {}) }),
            kinds: a.kinds as never, limit: a.limit as number | undefined,
          });
          return { text: [referencesText(r, complete)], json: r };
        }),
    },
    {
      name: 'file_outline',
      title: 'Outline a file',
      description:
        'The objects of one file as a tree (classes with their methods, functions with nested definitions), each with its lines, kind, name, signature and id: a map of a file before reading it. Then read_file or read_object reads what you need.',
      inputSchema: {
        path: repoPath('The file to outline.'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
      handle: (a) =>
        run(async () => {
          const r = await backend.outline({ path: a.path as string });
          return { text: [outlineText(r)], json: r };
        }),
    },
    {
      name: 'read_file',
      title: 'Read lines of a file',
      description:
        `Lines of one repository file, verbatim as indexed (quote them exactly when editing), within a token budget: the whole file, or startLine..endLine. What does not fit ends at the last whole line that does, and the result says which line to continue from. Default budget ${DEFAULT_READ_BUDGET} tokens, at most ${MAX_READ_BUDGET}.`,
      inputSchema: {
        path: repoPath('The file to read.'),
        startLine: z.number().int().min(1).max(MAX_LINE).optional().describe(`First line, 1-based (default 1; at most ${MAX_LINE}).`),
        endLine: z.number().int().min(1).max(MAX_LINE).optional().describe('Last line, inclusive (default: the end of the file); not before startLine.'),
        budget: z.number().int().min(1).max(MAX_READ_BUDGET).optional().describe(`Most tokens of text returned, 1-${MAX_READ_BUDGET} (default ${DEFAULT_READ_BUDGET}).`),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
      handle: (a) =>
        run(async () => {
          const r = await backend.readFile({
            path: a.path as string, startLine: a.startLine as number | undefined, endLine: a.endLine as number | undefined, budget: a.budget as number | undefined,
          });
          // The header and the verbatim lines are two items, so the lines stay exactly as in the file.
          return { text: [readFileHeader(r), r.text], json: r };
        }),
    },
    {
      name: 'index_status',
      title: 'Index status',
      description: 'What allot has indexed for this repository (files, objects, languages), whether a full build has finished (and how far the first one is), whether the index is catching up with recent edits, and which allot daemon serves this session and how to stop it.',
      inputSchema: {},
      annotations: { readOnlyHint: true, openWorldHint: false },
      handle: async () => {
        const s = await backend.status();
        return text(statusText(s), s);
      },
    },
    {
      name: 'arbitrate_programs',
      title: 'Choose between two candidate programs',
      description:
        'When you have two candidate versions of the same code (a default and an alternative), decide with typed evidence from this repository\'s index whether to switch: syntax repair, calls matching the repository\'s real signatures, fewer undefined names, and safe compactness. It answers "alternative" only when some witness favours it and none favours the default; otherwise it keeps the default.',
      inputSchema: {
        default: z.string().min(1).max(MAX_PROGRAM_CHARS).describe(`The default program (a whole file or one function; 1-${MAX_PROGRAM_CHARS} characters).`),
        alternative: z.string().min(1).max(MAX_PROGRAM_CHARS).describe(`The alternative program (1-${MAX_PROGRAM_CHARS} characters).`),
        language: z.enum(['python', 'typescript', 'tsx', 'javascript']).describe('Their language: python, typescript, tsx or javascript.'),
        at: z.string().max(MAX_PATH_CHARS).optional().describe('path[:symbol] of the repository file (and function) the code is meant for, repository-relative (e.g. shop/cart.py:Cart.total): it supplies imports and scope.'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
      handle: (a) =>
        run(async () => {
          const r = await backend.arbitrate({ default: a.default as string, alternative: a.alternative as string, language: a.language as never, at: a.at as string | undefined });
          return { text: [arbitrationText(r)], json: r };
        }),
    },
  ];
  return tools.map((t) => ({ ...t, handle: guarded(t.handle) }));
}

/** Every failure as a tool error the model can read; the server keeps running. */
function guarded(handle: ToolDefinition['handle']): ToolDefinition['handle'] {
  return async (args) => {
    try {
      return await handle(args);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      return toolError(err instanceof BackendError ? message : `allot failed: ${message}`);
    }
  };
}
