/**
 * Allocation options, validated once at the boundary (CLI flags, daemon
 * requests) so the pipeline can trust them.
 */
import { z } from 'zod';
import { TOKENIZER_NAMES } from '../indexer/tokenizer.ts';

export interface Slots {
  core: number;
  companion: number;
}

export const DEFAULT_BUDGET = 4096;
export const DEFAULT_OBJECT_CAP = 1024;
export const DEFAULT_FLOOR = 128;
export const DEFAULT_SLOTS: Slots = { core: 4, companion: 1 };
/**
 * Lines of a head (an object's declaration, docstring and first lines): what the fill lists of an object found
 * through structure that does not fit whole, and the opening an outline in the fill shows.
 */
export const DEFAULT_HEAD_LINES = 15;
/** The fill's relevance stop by default (see `fillRelevance`). */
export const DEFAULT_FILL_RELEVANCE = 0.4;

/**
 * Parses the `--slots` value `core+companions`, e.g. `4+1` (K = 5).
 * @example parseSlots('3+2') // { core: 3, companion: 2 }
 */
export function parseSlots(text: string): Slots {
  const m = /^\s*(\d+)\s*\+\s*(\d+)\s*$/.exec(text);
  if (!m) throw new Error(`slots must look like core+companions (e.g. 4+1), got "${text}"`);
  const slots = { core: Number(m[1]), companion: Number(m[2]) };
  if (slots.core < 1) throw new Error(`slots need at least one core object, got "${text}"`);
  return slots;
}

/**
 * The largest value each option accepts (the CLI and the daemon alike; 400 beyond, documented in the README's
 * API section). They bound one request's work and memory: retrieval depth grows with K and the budget (see
 * `retrievalDepth`), rendering with the budget.
 */
export const LIMITS = {
  /** Tokens of the whole context: far above any model's window in use, a few MB of text. */
  budget: 1_000_000,
  objectCap: 1_000_000,
  floor: 1_000_000,
  /** Core objects and companions, each (K = core + companion). */
  core: 64,
  companion: 64,
  headLines: 1_000,
} as const;

const SlotsSchema = z.object({
  core: z.number().int().min(1).max(LIMITS.core),
  companion: z.number().int().min(0).max(LIMITS.companion),
}).strict();

// CLI flags arrive as strings; accept plain non-negative integers written either way, up to `max`.
const count = (max: number) => z.union([
  z.number(),
  z.string().regex(/^\s*\d{1,15}\s*$/, 'expected a non-negative integer').transform(Number),
]).pipe(z.number().int().min(0).max(max));

// A share 0..1, as a number or (CLI flags) a decimal string.
const share = z.union([z.number(), z.string().regex(/^\s*(?:\d+(?:\.\d*)?|\.\d+)\s*$/, 'expected a number from 0 to 1').transform(Number)])
  .pipe(z.number().min(0).max(1));

// A `core+companions` string or the parsed object; the string's own error message reaches the user.
const slots = z.union([z.string().max(100), SlotsSchema]).transform((value, ctx) => {
  if (typeof value !== 'string') return value;
  try {
    const parsed = parseSlots(value);
    if (parsed.core > LIMITS.core || parsed.companion > LIMITS.companion) {
      throw new Error(`slots allow at most ${LIMITS.core} core objects and ${LIMITS.companion} companions, got "${value}"`);
    }
    return parsed;
  } catch (e) {
    ctx.addIssue({ code: 'custom', message: (e as Error).message });
    return z.NEVER;
  }
});

export const AllocateOptionsSchema = z.object({
  /** B: the whole context's token budget. */
  budget: count(LIMITS.budget).default(DEFAULT_BUDGET),
  /** b_obj: no object gets more than this. */
  objectCap: count(LIMITS.objectCap).default(DEFAULT_OBJECT_CAP),
  /** Tokens reserved for each later object (applies only when B >= m*floor). */
  floor: count(LIMITS.floor).default(DEFAULT_FLOOR),
  /** core+companions; K = core + companion. */
  slots: slots.default(DEFAULT_SLOTS),
  tokenizer: z.enum(TOKENIZER_NAMES).default('cl100k_base'),
  /**
   * The size of the heads the fill lists for objects found through structure that do not fit whole (role
   * `interface`), and of an outline's opening in the fill; 0 turns heads off (allocated objects are never capped by it).
   */
  headLines: count(LIMITS.headLines).default(DEFAULT_HEAD_LINES),
  /**
   * The paper's strict allocation: the K slots only, no fill of the budget they leave (objects found through
   * structure still render from their declaration).
   */
  noFill: z.boolean().default(false),
  /**
   * The fill's relevance stop: further objects are added only while their score is at least this share of the K-th
   * ranked position's (1: none scoring below the last slot; 0: no stop, the fill spends the whole budget). Measured
   * on cross-file tasks (EVALUATION.md, issue 15): 0.4 leaves the blocks above it room to deepen.
   */
  fillRelevance: share.default(DEFAULT_FILL_RELEVANCE),
  /** Ablation: each view competes on its own (fragment-level). */
  noQuotient: z.boolean().default(false),
  /** Ablation: objects are cut at the budget instead of allocated by the formula. */
  noRender: z.boolean().default(false),
}).strict();

export type AllocateOptionsInput = z.input<typeof AllocateOptionsSchema>;
export type AllocateOptions = z.output<typeof AllocateOptionsSchema>;

/** Validates options and fills defaults; throws a readable error on bad input. */
export function parseAllocateOptions(input: AllocateOptionsInput = {}): AllocateOptions {
  const result = AllocateOptionsSchema.safeParse(input);
  if (!result.success) {
    const detail = result.error.issues.map((i) => `${i.path.join('.') || 'options'}: ${i.message}`).join('; ');
    throw new Error(`invalid allocation options: ${detail}`);
  }
  return result.data;
}
