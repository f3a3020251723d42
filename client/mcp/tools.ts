/**
 * The MCP tools: names, descriptions and input schemas that tell a model when
 * to use each, and handlers that turn a backend's answer into text (for the
 * model) plus the same answer as JSON (`structuredContent`). A handler never
 * throws: every failure comes back as a tool error with a message.
 */
import { z } from 'zod';
import { arbitrationText } from '../../allocator/arbitrate/report.ts';
import { parseSlots } from '../../allocator/options.ts';
import { RETRIEVER_NAMES } from '../../indexer/retrieve/names.ts';
import { BackendError, type Backend, type IndexStatus } from './backend.ts';
import { catchingUpLine, contextText, objectText, searchText, selectionText, statusText } from './render.ts';
import { sampledAnswers, type AskModel } from './sampling.ts';

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
}

const session = z
  .string()
  .min(1)
  .max(200)
  .optional()
  .describe('Any id you choose for this task (e.g. the task or conversation id). Within one session, objects and files already sent unchanged are not sent again: they are listed as "(already shown: ...)" so each call brings new evidence.');

const retrieval = {
  retriever: z.enum(RETRIEVER_NAMES).optional().describe('hybrid (default: BM25 fused with structural resolution of the code in the query), bm25, or structural.'),
  path: z.string().max(4096).optional().describe('The repository-relative file the query comes from (the file being edited): resolves its relative imports and keeps its own code out of the results.'),
};

const text = (t: string, structured?: object): ToolResult => ({
  content: [{ type: 'text', text: t }],
  ...(structured ? { structuredContent: structured as Record<string, unknown> } : {}),
});

export const toolError = (message: string): ToolResult => ({ content: [{ type: 'text', text: message }], isError: true });

/** Appends the catching-up note when the index lags the files; the status is fetched alongside the call. */
async function withStatus(backend: Backend, call: () => Promise<{ text: string; json: object }>): Promise<ToolResult> {
  const [status, r] = await Promise.all([backend.status().catch((): IndexStatus | null => null), call()]);
  const note = catchingUpLine(status);
  return text(note ? `${r.text}\n\n${note}` : r.text, r.json);
}

/** `4+1`, or K as a number or digits (K-1 core objects and one companion). */
function slotsOf(v: string | number | undefined): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'number' || /^\s*\d+\s*$/.test(v)) {
    const k = Number(v);
    if (!Number.isInteger(k) || k < 2) throw new BackendError(`slots must be at least 2 (one core object and one companion), got ${v}`);
    return `${k - 1}+1`;
  }
  parseSlots(v);
  return v;
}

