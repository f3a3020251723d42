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
    .replace(/(\)[ \t]+)([A-Z][A-Z0-9_]*)(?=[ \t]*;)/g, (_m, before: string, macro: string) => before + blank(macro));
}

/** Words after which an all-caps call is a statement's expression (`return CHECK(x);`), not an annotation. */
const STATEMENT_WORD = /^(?:return|throw|case|else|do|goto|new|delete|sizeof|co_return|co_yield|typedef|using)$/;

/**
 * C++ libraries mark classes and members with macros the grammar cannot expand: an export macro between
 * `class` and the name (`class LEVELDB_EXPORT Slice {`), and Clang's thread-safety annotations after a parameter
 * list or a member's name (`void f() EXCLUSIVE_LOCKS_REQUIRED(mu_);`, `int n GUARDED_BY(mu);`,
 * `~MutexLock() UNLOCK_FUNCTION() {`). tree-sitter-cpp reads each as a syntax error, and error recovery then
 * re-parses the class in pieces and loses its scope. Both are all-caps words where C++ allows no word: between
 * the class keyword and the name, and an all-caps call right after a declarator's `)` or name and before `;`,
 * `{`, `:`, `=` or another such call (not on a preprocessor line, not after a statement word, not after the
 * `)` of an `if`/`while`/`for`/`switch`, where `MACRO(x);` is a statement). They are blanked. Export macros at
 * a line's start are C's rule (`blankExportMacros`), applied first.
 */
export function blankCppMacros(text: string): string {
  const out = blankExportMacros(text);
  if (!/\b(?:class|struct|union)[ \t]+[A-Z][A-Z0-9_]+[ \t]+[A-Za-z_]|[ \t][A-Z][A-Z0-9_]*[A-Z]\(/.test(out)) return out;
  return out
    .replace(/(\b(?:class|struct|union)[ \t]+)([A-Z][A-Z0-9_]+)(?=[ \t]+[A-Za-z_]\w*(?:[ \t]+final)?[ \t]*(?:[:{]|$))/gm, (_m, keyword: string, macro: string) => keyword + blank(macro))
    // No lookbehind (V8 tries one at every position of the text): a word start here, the blank before it checked below.
    .replace(/\b[A-Z][A-Z0-9_]*[A-Z]\([^()\n]*\)(?=[ \t]*(?:[;{:=]|[A-Z][A-Z0-9_]*[A-Z]\(|$))/gm, (m, at: number, all: string) => {
      if (!followsBlankAfterCode(all, at)) return m;
      const lineStart = all.lastIndexOf('\n', at) + 1;
      const before = all.slice(lineStart, at);
      if (!before.trim()) {
        // On a line of its own, an annotation continues a declarator ending the line above (`Status f(int a)\n    ANNOT;`).
        const above = all.slice(all.lastIndexOf('\n', lineStart - 2) + 1, Math.max(0, lineStart - 1));
        const declarator = !/^\s*(?:\/\/|\/\*|\*|#)/.test(above) && !/\b(?:if|while|for|switch)\s*\(/.test(above) && /\)(?:\s+(?:const|override|final|noexcept))*\s*$/.test(above);
        return declarator ? blank(m) : m;
      }
      if (/^\s*#/.test(before) || /\b(?:if|while|for|switch)\s*\(/.test(before)) return m;
      const word = before.match(/([A-Za-z_]\w*|\])[>*&]?\s+$/)?.[1];
      if (word && STATEMENT_WORD.test(word)) return m;
      // After a declarator's `)` (`f(int a) ANNOT`, a previous annotation's); after a member's name (`int n ANNOT;`) only
      // a name with an underscore before `;`, as annotations are named: `Status OK() {` declares a method `OK`.
      if (/\)(?:\s+(?:const|override|final|noexcept))*\s+$/.test(before)) return blank(m);
      return word && m.includes('_') && /^\s*;/.test(all.slice(at + m.length)) ? blank(m) : m;
    });
}

/** Blanks (spaces, tabs) right before `at`, after a line's start or one of `\w)]>*&`: where an annotation macro may stand. */
function followsBlankAfterCode(text: string, at: number): boolean {
  let i = at;
  while (i > 0 && (text[i - 1] === ' ' || text[i - 1] === '\t')) i--;
  if (i === at) return false;
  return i === 0 || /[\n\r\u2028\u2029]/.test(text[i - 1]) || /[\w)\]>*&]/.test(text[i - 1]);
}
