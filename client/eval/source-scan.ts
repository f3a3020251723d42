/**
 * Line-level facts about a source file that the cross-file generator needs and
 * the index does not store: which characters are code (not comments or string
 * literals), where import statements end, and where a name is first used.
 * A small lexer over the indexed text, not a parser: the index already says
 * which imports exist and what they resolve to.
 */
import type { Language } from '../../indexer/types.ts';

type Family = 'python' | 'c-like';

const familyOf = (language: Language): Family | null =>
  language === 'python' ? 'python' : language === 'text' ? null : 'c-like';

/**
 * The file's lines with comments and string literals blanked (replaced by spaces, so columns are kept).
 * Python: `#` comments, '...', "...", triple-quoted strings (with prefixes). C-like languages (TypeScript,
 * JavaScript, Java, Go, Rust): `//` and `/* *\/` comments, "...", `...` and (except Rust, where `'` starts
 * lifetimes) '...'; Java text blocks are triple-quoted. Template interpolations are blanked with their string.
 */
export function codeMask(text: string, language: Language): string[] {
  const family = familyOf(language);
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  if (!family) return lines.map((l) => ' '.repeat(l.length));
  const out: string[] = [];
  // Multi-line state carried across lines: inside a block comment or a (triple/template) string.
  let open: { kind: 'comment' } | { kind: 'string'; quote: string } | null = null;
  for (const line of lines) {
    const chars = line.split('');
    let i = 0;
    const blank = (from: number, to: number) => {
      for (let k = from; k < to && k < chars.length; k++) chars[k] = ' ';
    };
    while (i < line.length) {
      if (open) {
        const start = i;
        if (open.kind === 'comment') {
          const end = line.indexOf('*/', i);
          if (end < 0) { blank(start, line.length); i = line.length; break; }
          blank(start, end + 2);
          i = end + 2;
          open = null;
          continue;
        }
        const q = open.quote;
        let closed = false;
        while (i < line.length) {
          if (line[i] === '\\') { i += 2; continue; }
          if (line.startsWith(q, i)) { i += q.length; closed = true; break; }
          i++;
        }
        blank(start, Math.min(i, line.length));
        if (closed) open = null;
        else if (q.length === 1 && q !== '`') open = null; // an unterminated one-line string ends with its line
        continue;
      }
      const c = line[i];
      if (family === 'python' && c === '#') { blank(i, line.length); break; }
      if (family === 'c-like' && c === '/' && line[i + 1] === '/') { blank(i, line.length); break; }
      if (family === 'c-like' && c === '/' && line[i + 1] === '*') { open = { kind: 'comment' }; blank(i, i + 2); i += 2; continue; }
      const triple = line.startsWith('"""', i) ? '"""' : family === 'python' && line.startsWith("'''", i) ? "'''" : null;
      if (triple) { open = { kind: 'string', quote: triple }; blank(i, i + 3); i += 3; continue; }
      if (c === '"' || (c === "'" && language !== 'rust') || (c === '`' && family === 'c-like')) {
        open = { kind: 'string', quote: c };
        blank(i, i + 1);
        i++;
        continue;
      }
      i++;
    }
    out.push(chars.join(''));
    if (open && open.kind === 'string' && open.quote.length === 1 && open.quote !== '`') open = null;
  }
  return out;
}

const IDENT_CHAR = /[A-Za-z0-9_$]/;

/**
 * 0-based column of the first use of `name` on a masked line: the whole identifier, not a member access
 * (`x.name`), not a keyword argument or parameter default (`(name=`, `, name=`) and, in JavaScript and
 * TypeScript, not a property key (`{ name: ...`, `, name: ...`, or `name:` / `name?:` opening a line); -1 when none.
 */
export function useColumn(maskedLine: string, name: string, language: Language = 'python'): number {
  const keys = language === 'typescript' || language === 'tsx' || language === 'javascript';
  let from = 0;
  for (;;) {
    const i = maskedLine.indexOf(name, from);
    if (i < 0) return -1;
    from = i + 1;
    const before = i > 0 ? maskedLine[i - 1] : '';
    const after = maskedLine[i + name.length] ?? '';
    if ((before && IDENT_CHAR.test(before)) || (after && IDENT_CHAR.test(after))) continue;
    let k = i - 1;
    while (k >= 0 && (maskedLine[k] === ' ' || maskedLine[k] === '\t')) k--;
    if (k >= 0 && maskedLine[k] === '.' && maskedLine[k - 1] !== '.') continue; // member access, not spread `...x`
    let j = i + name.length;
    while (j < maskedLine.length && maskedLine[j] === ' ') j++;
    const head = maskedLine.slice(0, i);
    if (maskedLine[j] === '=' && maskedLine[j + 1] !== '=' && /[(,]\s*$/.test(head)) continue; // f(name=...)
    if (keys && /^\??:(?!:)/.test(maskedLine.slice(j)) && /(^|[{,])\s*$/.test(head)) continue; // { name: ... }
    return i;
  }
}

/**
 * The last line (1-based) of the statement starting at `startLine`: the first line from there on where brackets
 * opened since the start are closed and the line does not end in a continuation (`\`, or a trailing `,`/`{`).
 */
export function statementEnd(masked: readonly string[], startLine: number, maxLines = 200): number {
  let depth = 0;
  const last = Math.min(masked.length, startLine - 1 + maxLines);
  for (let l = startLine; l <= last; l++) {
    const line = masked[l - 1];
    for (const ch of line) {
      if (ch === '(' || ch === '[' || ch === '{') depth++;
      else if (ch === ')' || ch === ']' || ch === '}') depth--;
    }
    const t = line.trimEnd();
    if (depth <= 0 && !t.endsWith('\\') && !t.endsWith(',')) return l;
  }
  return Math.max(startLine, last);
}
