/**
 * Used members: the members a query's code already reaches through a receiver
 * (`C.m`, `C(...).m(`, `x = C(...)` then `x.m(`, `mod.f(` for an imported
 * module or its alias). The lines at a cursor are about to use what they have
 * not used yet (the structural reading's rule for imports): a member the code
 * above already calls is known there by its call, so an outline lists it and
 * spends its lines on the members still to come.
 */
import { guessLanguage, IMPORT_STATEMENTS, withoutProse } from '../indexer/retrieve/query-reading.ts';

/** What the query's code reaches through the receivers that stand for one container. */
export interface UsedMembers {
  /** The member names reached through a receiver that is `names` (a container's name), an alias of it, or a local bound to it before. */
  of(names: readonly string[]): ReadonlySet<string>;
}

const ID = String.raw`[A-Za-z_$][A-Za-z0-9_$]*`;
/** `r.m` or `r(...).m`: the identifier right before the dot is the receiver (its call's arguments without parentheses). */
const ACCESS = new RegExp(String.raw`(${ID})\s*(?:\([^()\n]*\))?\s*\.\s*(${ID})`, 'g');
/** `x = C(` or `x = new C(`: the local stands for C. */
const BINDING = new RegExp(String.raw`(${ID})\s*(?::\s*${ID}\s*)?=\s*(?:new\s+)?(${ID})\s*\(`, 'g');
/** `A as B` in an import statement (IMPORT_STATEMENTS: its dotted paths name modules, not members): B stands for A (`import * as ns` reads as `* as ns` and binds nothing named). */
const ALIAS = new RegExp(String.raw`(${ID})\s+as\s+(${ID})`, 'g');

const NONE: ReadonlySet<string> = new Set();

/**
 * The members the query's code reaches, by receiver (strings and comments left out: a docstring's `x.m` is no use),
 * but not the one the cursor is writing.
 * @example usedMembers('from geo import Shape as S\np = S(1)\nq = p.rotate(1)  # p.scale(2)').of(['Shape']) // Set { 'rotate' }
 */
export function usedMembers(query: string): UsedMembers {
  const language = guessLanguage(query);
  // Prose names no members it calls.
  if (!language) return { of: () => NONE };
  const text = withoutProse(query, language);
  const alias = new Map<string, string>();
  for (const statement of text.match(IMPORT_STATEMENTS) ?? []) for (const m of statement.matchAll(ALIAS)) alias.set(m[2], m[1]);
  const code = text.replace(IMPORT_STATEMENTS, (s) => s.replace(/[^\n]/g, ' '));
  // Each local's bindings in order: an access goes through the latest one before it (the same name used before, a
  // callback's parameter `c`, is another receiver).
  const bindings = new Map<string, { at: number; to: string }[]>();
  for (const m of code.matchAll(BINDING)) {
    const list = bindings.get(m[1]) ?? [];
    list.push({ at: m.index, to: m[2] });
    bindings.set(m[1], list);
  }
  const standsFor = (receiver: string, at: number): string[] => {
    const out = [receiver, alias.get(receiver) ?? receiver];
    const b = bindings.get(receiver)?.filter((x) => x.at < at).at(-1)?.to;
    if (b) out.push(b, alias.get(b) ?? b);
    return out;
  };
  const accesses: { at: number; receiver: string; member: string }[] = [];
  for (const m of code.matchAll(ACCESS)) {
    if (!beingWritten(code, m.index + m[0].length)) accesses.push({ at: m.index, receiver: m[1], member: m[2] });
  }
  return {
    of(names) {
      const out = new Set<string>();
      for (const a of accesses) if (standsFor(a.receiver, a.at).some((n) => names.includes(n))) out.add(a.member);
      return out;
    },
  };
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
