/**
 * Length-preserving repairs of source text before parsing, for constructs a
 * grammar gets wrong. Every offset, line and column stays that of the file, so
 * objects and views still quote the original text.
 */

/**
 * TypeScript ends a type member at a line break, but tree-sitter-typescript
 * reads a generic call signature on the next line (`<P extends string>(h: H): R`
 * after `): R`) as a comparison and loses the rest of the file. A `;` in place of
 * the first indentation character of such a line ends the previous member as
 * TypeScript does. Only lines opening with `<` after a line that ends a type.
 */
export function separateCallSignatures(text: string): string {
  if (!text.includes('\n ') && !text.includes('\n\t')) return text;
  const lines = text.split('\n');
  let previous = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^[ \t]+<([\w\s]|$)/.test(line) && /[>)\]}\w]\s*$/.test(previous)) lines[i] = `;${line.slice(1)}`;
    const code = line.trim();
    if (code && !code.startsWith('//')) previous = line;
  }
  return lines.join('\n');
}

/**
 * tree-sitter-kotlin (this build) predates two Kotlin constructs and loses the
 * declaration around them: `fun interface X` (Kotlin 1.4's functional interfaces)
 * and binary literals (`0b1000_0000`). Blanking `fun` leaves an interface; `0b`
 * as `00` leaves a decimal literal of the same length.
 */
export function kotlinModernSyntax(text: string): string {
  if (!text.includes('fun') && !/0[bB]/.test(text)) return text;
  return text.replace(/\bfun(\s+interface\b)/g, '   $1').replace(/\b0[bB](?=[01])/g, '00');
}

/**
 * tree-sitter-dart (this build) predates Dart 3.3's extension types and 2.19's
 * unnamed `library;`, and loses the declarations after either. `extension type
 * N._(Rep r) implements I {` reads, once `extension type` is `class` and the
 * representation clause `._(Rep r)` is blanked (newlines kept), as the class
 * declaration it behaves like; `library;` names nothing and is blanked.
 */
export function dartModernSyntax(text: string): string {
  const unnamed = text.includes('library') ? text.replace(/^library\s*;/gm, (m) => blank(m)) : text;
  return unnamed.includes('extension') ? extensionTypesAsClasses(unnamed) : unnamed;
}

function extensionTypesAsClasses(text: string): string {
  const head = /\bextension\s+type\s+(?:const\s+)?([A-Za-z_$][\w$]*(?:<[^>{;]*>)?)(\s*(?:\.[A-Za-z_$][\w$]*)?\s*\()/dg;
  let out = '';
  let from = 0;
  for (let m = head.exec(text); m; m = head.exec(text)) {
    // the representation clause's closing parenthesis (nested ones balanced)
    let depth = 0;
    let end = m.index + m[0].length - 1;
    for (; end < text.length; end++) {
      if (text[end] === '(') depth++;
      else if (text[end] === ')' && --depth === 0) break;
    }
    if (end >= text.length) break;
    const [nameStart, clause] = [m.indices![1][0], m.indices![2][0]];
    out += text.slice(from, m.index) + blank(text.slice(m.index, nameStart)).replace(/^ {5}/, 'class') + text.slice(nameStart, clause) + blank(text.slice(clause, end + 1));
    from = end + 1;
    head.lastIndex = from;
  }
  return out + text.slice(from);
}

/** Spaces in place of every character but line breaks. */
function blank(s: string): string {
  return s.replace(/[^\n]/g, ' ');
}

/**
 * C libraries mark their API with an object-like macro before each declaration
 * (`LUA_API int (lua_gettop) (lua_State *L);`, `REDISMODULE_API void *(*RedisModule_Alloc)(size_t);`,
 * `SQLITE_API`, `ZEXTERN`, `LUAI_FUNC`). tree-sitter-c, which does not expand
 * macros, reads the macro as the type and the real type as the name. A word at
 * the start of a line that is all capitals and ends as such macros are named by
 * convention (`API`, `EXPORT`, `EXTERN`, `FUNC`, `DATA`, `DECL`, `INLINE`: `JEMALLOC_ALWAYS_INLINE void f()`), followed by
 * more of the declaration, is blanked, and in such files so is an attribute macro
 * between a declarator and its `;` (`(void *ptr) REDISMODULE_ATTR;`), where C allows no word.
 */
export function blankExportMacros(text: string): string {
  if (!/^[A-Z][A-Z0-9_]*(?:API|EXPORT|EXTERN|FUNC|DATA|DECL|INLINE)\s/m.test(text)) return text;
  return text
    .replace(/^[A-Z][A-Z0-9_]*(?:API|EXPORT|EXTERN|FUNC|DATA|DECL|INLINE)(?=[ \t]+[A-Za-z_])/gm, (m) => blank(m))
    .replace(/(?<=\)[ \t]+)[A-Z][A-Z0-9_]*(?=[ \t]*;)/g, (m) => blank(m));
}
