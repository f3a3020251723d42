/**
 * Receivers in a code query: what type a local name stands for, so that a
 * member call through it (`x.m(`) resolves to the member of that type through
 * the index. A lexer over the query text for the forms people write: Python
 * `x = C(...)`, TS/JS `const x = new C(...)` and declared types (`x: C`), Java
 * `C x = ...`, Go `x := C{...}` / `var x *C` / `func (x *C)`, Rust `let x: C` /
 * `let x = C::new(...)`; chained calls on a fresh instance (`C(...).m(`,
 * `new C(...).m(`); and `self`/`this`/`super` in a class the query declares,
 * which stand for its bases.
 */

const ID = String.raw`[A-Za-z_$][\w$]*`;
const ARGS = String.raw`\((?:[^()]|\([^()]*\))*\)`;

/** `[pattern, index of the variable, index of the type]` for each declared or constructed receiver form. */
const BINDINGS: [RegExp, number, number][] = [
  // Python `x = C(`, `x = mod.C(`; TS/JS `const x = new C(` (capitalised after a qualifier: `x = obj.make(` is a method)
  [new RegExp(String.raw`(?:^|[^\w$.])(${ID})\s*(?::[^=\n]+)?=\s*(?:new\s+)?(?:${ID}\.)*([A-Z][\w$]*)\s*(?:<[^>\n]*>)?\s*\(`, 'gm'), 1, 2],
  // an unqualified callee of any case (`pot = preorder_traversal(e)`): the index decides whether it names a class
  [new RegExp(String.raw`(?:^|[^\w$.])(${ID})\s*(?::[^=\n]+)?=\s*(?:new\s+)?([a-z_][\w$]*)\s*(?:<[^>\n]*>)?\s*\(`, 'gm'), 1, 2],
  // declared types: TS/JS/Python annotations and Rust `x: C`, `x: &mut C`, `x?: C`, on one line (a block's colon
  // ends its line: `else:` then `Foo(...)` on the next declares nothing)
  [new RegExp(String.raw`(?:^|[(,\s])(${ID})\??[ \t]*:[ \t]*&?(?:mut[ \t]+)?(?:${ID}\.)*([A-Z][\w$]*)`, 'gm'), 1, 2],
  // Java / C-like declarations `C x =`, `final C x;`, `(C x,`
  [new RegExp(String.raw`(?:^|[(,\s])([A-Z][\w$]*)(?:<[^>\n]*>)?\s+(${ID})\s*[=;,)]`, 'gm'), 2, 1],
  // Go `x := C{`, `x := &C{`, `var x *C`, `func (x *C)`
  [new RegExp(String.raw`(${ID})\s*:=\s*&?(?:${ID}\.)*([A-Z]\w*)\s*\{`, 'gm'), 1, 2],
  [new RegExp(String.raw`\bvar\s+(${ID})\s+\*?(?:${ID}\.)*([A-Z]\w*)`, 'gm'), 1, 2],
  [new RegExp(String.raw`\bfunc\s*\(\s*(${ID})\s+\*?([A-Z]\w*)`, 'gm'), 1, 2],
  // Rust `let x = C::new(` / `let mut x = C { ... }`
  [new RegExp(String.raw`\blet\s+(?:mut\s+)?(${ID})\s*=\s*([A-Z]\w*)\s*(?:::|\{)`, 'gm'), 1, 2],
];

/** Keywords of the languages read here: never a variable nor a type (`else:`, `lambda x:`, `except Foo:`). */
const KEYWORDS = new Set(['else', 'elif', 'try', 'except', 'finally', 'with', 'lambda', 'True', 'False', 'None', 'def', 'class', 'pass', 'raise', 'del', 'global', 'nonlocal', 'assert', 'import', 'from', 'as', 'switch', 'do', 'catch', 'throw', 'typeof', 'instanceof', 'const', 'let', 'var', 'function', 'true', 'false', 'null', 'undefined', 'break', 'continue', 'impl', 'fn', 'mut', 'pub', 'defer', 'func', 'package', 'interface', 'struct', 'enum', 'static', 'final', 'public', 'private', 'protected']);

const NOT_TYPES = new Set([...KEYWORDS, 'self', 'this', 'cls', 'super', 'return', 'new', 'await', 'yield', 'if', 'for', 'while', 'not', 'and', 'or', 'in', 'is', 'print', 'len', 'str', 'int', 'list', 'dict', 'set', 'tuple', 'string', 'number', 'boolean', 'any', 'void', 'String', 'Object', 'Array', 'Promise']);

export interface Receivers {
  /**
   * Local name -> the type (class) name it stands for, as the query binds it (the last binding wins). A constructor
   * call of any case counts; whether the name is a class is for the index to say.
   */
  types: Map<string, string>;
  /** Member calls on a fresh instance: `C(...).m(` / `new C(...).m(` as { qualifier: C, name: m }. */
  chained: { qualifier: string; name: string }[];
  /** Bases of the classes the query declares: what `self.m`, `this.m` and `super().m` may inherit. */
  bases: string[];
}

/**
 * The receivers a query binds.
 * @example readReceivers('p = Parser(text)\np.parse(').types // Map { 'p' => 'Parser' }
 */
export function readReceivers(text: string): Receivers {
  const found: { at: number; variable: string; type: string }[] = [];
  for (const [re, v, t] of BINDINGS) {
    for (const m of text.matchAll(re)) {
      const variable = m[v];
      const type = m[t];
      if (!variable || !type || NOT_TYPES.has(type) || NOT_TYPES.has(variable) || variable === type) continue;
      found.push({ at: m.index, variable, type });
    }
  }
  const types = new Map<string, string>();
  for (const f of found.sort((a, b) => a.at - b.at)) types.set(f.variable, f.type);
  const chained: Receivers['chained'] = [];
  for (const m of text.matchAll(new RegExp(String.raw`(?:^|[^\w$.])(?:new\s+)?(${ID})\s*${ARGS}\s*\.\s*(${ID})\s*\(`, 'gm'))) {
    if (!NOT_TYPES.has(m[1])) chained.push({ qualifier: m[1], name: m[2] });
  }
  const bases: string[] = [];
  for (const m of text.matchAll(/^\s*class\s+\w+\s*\(([^)]*)\)\s*:/gm)) {
    for (const b of m[1].split(',')) {
      const name = b.trim().split('.').at(-1)?.replace(/\[.*$/, '');
      if (name && /^[A-Za-z_]\w*$/.test(name) && name !== 'object' && !name.includes('=')) bases.push(name);
    }
  }
  for (const m of text.matchAll(/\bclass\s+\w+(?:<[^>]*>)?\s+extends\s+(?:\w+\.)*(\w+)/g)) bases.push(m[1]);
  return { types, chained, bases: [...new Set(bases)] };
}
