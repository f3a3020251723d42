import type { Retriever } from '../indexer/retrieve/retriever.ts';
import type { Tokenizer } from '../indexer/tokenizer.ts';
import { allocate } from './allocate.ts';
import { parseAllocateOptions, type AllocateOptions, type AllocateOptionsInput } from './options.ts';
import type { Allocation, ObjectSource } from './types.ts';

/** Views retrieved per slot: enough for the quotient to collapse duplicates and still fill K objects. */
const VIEWS_PER_SLOT = 10;
const MIN_VIEWS = 50;
/** With heads on, one view per this many budget tokens: the interface fill lists heads of about 100-150 tokens. */
const TOKENS_PER_HEAD = 64;

/**
 * How many views to retrieve for an allocation: enough for the quotient to fill K slots, and with heads on,
 * enough objects for the interface fill to use the budget. (Retrieving deeper only when a first fill ran out
 * was measured too: it doubled the latency of code queries, where retrieval is the slow part, while the extra
 * depth costs prose queries little.)
 * @example retrievalDepth(parseAllocateOptions({ budget: 8192 })) // 128
 */
export function retrievalDepth(opts: AllocateOptions): number {
  const slots = (opts.slots.core + opts.slots.companion) * VIEWS_PER_SLOT;
  return Math.max(MIN_VIEWS, slots, opts.headLines > 0 ? Math.ceil(opts.budget / TOKENS_PER_HEAD) : 0);
}

/**
 * A context query end to end: retrieve candidate views, then allocate and
 * render them within the budget. The one function behind `allot context`,
 * in-process or through the daemon; `trace.depth` says how many views it asked for.
 * @example buildContext('parse config file', bm25Retriever(db), storeObjectSource(db), { budget: 2048 })
 */
export function buildContext(
  query: string,
  retriever: Retriever,
  source: ObjectSource,
  options: AllocateOptionsInput = {},
  tokenizer?: Tokenizer,
): Allocation {
  const opts = parseAllocateOptions(options);
  const depth = retrievalDepth(opts);
  const a = allocate(query, retriever.retrieve(query, depth), source, tokenizer, opts);
  return { ...a, trace: { ...a.trace, depth } };
}
