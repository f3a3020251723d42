/**
 * Validity-guarded compactness: when both programs are valid on every other
 * witness (they parse, every checked call binds, no suspicious name), the
 * substantially shorter one is better, provided it drops none of the longer
 * one's calls or exits (returns, raises/throws, yields). Size is counted in
 * leaf tokens without comments and docstrings, so formatting never changes it.
 */
import type { ProgramFacts } from './facts.ts';
import type { Evidence, Witness } from './types.ts';

/** The shorter program must be at most this fraction of the longer... */
export const COMPACT_RATIO = 0.8;
/** ...and at least this many tokens shorter. */
export const COMPACT_MIN_TOKENS = 8;

/** Why a program is not valid on the other witnesses (empty when it is). */
export interface Validity {
  default: string[];
  alternative: string[];
}

function callKeys(f: ProgramFacts): Set<string> {
  return new Set(f.calls.map((c) => (c.qualifier ? `${c.qualifier}.${c.name}` : c.name)));
}

/** What the shorter program drops from the longer one: calls and exits. */
function dropped(shorter: ProgramFacts, longer: ProgramFacts): string[] {
  const out: string[] = [];
  const have = callKeys(shorter);
  const calls = [...callKeys(longer)].filter((k) => !have.has(k));
  if (calls.length) out.push(`call${calls.length === 1 ? '' : 's'} ${calls.slice(0, 5).join(', ')}${calls.length > 5 ? ', ...' : ''}`);
  const exits: [keyof ProgramFacts['exits'], string][] = [['returns', 'return'], ['bareReturns', 'bare return'], ['raises', 'raise/throw'], ['yields', 'yield']];
  for (const [k, label] of exits) if (shorter.exits[k] < longer.exits[k]) out.push(`${longer.exits[k] - shorter.exits[k]} ${label} statement(s)`);
  return out;
}

export function compactnessWitness(def: ProgramFacts, alt: ProgramFacts, validity: Validity): Witness {
  const none = (evidence: Evidence[]): Witness => ({ type: 'compactness', direction: 'none', evidence });
  const sizes = `default ${def.tokens} tokens; alternative ${alt.tokens}`;
  const summary = (detail: string): Evidence => ({ program: null, line: null, name: null, detail });
  if (validity.default.length || validity.alternative.length) {
    return none([
      summary(`${sizes}; not compared: both programs must be valid on every other witness`),
      ...validity.default.map((d) => ({ program: 'default' as const, line: null, name: null, detail: d })),
      ...validity.alternative.map((d) => ({ program: 'alternative' as const, line: null, name: null, detail: d })),
    ]);
  }
  const altShorter = alt.tokens < def.tokens;
  const [shorter, longer] = altShorter ? [alt, def] : [def, alt];
  const substantial = shorter.tokens <= COMPACT_RATIO * longer.tokens && longer.tokens - shorter.tokens >= COMPACT_MIN_TOKENS;
  if (!substantial) return none([summary(`${sizes}: no substantial difference (needs <= ${COMPACT_RATIO * 100}% and ${COMPACT_MIN_TOKENS}+ tokens fewer)`)]);
  const lost = dropped(shorter, longer);
  const who = altShorter ? 'alternative' : 'default';
  if (lost.length) {
    return none([summary(`${sizes}: the shorter ${who} drops what the other has`), ...lost.map((l) => ({ program: who as 'default' | 'alternative', line: null, name: null, detail: `drops ${l}` }))]);
  }
  return { type: 'compactness', direction: who, evidence: [summary(`${sizes}: the ${who} is substantially shorter and keeps every call and exit`)] };
}
