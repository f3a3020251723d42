// Definitions covered per language against Universal Ctags, with extraction CPU per MB (not a test).
//
//   npm run bench:coverage -- DIR [DIR...] [--misses N] [--repeat N] [--json]
//
// `--repeat N` extracts each tree N times untimed before the timed pass: CPU per MB then
// measures the steady state, without the one-time cost of a grammar's first use.
//
// For each tree: every file discovery keeps is extracted in-process, one at a time, with the
// process's CPU time (user + sys) attributed to the file's language (grammars are loaded before
// timing). `ctags` (Universal Ctags, Debian's `universal-ctags`) then tags the same files, and a
// ctags definition counts as covered when allot has an object of the same file with the same name
// whose span holds the tag's line. Swift, Scala, Dart and Zig, which Debian's ctags cannot parse,
// are checked against the hand-written declaration patterns below instead (a second yardstick
// whose misses are checked by hand: BENCHMARKS.md).
//
// Which ctags kinds count as definitions (DEFINITIONS) is decided per language by one rule,
// not by the numbers: a definition declares a type, a callable, a module, or module-level data.
//   - counted: classes, structs, unions, enums, interfaces/traits/protocols, typedefs and type
//     aliases, functions, methods, prototypes' definitions, macros, modules (Ruby, Elixir, OCaml,
//     Haskell), and variables/constants declared at file, module or namespace level;
//   - not counted: members of a type that hold data (fields, properties, struct members,
//     enumerators, record fields, data constructors), locals and parameters, and names that are
//     references rather than declarations (#include headers, `require`d libraries, imports, `use`
//     aliases), and open naming scopes declared piecemeal across files (C++/C#/PHP/TypeScript
//     namespaces, Java/Go/Kotlin packages, Rust `mod` and `impl` blocks): allot makes those
//     qualified-name prefixes, not objects;
//   - anonymous definitions (ctags' `AnonymousFunction…`, `__anon…`, `<lambda>`) have no name to
//     find, and data ctags gives no scope for on an indented line is inside a block (a local).
//   - a module tag that names the file itself (Haskell's `module M where`, OCaml's file module at
//     line 1) is covered by the file's module object; OCaml's `let () =` binds no name.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { discoverFiles } from '../../indexer/discover.ts';
import { DEFAULT_MAX_FILE_BYTES, extractFile } from '../../indexer/extract/extract-file.ts';
import { loadLanguage } from '../../indexer/languages/registry.ts';
import { CODE_LANGUAGES, type CodeLanguage, type ExtractedObject, type Language } from '../../indexer/types.ts';

/** ctags language -> allot language, and the ctags kinds (long names) that count as definitions. */
const DEFINITIONS: Record<string, { language: Language; kinds: string[]; data?: string[] }> = {
  C: { language: 'c', kinds: ['function', 'struct', 'union', 'enum', 'typedef', 'macro', 'variable'], data: ['variable'] },
  'C++': { language: 'cpp', kinds: ['function', 'class', 'struct', 'union', 'enum', 'typedef', 'macro', 'variable', 'alias'], data: ['variable'] },
  'C#': { language: 'csharp', kinds: ['class', 'struct', 'interface', 'enum', 'method', 'typedef', 'event'] },
  PHP: { language: 'php', kinds: ['class', 'interface', 'trait', 'function', 'define', 'variable'], data: ['variable', 'define'] },
  Ruby: { language: 'ruby', kinds: ['class', 'module', 'method', 'singletonMethod', 'constant'], data: ['constant'] },
  Kotlin: { language: 'kotlin', kinds: ['class', 'interface', 'object', 'method', 'typealias', 'constant', 'variable'], data: ['constant', 'variable'] },
  Sh: { language: 'bash', kinds: ['function', 'alias'] },
  Lua: { language: 'lua', kinds: ['function'] },
  Elixir: { language: 'elixir', kinds: ['module', 'function', 'macro', 'protocol', 'implementation', 'guard', 'delegate', 'callback', 'type', 'exception', 'record', 'operator', 'test'] },
  Haskell: { language: 'haskell', kinds: ['module', 'function', 'type'] },
  OCaml: { language: 'ocaml', kinds: ['module', 'class', 'Exception', 'function', 'method', 'type', 'val', 'var'], data: ['var'] },
  TypeScript: { language: 'typescript', kinds: ['class', 'interface', 'enum', 'function', 'method', 'generator', 'alias', 'constant', 'variable'], data: ['constant', 'variable'] },
  JavaScript: { language: 'javascript', kinds: ['class', 'function', 'method', 'generator', 'getter', 'setter', 'constant', 'variable'], data: ['constant', 'variable'] },
  Python: { language: 'python', kinds: ['class', 'function', 'member', 'variable'], data: ['variable'] },
  Go: { language: 'go', kinds: ['func', 'struct', 'interface', 'type', 'talias', 'methodSpec', 'const', 'var'], data: ['const', 'var'] },
  Rust: { language: 'rust', kinds: ['function', 'method', 'struct', 'enum', 'interface', 'typedef', 'macro', 'variable'], data: ['variable'] },
  Java: { language: 'java', kinds: ['class', 'interface', 'enum', 'annotation', 'method'] },
};
/** Scope kinds that are not types: data declared directly in them is module-level. */
const MODULE_SCOPES = new Set(['namespace', 'module', 'package', 'file', 'script', 'object']);

