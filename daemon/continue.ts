/**
 * `POST /v1/continue`: Continue's HTTP context provider. Continue posts
 * `{query, fullInput, options?, workspacePath?}` (`options` is the provider's
 * `params.options` from its config) and shows the `[{name, description,
 * content}]` it gets back as context items; each item here is one block of an
 * object allocation. Pure: validation, the query read from the request, and
 * the items, and the answer composed from a context query.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { parseAllocateOptions, type AllocateOptions } from '../allocator/options.ts';
import type { Allocation } from '../allocator/types.ts';
import type { RetrievalOptions } from '../indexer/retrieve/select.ts';
import { progressWords } from './status.ts';
import type { BuildProgress, ContextAnswer } from './types.ts';
import { ContextRequestSchema, MAX_ISSUE_CHARS, MAX_PATH_CHARS, MAX_QUERY_CHARS, parseWith, type Parsed } from './requests.ts';

/** Options Continue passes through from `params.options`: what `POST /v1/context` takes besides the query. */
const ContinueOptionsSchema = ContextRequestSchema.omit({ query: true });

// Not strict: the request comes from another project's client, which may send more than these fields.
export const ContinueRequestSchema = z.object({
  query: z.string().max(MAX_QUERY_CHARS).default(''),
  fullInput: z.string().max(MAX_ISSUE_CHARS).optional(),
  options: ContinueOptionsSchema.nullish(),
  workspacePath: z.string().max(MAX_PATH_CHARS).nullish(),
});

/** `POST /v1/continue` body. */
export type ContinueRequest = z.input<typeof ContinueRequestSchema>;
export type ContinueRequestParsed = z.output<typeof ContinueRequestSchema>;

/** One context item as Continue reads it. */
export interface ContinueItem {
  name: string;
  description: string;
  content: string;
}

export function parseContinueRequest(body: unknown): Parsed<z.output<typeof ContinueRequestSchema>> {
  return parseWith(ContinueRequestSchema, body);
}

/**
 * What to retrieve for: the provider's query, else the user's whole input without the leading `@provider`
 * mention (its last MAX_QUERY_CHARS characters: the end of a long message is what is being asked).
 */
export function continueQuery(req: { query: string; fullInput?: string | null }): string {
  const q = req.query.trim();
  if (q) return q;
  const input = (req.fullInput ?? '').replace(/^\s*@\S+\s*/, '').trim();
  return input.length > MAX_QUERY_CHARS ? input.slice(-MAX_QUERY_CHARS) : input;
}

/** A note for the model and the person (an index still being built, a budget too small), as an item. */
export function noteItem(title: string, text: string): ContinueItem {
  return { name: `allot: ${title}`, description: text.length > 120 ? `${text.slice(0, 117)}...` : text, content: `Note from allot: ${text}` };
}

/** The allocation's blocks as context items, after any notes. */
export function continueItems(a: Allocation, notes: ContinueItem[] = []): ContinueItem[] {
  const items = a.blocks.map((b): ContinueItem => ({
    name: b.object || b.path,
    description: `${b.path}:${b.shownStartLine || b.startLine}-${b.shownEndLine || b.endLine} (${b.kind}, ${b.role}; allot)`,
    content: b.text,
  }));
  return [...notes, ...items];
}

/** What the answer needs: the repository served, whether its index is complete, and a context query. */
export interface ContinueDeps {
  repo: string;
  completeness: { complete: true } | { complete: false; progress: BuildProgress };
  context(query: string, options: AllocateOptions, retrieval: RetrievalOptions, session?: string): Promise<ContextAnswer>;
}

/**
 * Continue's items for a request: the allocation of its query, after notes (an index not complete yet, a workspace
 * this daemon does not serve, a budget too small, no match) as items of their own.
 */
export async function continueAnswer(req: ContinueRequestParsed, deps: ContinueDeps): Promise<ContinueItem[]> {
  const query = continueQuery(req);
  if (!query) return [noteItem('no query', 'type a question or some code after the @ mention: allot retrieves context for it')];
  const { retriever, path: from, line, rrfK, session, ...options } = req.options ?? {};
  const notes: ContinueItem[] = [];
  const state = deps.completeness;
  if (!state.complete) {
    const p = state.progress;
    notes.push(noteItem('index incomplete', `the index of ${deps.repo} is still being built (${progressWords(p)}): these results cover only the files indexed so far, so a missing match does not mean the code does not exist`));
  }
  if (req.workspacePath && !sameTree(req.workspacePath, deps.repo)) {
    notes.push(noteItem('other repository', `this allot daemon serves ${deps.repo}, not the workspace ${req.workspacePath}: run \`allot start\` in that workspace and point the provider at its port`));
  }
  const allocation = await deps.context(query, parseAllocateOptions(options), { retriever, path: from, line, rrfK }, session);
  for (const w of allocation.warnings ?? []) notes.push(noteItem('budget', w));
  if (!allocation.blocks.length && !(allocation.warnings ?? []).length) notes.push(noteItem('no match', `no indexed code matches ${JSON.stringify(query.slice(0, 200))}`));
  return continueItems(allocation, notes);
}

/** Whether a workspace folder and the repository are the same tree (one inside the other). */
function sameTree(workspace: string, repo: string): boolean {
  let w: string;
  try {
    w = fs.realpathSync(workspace);
  } catch {
    w = path.resolve(workspace);
  }
  return w === repo || w.startsWith(repo + path.sep) || repo.startsWith(w + path.sep);
}
