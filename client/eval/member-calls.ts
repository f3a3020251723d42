/**
 * Member calls on masked source lines, for the cross-file `member` gold conventions: a call of a member of an
 * imported class or module through a receiver the file binds (`C.m(`, `C(...).m(`, `new C(...).m(`,
 * `x = C(...)` / `const x = new C(...)` then `x.m(`, `mod.f(`). A lexer over one file's lines, not a parser.
 */
import type { Language } from '../../indexer/types.ts';

const IDENT = String.raw`[A-Za-z_$][\w$]*`;
// A call's argument list, one level of nested parentheses deep.
const ARGS = String.raw`\((?:[^()]|\([^()]*\))*\)`;
const escape = (s: string): string => s.replace(/[$]/g, '\\$');

/** A member call found on a line: the imported name it goes through and the member called. */
export interface MemberCall {
  /** The imported local name (class or module) the receiver stands for. */
  local: string;
  member: string;
  /** 0-based column of the receiver. */
  col: number;
}

const scriptLike = (language: Language): boolean => language === 'typescript' || language === 'tsx' || language === 'javascript';

/** The variable a line binds to a new instance of `local` (`x = C(...)`, `const x = new C(...)`), or null. */
export function instanceBinding(maskedLine: string, local: string, language: Language): string | null {
  const l = escape(local);
  const re = scriptLike(language)
    ? new RegExp(String.raw`(?:^|[^\w$.])(?:const|let|var)\s+(${IDENT})\s*(?::[^=]+)?=\s*new\s+${l}\s*[(<]`)
    : new RegExp(String.raw`^\s*(${IDENT})\s*(?::[^=]+)?=\s*${l}\s*\(`);
  const m = re.exec(maskedLine);
  return m ? m[1] : null;
}

/**
 * Calls on one masked line through `receivers` (local receiver name -> the imported local it stands for), plus the
 * direct and chained forms through each imported local itself. Leftmost first.
 */
export function memberCalls(maskedLine: string, imported: readonly string[], receivers: ReadonlyMap<string, string>, language: Language): MemberCall[] {
  const out: MemberCall[] = [];
  const add = (re: RegExp, local: string) => {
    for (const m of maskedLine.matchAll(re)) {
      const before = m.index > 0 ? maskedLine[m.index - 1] : '';
      if (before && /[\w$.]/.test(before)) continue; // part of a longer name or an attribute chain
      out.push({ local, member: m[1], col: m.index });
    }
  };
  for (const local of imported) {
    const l = escape(local);
    add(new RegExp(String.raw`${l}\s*\.\s*(${IDENT})\s*\(`, 'g'), local);
    add(new RegExp(String.raw`${scriptLike(language) ? String.raw`new\s+` : ''}${l}\s*${ARGS}\s*\.\s*(${IDENT})\s*\(`, 'g'), local);
  }
  for (const [variable, local] of receivers) add(new RegExp(String.raw`${escape(variable)}\s*\.\s*(${IDENT})\s*\(`, 'g'), local);
  return out.sort((a, b) => a.col - b.col || (a.member < b.member ? -1 : 1));
}
