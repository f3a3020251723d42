/**
 * `POST /v1/continue`: Continue's HTTP context provider. Continue posts
 * `{query, fullInput, options?, workspacePath?}` (`options` is the provider's
 * `params.options` from its config) and shows the `[{name, description,
 * content}]` it gets back as context items; each item here is one block of an
 * object allocation. Pure: validation, the query read from the request, and
 * the items.
 */
import { z } from 'zod';
import type { Allocation } from '../allocator/types.ts';
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
