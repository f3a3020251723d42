/**
 * Syntax repair: the default does not parse (tree-sitter ERROR or MISSING
 * nodes) and the alternative does, or the other way round.
 */
import type { ProgramFacts } from './facts.ts';
import type { Evidence, Witness } from './types.ts';

const count = (f: ProgramFacts) => (f.errorCount ? `${f.errorCount} syntax error${f.errorCount === 1 ? '' : 's'}` : 'parses');

/** Evidence: a summary (program null), then the first ERROR/MISSING nodes of each program. */
export function syntaxWitness(def: ProgramFacts, alt: ProgramFacts): Witness {
  const evidence: Evidence[] = [
    { program: null, line: null, name: null, detail: `default ${count(def)}; alternative ${count(alt)}` },
    ...def.errors.map((e) => ({ program: 'default' as const, line: e.line, name: null, detail: e.detail })),
    ...alt.errors.map((e) => ({ program: 'alternative' as const, line: e.line, name: null, detail: e.detail })),
  ];
  const direction = def.errorCount > 0 && alt.errorCount === 0 ? 'alternative' : alt.errorCount > 0 && def.errorCount === 0 ? 'default' : 'none';
  return { type: 'syntax', direction, evidence };
}
