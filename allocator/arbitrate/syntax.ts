/**
 * Syntax repair: the default does not parse (tree-sitter ERROR or MISSING
 * nodes) and the alternative does, or the other way round. An empty program
 * (no tokens besides comments) never wins.
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
  // An empty program parses, but repairs nothing.
  const direction =
    def.errorCount > 0 && alt.errorCount === 0 && alt.tokens > 0 ? 'alternative' : alt.errorCount > 0 && def.errorCount === 0 && def.tokens > 0 ? 'default' : 'none';
  if (direction === 'none' && (def.tokens === 0 || alt.tokens === 0) && def.errorCount + alt.errorCount > 0) {
    evidence.push({ program: def.tokens === 0 ? 'default' : 'alternative', line: null, name: null, detail: 'empty: an empty program repairs nothing' });
  }
  return { type: 'syntax', direction, evidence };
}