/** The second yardstick, for languages Debian's ctags has no parser for: one declaration per matching line. */
const PATTERNS: Partial<Record<Language, RegExp[]>> = {
  swift: [/^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|internal|open|fileprivate|final|static|class|override|mutating|nonmutating|convenience|required|indirect|dynamic|nonisolated|package)(?:\([^)]*\))?\s+)*(?:func|class|struct|enum|protocol|actor|typealias)\s+([A-Za-z_][\w]*)/],
  scala: [/^\s*(?:(?:private|protected|final|sealed|abstract|implicit|lazy|override|case|inline|transparent|open)(?:\[[^\]]*\])?\s+)*(?:def|class|object|trait|type|enum)\s+([A-Za-z_][\w]*|`[^`]+`)/],
  dart: [
    /^\s*(?:(?:abstract|base|final|sealed|interface|mixin)\s+)*(?:class|mixin|enum|extension(?:\s+type)?|typedef)\s+([A-Za-z_$][\w$]*)/,
    // a function or method: a return type (capitalised, or a built-in), then the name and its parameters
    /^\s*(?:@\w+\s+)*(?:(?:static|external|abstract|override)\s+)*(?:[A-Z][\w$]*(?:<[^>]*>)?\??|void|int|double|bool|num|dynamic)\s+(?:get\s+|set\s+)?([a-z_$][\w$]*)\s*(?:<[^>]*>)?\(/,
  ],
  zig: [/^\s*(?:pub\s+)?(?:(?:export|extern|inline|noinline)\s+)?fn\s+([A-Za-z_][\w]*)/, /^\s*(?:pub\s+)?const\s+([A-Za-z_][\w]*)\s*=\s*(?:extern\s+|packed\s+)?(?:struct|enum|union|opaque|error)\b/],
};
/** Words the Dart function pattern would read as names: control flow and constructors' `super(...)`. */
const NOT_NAMES = new Set(['if', 'for', 'while', 'switch', 'catch', 'return', 'super', 'this', 'assert', 'await', 'print', 'throw', 'new']);

interface Tag {
  name: string;
  path: string;
  line: number;
  kind: string;
  language: string;
  scopeKind?: string;
  /** ctags' search pattern: the tag's line as `/^text$/`. */
  pattern?: string;
}

interface LanguageRow {
  files: number;
  bytes: number;
  cpuMicros: number;
  /** CPU of parsing the same files once more, grammar only (part of what cpuMicros measures). */
  parseMicros: number;
  /** CPU of running the language's query once more over those trees (part of what cpuMicros measures). */
  queryMicros: number;
  /** CPU of the first extraction of a language's first WARM_UP_BYTES (not in cpuMicros). */
  warmUpMicros: number;
  objects: number;
  definitions: number;
  covered: number;
  yardstick: 'ctags' | 'patterns';
  /** ctags tags set apart as misreadings (see `misread`), not counted as definitions. */
  misread: number;
  misses: string[];
}

function runCtags(root: string, files: string[]): Promise<Tag[]> {
  return new Promise((resolve, reject) => {
    const child = spawn('ctags', ['--output-format=json', '--fields=+nKZl', '--extras=-F', '--sort=no', '-f', '-', '-L', '-'], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
    const tags: Tag[] = [];
    let buf = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      buf += d;
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (!line.startsWith('{')) continue;
        const t = JSON.parse(line);
        if (t._type === 'tag') tags.push({ name: t.name, path: t.path, line: t.line, kind: t.kind, language: t.language, scopeKind: t.scopeKind, pattern: t.pattern });
      }
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.once('error', (err) => reject(new Error(`cannot run ctags (apt-get install universal-ctags): ${err.message}`)));
    child.once('close', (code) => (code === 0 ? resolve(tags) : reject(new Error(`ctags exited ${code}: ${stderr.slice(-500)}`))));
    child.stdin.end(files.join('\n') + '\n');
  });
}

/** Words ctags sometimes takes for a name (`const const`, `export const`, `unique symbol`): no definition is named by a keyword. */
const KEYWORDS = new Set(['const', 'let', 'var', 'export', 'import', 'type', 'interface', 'void', 'extends', 'implements', 'symbol', 'function', 'return', 'new', 'async', 'await', 'static', 'public', 'private', 'protected', 'class', 'enum', 'typeof', 'keyof', 'readonly', 'declare', 'default']);

/**
 * ctags' misreadings, counted apart and never as misses: a keyword as a name, a call statement
 * read as a definition (`describe('x', () => {` as the constant `describe`), a Kotlin lambda's
 * parameter (`.use { response ->` as the method `response`), a Bash `alias` that is an argument
 * (`nvm alias foo`).
 */
function misread(t: Tag): boolean {
  const line = (t.pattern ?? '').replace(/^\/\^|\$\/$/g, '');
  if (KEYWORDS.has(t.name)) return true;
  if (new RegExp(`^\\s*${escape(t.name)}\\s*\\(`).test(line) && (t.kind === 'constant' || t.kind === 'variable')) return true;
  if (t.language === 'Kotlin' && new RegExp(`\\{\\s*\\(?[\\w\\s,]*\\b${escape(t.name)}\\b[\\w\\s,]*\\)?\\s*->`).test(line)) return true;
  // A Kotlin loop variable or `when` subject (`for (call in calls)`, `when (val v = f())`), or a typed lambda parameter (`{ chain: Chain ->`).
  if (t.language === 'Kotlin' && new RegExp(`\\b(for\\s*\\(\\s*${escape(t.name)}\\s+in\\b|when\\s*\\(\\s*val\\s+${escape(t.name)}\\b)|\\{\\s*${escape(t.name)}\\s*:[^{}]*->`).test(line)) return true;
  // A Lua "function" whose name is no Lua name (`mod[k]`, `["boolean"]`, `end]`), or a variable bound to a call's
  // result that takes a function (`local job = new_job(function() ... end)`, `local x = (function() ... end)()`).
  if (t.language === 'Lua' && !/^[A-Za-z_][\w]*([.:][A-Za-z_][\w]*)*$/.test(t.name)) return true;
  if ((t.language === 'Lua' || t.language === 'JavaScript') && t.kind === 'function' && new RegExp(`\\b${escape(t.name.split(/[.:]/).at(-1)!)}\\s*=\\s*(\\(\\s*function\\b|(?!function\\b|async\\b)[\\w.:\\[\\]]+\\s*\\()`).test(line)) return true;
  // An OCaml `let x = ... in` is a local of the expression after it, whatever scope ctags gives it.
  if (t.language === 'OCaml' && t.kind === 'var' && /^\s+let\b.*\bin\s*$/.test(line)) return true;
  // An OCaml module-type constraint (`with type Ast.t = ...`, `and module To = B.Ast`), a packed module `(module M)`, a
  // local `let open M in`, a type extension (`type _ t += C`): ctags tags their names as definitions; none declares one.
  if (t.language === 'OCaml' && (new RegExp(`(\\b(with|and)\\s+(type|module)|\\(module)\\s+${escape(t.name)}\\b`).test(line) || (t.name === 'open' && /\blet\s+open\b/.test(line)) || new RegExp(`\\btype\\b.*\\b${escape(t.name)}\\s*\\+=`).test(line))) return true;
  if (t.language === 'Sh' && t.kind === 'alias' && !new RegExp(`^\\s*alias\\s+(-\\w+\\s+)*${escape(t.name)}=`).test(line)) return true;
  return false;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The tags that count as definitions under the rule above. */
function isDefinition(t: Tag): boolean {
  const d = DEFINITIONS[t.language];
  if (!d || !d.kinds.includes(t.kind)) return false;
  if (isData(t, d)) return isModuleData(t);
  return isNamed(t);
}

/**
 * Data kinds, and ctags' JavaScript `class` for an object literal bound to a name (`var css = { wrapper: {...} }`,
 * `Date.prototype.f = ...` read as a class `Date`): a line without the `class` keyword declares data, not a class.
 */
function isData(t: Tag, d: (typeof DEFINITIONS)[string]): boolean {
  if (t.language === 'JavaScript' && t.kind === 'class') return !/\bclass\s/.test(t.pattern ?? '');
  return d.data?.includes(t.kind) ?? false;
}

/** Data counts at module level only. */
function isModuleData(t: Tag): boolean {
  if (t.scopeKind && !MODULE_SCOPES.has(t.scopeKind)) return false;
  if (!isNamed(t)) return false;
  // `var x = require('x')` binds an import, not a definition.
  if (/=\s*require\s*\(/.test(t.pattern ?? '')) return false;
  // Data with no scope from ctags on an indented line is inside a block (a function body, an `if`): a local.
  if (!t.scopeKind && /^\/\^\s/.test(t.pattern ?? '')) return false;
  // Kotlin declares no module-level data on an indented line (no grouped declarations): package-scoped data there is a
  // class's property whose scope ctags lost (`val dispatcher` of a class with a constructor over several lines).
  if (t.language === 'Kotlin' && t.scopeKind === 'package' && /^\/\^\s/.test(t.pattern ?? '')) return false;
  return true;
}

function isNamed(t: Tag): boolean {
  // Anonymous definitions have no name to find: ctags' `AnonymousFunction1a2b`, `__anon1a2b`, Kotlin's `<lambda>`,
  // OCaml's `let () = ...` and `let _ = ...`.
  return !/^(AnonymousFunction|AnonymousClass|__anon)[0-9a-f]+$|^<lambda>$|^\(\)$|^_$/.test(t.name);
}

/** A name's last segment as ctags and allot write it: `histories.History:new` -> new, no quotes (Elixir tests), no spaces (C++ operators). */
const norm = (s: string) => s.replace(/^["'`]|["'`]$/g, '').replace(/\s+/g, '').split(/::|[.:\\]/).filter(Boolean).at(-1) ?? s;

function covers(objects: ExtractedObject[], name: string, line: number): boolean {
  const n = norm(name);
  return objects.some((o) => o.startLine <= line && line <= o.endLine && norm(o.name) === n);
}

/** ctags' tag for the file's own module (OCaml's `module Angstrom` at line 1 of angstrom.ml, Haskell's `module M where`): the module object covers it. */
function namesTheFile(t: Tag, language: Language): boolean {
  if (t.kind !== 'module') return false;
  if (language === 'haskell') return true;
  return t.line === 1 && norm(t.name).toLowerCase() === path.basename(t.path).replace(/\.[^.]+$/, '').toLowerCase();
}

function patternDefinitions(language: Language, text: string): { name: string; line: number }[] {
  const out: { name: string; line: number }[] = [];
  text.split('\n').forEach((l, i) => {
    for (const re of PATTERNS[language] ?? []) {
      const m = re.exec(l);
      if (m && !NOT_NAMES.has(m[1])) {
        out.push({ name: m[1].replace(/`/g, ''), line: i + 1 });
        break;
      }
    }
  });
  return out;
}

/**
 * CPU of the grammar's parse alone (the same text a cold index parses, its repair applied): the part no query change
 * can cut; and of the language's query run once over that tree (what a query change can cut).
 */
async function parseOnly(language: Language, text: string): Promise<{ parse: number; query: number }> {
  const lang = await loadLanguage(language as CodeLanguage);
  const input = lang.spec.repair?.(text) ?? text;
  lang.parser.reset();
  const before = process.cpuUsage();
  const tree = lang.parser.parse(input);
  const cpu = process.cpuUsage(before);
  const matching = process.cpuUsage();
  if (tree) lang.query.matches(tree.rootNode);
  const matched = process.cpuUsage(matching);
  tree?.delete();
  return { parse: cpu.user + cpu.system, query: matched.user + matched.system };
}

/** Bytes of each language extracted once untimed before its timed extractions (over all trees of a run). */
const WARM_UP_BYTES = 128 * 1024;
const warmedBytes = new Map<Language, number>();

async function measureTree(root: string, missCount: number, repeat: number): Promise<Map<Language, LanguageRow>> {
  const { files } = discoverFiles(root, { maxFileBytes: DEFAULT_MAX_FILE_BYTES });
  for (const l of CODE_LANGUAGES) await loadLanguage(l);
  // `--repeat N`: N untimed passes over the tree first, so the timed one measures the steady state (JIT tiers up).
  for (let pass = 0; pass < repeat; pass++) for (const rel of files) await extractFile(root, rel, { maxFileBytes: DEFAULT_MAX_FILE_BYTES });
  const rows = new Map<Language, LanguageRow>();
  const row = (l: Language, yardstick: LanguageRow['yardstick']) =>
    rows.get(l) ?? rows.set(l, { files: 0, bytes: 0, cpuMicros: 0, parseMicros: 0, queryMicros: 0, warmUpMicros: 0, objects: 0, definitions: 0, covered: 0, misread: 0, yardstick, misses: [] }).get(l)!;
  const objectsOf = new Map<string, ExtractedObject[]>();
  const languageOfFile = new Map<string, Language>();
  const timed = async (rel: string) => {
    const before = process.cpuUsage();
    const out = await extractFile(root, rel, { maxFileBytes: DEFAULT_MAX_FILE_BYTES });
    const cpu = process.cpuUsage(before);
    return { out, micros: cpu.user + cpu.system };
  };
  for (const rel of files) {
    let { out, micros } = await timed(rel);
    if (out.status !== 'extracted' || out.file.language === 'text') continue;
    const r = row(out.file.language, PATTERNS[out.file.language] ? 'patterns' : 'ctags');
    // A language's first WARM_UP_BYTES are extracted twice: the first time (the wasm grammar's and the query's
    // tier-up, paid once per process and grammar) is reported apart, the second counts towards CPU per MB.
    const warm = warmedBytes.get(out.file.language) ?? 0;
    if (warm < WARM_UP_BYTES) {
      warmedBytes.set(out.file.language, warm + out.file.size);
      r.warmUpMicros += micros;
      ({ out, micros } = await timed(rel));
      if (out.status !== 'extracted') continue;
    }
    r.files++;
    r.bytes += out.file.size;
    r.cpuMicros += micros;
    const grammarCpu = await parseOnly(out.file.language, out.file.text);
    r.parseMicros += grammarCpu.parse;
    r.queryMicros += grammarCpu.query;
    r.objects += out.file.objects.length - 1;
    objectsOf.set(rel, out.file.objects);
    languageOfFile.set(rel, out.file.language);
    if (PATTERNS[out.file.language]) {
      for (const d of patternDefinitions(out.file.language, out.file.text)) {
        r.definitions++;
        if (covers(out.file.objects, d.name, d.line)) r.covered++;
        else if (r.misses.length < missCount) r.misses.push(`${rel}:${d.line} ${d.name}`);
      }
    }
  }
  for (const t of await runCtags(root, files)) {
    if (!isDefinition(t)) continue;
    const language = languageOfFile.get(t.path) ?? DEFINITIONS[t.language].language;
    const r = row(language, 'ctags');
    if (misread(t)) {
      r.misread++;
      continue;
    }
    r.definitions++;
    const objects = objectsOf.get(t.path);
    const ok = objects && (namesTheFile(t, language) || covers(objects, t.name, t.line));
    if (ok) r.covered++;
    else if (r.misses.length < missCount) r.misses.push(`${t.path}:${t.line} ${t.kind} ${t.name}${objects ? '' : ` (file ${languageOfFile.get(t.path) ?? 'not parsed as code'})`}`);
  }
  return rows;
}

async function main(argv: string[]) {
  const json = argv.includes('--json');
  const mi = argv.indexOf('--misses');
  const missCount = mi >= 0 ? Number(argv[mi + 1]) : 0;
  const ri = argv.indexOf('--repeat');
  const repeat = ri >= 0 ? Number(argv[ri + 1]) : 0;
  const dirs = argv.filter((a, i) => !a.startsWith('--') && !(mi >= 0 && i === mi + 1) && !(ri >= 0 && i === ri + 1));
  if (!dirs.length || !Number.isInteger(missCount) || !Number.isInteger(repeat) || repeat < 0) {
    console.error('usage: npm run bench:coverage -- DIR [DIR...] [--misses N] [--repeat N] [--json]');
    process.exit(2);
  }
  console.log(`allot coverage of ctags definitions — ${os.cpus().length} cores (${os.cpus()[0]?.model}), node ${process.version}, load ${os.loadavg()[0].toFixed(1)}`);
  const total = new Map<Language, LanguageRow & { trees: string[] }>();
  for (const dir of dirs) {
    const root = path.resolve(dir);
    if (!fs.existsSync(root)) {
      console.error(`no such directory: ${root}`);
      process.exit(2);
    }
    for (const [l, r] of await measureTree(root, missCount, repeat)) {
      const t = total.get(l) ?? total.set(l, { ...r, misses: [], trees: [] }).get(l)!;
      if (t !== r && t.trees.length) for (const k of ['files', 'bytes', 'cpuMicros', 'parseMicros', 'queryMicros', 'warmUpMicros', 'objects', 'definitions', 'covered', 'misread'] as const) t[k] += r[k];
      t.trees.push(path.basename(root));
      t.misses.push(...r.misses);
    }
  }
  const python = total.get('python');
  const perMb = (r: LanguageRow) => r.cpuMicros / 1000 / (r.bytes / 1e6);
  const rows = [...total].filter(([, r]) => r.definitions > 0 || r.files > 0).sort((a, b) => b[1].bytes - a[1].bytes);
  if (json) {
    console.log(JSON.stringify(Object.fromEntries(rows.map(([l, r]) => [l, { ...r, cpuMsPerMb: perMb(r), coverage: r.covered / r.definitions }]))));
    return;
  }
  console.log(`\n${'language'.padEnd(15)} ${'yardstick'.padEnd(9)} ${'files'.padStart(6)} ${'MB'.padStart(7)} ${'defs'.padStart(7)} ${'covered'.padStart(8)} ${'misread'.padStart(8)} ${'CPU ms/MB'.padStart(10)} ${'x Python'.padStart(9)} ${'parse %'.padStart(8)} ${'query %'.padStart(8)} ${'warm-up ms'.padStart(11)}  trees`);
  for (const [l, r] of rows) {
    const cov = r.definitions ? `${((100 * r.covered) / r.definitions).toFixed(1)}%` : '-';
    const ratio = python && l !== 'python' && r.bytes ? (perMb(r) / perMb(python)).toFixed(2) : '-';
    console.log(`${l.padEnd(15)} ${r.yardstick.padEnd(9)} ${String(r.files).padStart(6)} ${(r.bytes / 1e6).toFixed(2).padStart(7)} ${String(r.definitions).padStart(7)} ${cov.padStart(8)} ${String(r.misread).padStart(8)} ${r.bytes ? perMb(r).toFixed(0).padStart(10) : '-'.padStart(10)} ${ratio.padStart(9)} ${(r.cpuMicros ? `${((100 * r.parseMicros) / r.cpuMicros).toFixed(0)}%` : '-').padStart(8)} ${(r.cpuMicros ? `${((100 * r.queryMicros) / r.cpuMicros).toFixed(0)}%` : '-').padStart(8)} ${(r.warmUpMicros / 1000).toFixed(0).padStart(11)}  ${r.trees.join(', ')}`);
  }
  if (missCount) for (const [l, r] of rows) if (r.misses.length) console.log(`\nmissed (${l}):\n  ${r.misses.join('\n  ')}`);
}

await main(process.argv.slice(2));