export function defineTools(backend: Backend, host: ToolHost): ToolDefinition[] {
  const tools: ToolDefinition[] = [
    {
      name: 'search_code',
      title: 'Search code',
      description:
        'Find where something is in this repository: ranked functions, classes, methods and types whose name, signature, body or docstring match the query, one compact line each (path:lines, qualified name, kind, object id). Use it to locate code by name or words; use get_context when you need the code itself, read_object to read one result whole.',
      inputSchema: {
        query: z.string().min(1).max(10_000).describe('Words, identifiers or code to look for.'),
        k: z.number().int().min(1).max(200).optional().describe('How many results (default 10).'),
        ...retrieval,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
      handle: (a) =>
        withStatus(backend, async () => {
          const hits = await backend.search({ query: a.query as string, k: (a.k as number | undefined) ?? 10, retriever: a.retriever as never, path: a.path as string | undefined });
          return { text: searchText(hits), json: { hits } };
        }),
    },
    {
      name: 'get_context',
      title: 'Get code context',
      description:
        'The code most relevant to a query, packed into a token budget: whole functions, classes and methods (one slot per object, never the same object twice), each with its path and signature and the largest query-centred window that fits; when the query is code, the objects it imports, calls or names come as their heads (declaration and first lines), and the budget left lists the heads of more of them. Use it before writing or changing code, with the lines around the cursor (imports included) or a description of what you need. Pass a session id to get only new evidence on repeated calls.',
      inputSchema: {
        query: z.string().min(1).max(10_000).describe('Code (e.g. the lines before the cursor, with the file\'s imports), identifiers, a stack trace, or a description.'),
        budget: z.number().int().min(64).max(200_000).optional().describe('Token budget of the whole context (default 4096).'),
        slots: z.union([z.string(), z.number().int()]).optional().describe('How many objects: K (default 5) or "core+companions" (default "4+1").'),
        ...retrieval,
        session,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
      handle: (a) =>
        withStatus(backend, async () => {
          const slots = slotsOf(a.slots as string | number | undefined);
          const allocation = await backend.context({
            query: a.query as string, ...(a.budget !== undefined ? { budget: a.budget as number } : {}), ...(slots ? { slots } : {}),
            retriever: a.retriever as never, path: a.path as string | undefined, session: a.session as string | undefined,
          });
          return { text: contextText(allocation), json: allocation };
        }),
    },
    {
      name: 'select_files',
      title: 'Select files to fix an issue',
      description:
        'For fixing a bug or an issue: the files that must change, shown whole and verbatim (quote their lines exactly in your edit), plus short evidence spans (definitions, callers, error strings) from a few other files, within a token budget (default 80000). Give the full issue text. The files are localized by two independent answers kept where they agree: your host\'s model is asked through MCP sampling when available, else a configured model, else allot\'s offline localizer; the result says which answered.',
      inputSchema: {
        issue: z.string().min(1).max(200_000).describe('The issue or bug report, whole: title, description, tracebacks, error messages.'),
        budget: z.number().int().min(1000).max(1_000_000).optional().describe('Token budget of the whole context (default 80000).'),
        session,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
      handle: (a) =>
        withStatus(backend, async () => {
          const issue = a.issue as string;
          const common = { issue, ...(a.budget !== undefined ? { budget: a.budget as number } : {}), session: a.session as string | undefined };
          const ask = host.askModel();
          let warning: string | null = null;
          if (ask) {
            try {
              const inv = await backend.inventory({ issue });
              const { answers, searches } = await sampledAnswers(issue, inv.paths, ask);
              const selection = await backend.selectFiles({ ...common, answers, searches, answersFrom: 'sampling' });
              return { text: selectionText(selection), json: selection };
            } catch (err) {
              if (err instanceof BackendError) throw err;
              warning = `the host's model did not answer through sampling (${(err as Error).message}); another source answered`;
              host.log(warning);
            }
          }
          const selection = await backend.selectFiles(common);
          if (warning) selection.warnings.unshift(warning);
          return { text: selectionText(selection), json: selection };
        }),
    },
    {
      name: 'read_object',
      title: 'Read one code object',
      description:
        'One function, method, class or type whole, exactly as written, with what it references and where it is referenced from (callers, importers, subclasses). Identify it by the id from search_code or get_context, or by its file path and name (plain or qualified, e.g. "Parser.parse").',
      inputSchema: {
        id: z.string().regex(/^[0-9a-f]{16}$/, 'object ids are 16 hex digits').optional().describe('The object id (16 hex digits).'),
        path: z.string().max(4096).optional().describe('Repository-relative path of the file defining it (with name).'),
        name: z.string().max(1000).optional().describe('Its name or qualified name (with path).'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
      handle: (a) =>
        withStatus(backend, async () => {
          const id = a.id as string | undefined;
          if (id) {
            const found = await backend.object(id);
            if (!found) throw new BackendError(`no object ${id} in the index (it may have changed: search again)`);
            return { text: objectText(found), json: found };
          }
          if (!a.path || !a.name) throw new BackendError('give either id, or both path and name');
          const matches = await backend.findObjects(a.path as string, a.name as string);
          if (!matches.length) throw new BackendError(`no object named ${a.name as string} in ${a.path as string} (is the path repository-relative and indexed?)`);
          const found = await backend.object(matches[0].id);
          if (!found) throw new BackendError(`the object ${a.name as string} vanished from the index while reading it: try again`);
          return { text: objectText(found, matches.slice(1)), json: { ...found, otherMatches: matches.slice(1) } };
        }),
    },
    {
      name: 'index_status',
      title: 'Index status',
      description: 'What allot has indexed for this repository (files, objects, languages) and whether it is still catching up with recent edits.',
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
        default: z.string().min(1).max(200_000).describe('The default program (a whole file or one function).'),
        alternative: z.string().min(1).max(200_000).describe('The alternative program.'),
        language: z.enum(['python', 'typescript', 'tsx', 'javascript']).describe('Their language.'),
        at: z.string().max(4096).optional().describe('path[:symbol] of the repository file (and function) the code is meant for: it supplies imports and scope.'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
      handle: (a) =>
        withStatus(backend, async () => {
          const r = await backend.arbitrate({ default: a.default as string, alternative: a.alternative as string, language: a.language as never, at: a.at as string | undefined });
          return { text: arbitrationText(r), json: r };
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
