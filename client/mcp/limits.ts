/**
 * The bounds of every MCP tool argument, in one place: the tool schemas check
 * them, the tool descriptions state them, and the README lists them. Where the
 * daemon's request validation has a maximum of its own (daemon/requests.ts,
 * daemon/symbol-requests.ts, allocator/options.ts `LIMITS`), it is the same
 * constant; the MCP tools are tighter only where a model is better served by a
 * smaller answer (`k`, `get_context`'s `budget` and `slots`).
 */
import { LIMITS } from '../../allocator/options.ts';
import { MAX_ISSUE_CHARS, MAX_PATH_CHARS, MAX_QUERY_CHARS } from '../../daemon/requests.ts';
import {
  DEFAULT_READ_BUDGET, DEFAULT_REFERENCE_LIMIT, DEFAULT_SYMBOL_LIMIT, MAX_GLOB_CHARS, MAX_LINE, MAX_NAME_CHARS, MAX_READ_BUDGET, MAX_REFERENCE_LIMIT,
  MAX_SYMBOL_LIMIT,
} from '../../daemon/symbol-requests.ts';

export { MAX_GLOB_CHARS, MAX_ISSUE_CHARS, MAX_LINE, MAX_NAME_CHARS, MAX_PATH_CHARS, MAX_QUERY_CHARS, MAX_READ_BUDGET, MAX_REFERENCE_LIMIT, MAX_SYMBOL_LIMIT };
export { DEFAULT_READ_BUDGET, DEFAULT_REFERENCE_LIMIT, DEFAULT_SYMBOL_LIMIT };

/** `search_code`: results. */
export const SEARCH_K = { min: 1, max: 200, default: 10 } as const;
/** `get_context`: token budget of the whole context. */
export const CONTEXT_BUDGET = { min: 1, max: 200_000, default: 4096 } as const;
/** `get_context`: K objects (core + companions). */
export const CONTEXT_SLOTS = { min: 2, max: 50 } as const;
/** `select_files`: token budget. */
export const SELECT_BUDGET = { min: 1000, max: LIMITS.budget, default: 80_000 } as const;
/** `session` ids (characters). */
export const MAX_SESSION_CHARS = 200;
/** `arbitrate_programs`: each program (characters). */
export const MAX_PROGRAM_CHARS = 200_000;
