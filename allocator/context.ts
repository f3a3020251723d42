import type { Retriever } from '../indexer/retrieve/retriever.ts';
import type { Tokenizer } from '../indexer/tokenizer.ts';
import { allocate } from './allocate.ts';
import { parseAllocateOptions, type AllocateOptionsInput } from './options.ts';
import type { Allocation, ObjectSource } from './types.ts';

/** Views retrieved per slot: enough for the quotient to collapse duplicates and still fill K objects. */
const VIEWS_PER_SLOT = 10;
const MIN_VIEWS = 50;

/**
 * A context query end to end: retrieve candidate views, then allocate and
 * render them within the budget. The one function behind `allot context`,
 * in-process or through the daemon.
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
  const k = Math.max(MIN_VIEWS, (opts.slots.core + opts.slots.companion) * VIEWS_PER_SLOT);
  return allocate(query, retriever.retrieve(query, k), source, tokenizer, opts);
}
