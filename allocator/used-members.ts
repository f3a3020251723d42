/**
 * Used members: the names a query's code already reaches as members (`x.m`,
 * `C.m(`, `mod.f(`). The lines at a cursor are about to use what they have not
 * used yet (the structural reading's rule for imports): a member the code above
 * already calls is known there by its call, so an outline lists it and spends
 * its lines on the members still to come.
 */
import { guessLanguage, withoutProse } from '../indexer/retrieve/query-reading.ts';

/** `.name`: an attribute access, whatever precedes it. */
const MEMBER_ACCESS = /\.\s*([A-Za-z_$][A-Za-z0-9_$]*)/g;
/** An import line (`from a.b import c`, `import a.b`): its dotted path names modules, not members. */
const IMPORT_LINE = /^[ \t]*(?:from[ \t]+[\w.]+[ \t]+import|import)[ \t][^\n]*$/gm;

/**
 * The member names the query's code accesses (strings and comments left out: a docstring's `x.m` is no use), but
 * not the one the cursor is writing.
 * @example usedMembers('import geo.shapes\ndef f(p):\n    q = p.rotate(1)  # p.scale(2)') // Set { 'rotate' }
 */
export function usedMembers(query: string): Set<string> {
  const out = new Set<string>();
  const language = guessLanguage(query);
  // Prose names no members it calls.
  if (!language) return out;
  const code = withoutProse(query, language).replace(IMPORT_LINE, ' ');
  for (const m of code.matchAll(MEMBER_ACCESS)) if (!beingWritten(code, m.index + m[0].length)) out.add(m[1]);
  return out;
}

/**
 * Whether an access ending at `end` is what the cursor is writing: the code ends right after it, or inside the
 * call it opens (`e.m(x, ` at the end of the query: its definition is what the next lines need).
 */
function beingWritten(code: string, end: number): boolean {
  let i = end;
  while (i < code.length && /\s/.test(code[i])) i++;
  if (i === code.length) return true;
  if (code[i] !== '(') return false;
  let depth = 0;
  for (; i < code.length; i++) {
    if (code[i] === '(') depth++;
    else if (code[i] === ')' && --depth === 0) return false;
  }
  return true;
}
