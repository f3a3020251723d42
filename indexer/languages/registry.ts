import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread, workerData } from 'node:worker_threads';
import type { CodeLanguage, Language, ParseBackend, SyntaxParser, SyntaxQuery } from '../types.ts';
import { loadNativeGrammar, loadWasmGrammar, type NativeGrammar, type WasmGrammar } from './backends.ts';
import { blankCppMacros, blankExportMacros, dartModernSyntax, kotlinModernSyntax, separateCallSignatures } from './repairs.ts';

/** How a language attaches documentation to a definition. */
export type DocStyle = 'leading-string' | 'preceding-comment';

export interface LanguageSpec {
  language: CodeLanguage;
  extensions: string[];
  /** Interpreters a shebang line may name (`#!/usr/bin/env python3` -> `python`, digits and dots dropped). */
  interpreters?: string[];
  grammar: WasmGrammar;
  /**
   * A native grammar that parses the language faster than its wasm build (`backends.ts`); the wasm grammar
   * stays the fallback, so both must read the same trees (checked per row by `test/extract/languages.test.ts`).
   */
  native?: NativeGrammar;
  docStyle: DocStyle;
  /** Node types that wrap a definition and belong to its span (decorators, `export`). */
  wrappers: string[];
  /** Sibling node types before a definition that belong to it (attributes, comments). */
  leading: string[];
  /** A length-preserving repair of the text before parsing, for a grammar's known gap (see repairs.ts). */
  repair?: (text: string) => string;
}

const vscode = (file: string): WasmGrammar => ({ pkg: '@vscode/tree-sitter-wasm', file: `wasm/tree-sitter-${file}.wasm` });
const cursorless = (file: string): WasmGrammar => ({ pkg: '@cursorless/tree-sitter-wasms', file: `out/tree-sitter-${file}.wasm` });
const comments = ['comment'];

/** One row per language; its query is `indexer/languages/<language>.scm`. */
export const LANGUAGE_SPECS: Record<CodeLanguage, LanguageSpec> = {
  python: { language: 'python', extensions: ['.py', '.pyi'], interpreters: ['python', 'pypy'], grammar: vscode('python'), docStyle: 'leading-string', wrappers: ['decorated_definition'], leading: [] },
  typescript: { language: 'typescript', extensions: ['.ts', '.mts', '.cts'], interpreters: ['ts-node', 'tsx', 'deno', 'bun'], grammar: vscode('typescript'), docStyle: 'preceding-comment', wrappers: ['export_statement'], leading: ['comment', 'decorator'], repair: separateCallSignatures },
  tsx: { language: 'tsx', extensions: ['.tsx'], grammar: vscode('tsx'), docStyle: 'preceding-comment', wrappers: ['export_statement'], leading: ['comment', 'decorator'], repair: separateCallSignatures },
  javascript: { language: 'javascript', extensions: ['.js', '.mjs', '.cjs', '.jsx'], interpreters: ['node', 'nodejs'], grammar: vscode('javascript'), docStyle: 'preceding-comment', wrappers: ['export_statement'], leading: ['comment', 'decorator'] },
  java: { language: 'java', extensions: ['.java'], grammar: vscode('java'), docStyle: 'preceding-comment', wrappers: [], leading: ['block_comment', 'line_comment'] },
  go: { language: 'go', extensions: ['.go'], grammar: vscode('go'), docStyle: 'preceding-comment', wrappers: [], leading: comments },
  rust: { language: 'rust', extensions: ['.rs'], grammar: vscode('rust'), docStyle: 'preceding-comment', wrappers: [], leading: ['line_comment', 'block_comment', 'attribute_item'] },
  c: { language: 'c', extensions: ['.c'], grammar: cursorless('c'), docStyle: 'preceding-comment', wrappers: [], leading: comments , repair: blankExportMacros },
  cpp: { language: 'cpp', extensions: ['.cc', '.cpp', '.cxx', '.c++', '.hh', '.hpp', '.hxx', '.h++', '.ipp', '.tpp', '.inl'], grammar: vscode('cpp'), docStyle: 'preceding-comment', wrappers: ['template_declaration'], leading: comments, repair: blankCppMacros },
  csharp: { language: 'csharp', extensions: ['.cs'], grammar: vscode('c-sharp'), docStyle: 'preceding-comment', wrappers: [], leading: ['comment', 'attribute_list'] },
  php: { language: 'php', extensions: ['.php', '.phtml'], interpreters: ['php'], grammar: vscode('php'), docStyle: 'preceding-comment', wrappers: [], leading: ['comment', 'attribute_list'] },
  ruby: { language: 'ruby', extensions: ['.rb', '.rake', '.gemspec', '.ru'], interpreters: ['ruby'], grammar: vscode('ruby'), docStyle: 'preceding-comment', wrappers: [], leading: comments },
  kotlin: { language: 'kotlin', extensions: ['.kt', '.kts'], grammar: cursorless('kotlin'), docStyle: 'preceding-comment', wrappers: [], leading: ['line_comment', 'multiline_comment'], repair: kotlinModernSyntax },
  swift: { language: 'swift', extensions: ['.swift'], grammar: cursorless('swift'), docStyle: 'preceding-comment', wrappers: [], leading: ['comment', 'multiline_comment'] },
  scala: { language: 'scala', extensions: ['.scala', '.sc'], interpreters: ['scala'], grammar: cursorless('scala'), native: { pkg: 'tree-sitter-scala' }, docStyle: 'preceding-comment', wrappers: [], leading: ['comment', 'block_comment'] },
  bash: { language: 'bash', extensions: ['.sh', '.bash', '.zsh', '.ksh'], interpreters: ['sh', 'bash', 'zsh', 'ksh', 'dash'], grammar: vscode('bash'), docStyle: 'preceding-comment', wrappers: [], leading: comments },
  lua: { language: 'lua', extensions: ['.lua'], interpreters: ['lua', 'luajit'], grammar: cursorless('lua'), docStyle: 'preceding-comment', wrappers: [], leading: comments },
  elixir: { language: 'elixir', extensions: ['.ex', '.exs'], interpreters: ['elixir'], grammar: cursorless('elixir'), docStyle: 'preceding-comment', wrappers: [], leading: comments },
  dart: { language: 'dart', extensions: ['.dart'], grammar: cursorless('dart'), docStyle: 'preceding-comment', wrappers: [], leading: ['comment', 'documentation_comment', 'annotation'], repair: dartModernSyntax },
  haskell: { language: 'haskell', extensions: ['.hs'], interpreters: ['runhaskell', 'runghc'], grammar: cursorless('haskell'), docStyle: 'preceding-comment', wrappers: [], leading: ['comment', 'haddock', 'signature'] },
  ocaml: { language: 'ocaml', extensions: ['.ml'], interpreters: ['ocaml'], grammar: { pkg: 'tree-sitter-ocaml', file: 'tree-sitter-ocaml.wasm' }, docStyle: 'preceding-comment', wrappers: ['value_definition', 'type_definition', 'module_definition', 'class_definition'], leading: comments },
  ocaml_interface: { language: 'ocaml_interface', extensions: ['.mli'], grammar: { pkg: 'tree-sitter-ocaml', file: 'tree-sitter-ocaml_interface.wasm' }, docStyle: 'preceding-comment', wrappers: ['type_definition', 'module_definition'], leading: comments },
  zig: { language: 'zig', extensions: ['.zig'], grammar: cursorless('zig'), docStyle: 'preceding-comment', wrappers: [], leading: comments },
};

const BY_EXTENSION = new Map<string, CodeLanguage>(
  Object.values(LANGUAGE_SPECS).flatMap((s) => s.extensions.map((e) => [e, s.language] as const)),
);
const BY_INTERPRETER = new Map<string, CodeLanguage>(
  Object.values(LANGUAGE_SPECS).flatMap((s) => (s.interpreters ?? []).map((i) => [i, s.language] as const)),
);

/**
 * The language of a file: by extension; a `.h` header as C++ when its text
 * reads as C++ (C otherwise); any other file (`configure`, `x.sh.in`, but not a
 * document such as `.md`) by its shebang line.
 * `text` is the file's content when known (detection by path alone takes `.h`
 * as C and ignores shebangs). `text` for everything else.
 */
export function languageOf(file: string, text?: string): Language {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.h') return text !== undefined && looksLikeCpp(text) ? 'cpp' : 'c';
  const known = BY_EXTENSION.get(ext);
  if (known) return known;
  return (!DOCUMENTS.has(ext) && text !== undefined && shebangLanguage(text)) || 'text';
}

/** Formats whose first line is content even when it starts with `#!`. */
const DOCUMENTS = new Set(['.md', '.markdown', '.txt', '.rst', '.adoc', '.json', '.yaml', '.yml', '.toml', '.xml', '.html', '.csv']);

/** The language a `#!` first line names: `#!/usr/bin/env -S python3 -u` -> python, `#!/bin/bash` -> bash. */
export function shebangLanguage(text: string): CodeLanguage | null {
  if (!text.startsWith('#!')) return null;
  const eol = text.indexOf('\n');
  const words = text.slice(2, eol < 0 ? undefined : eol).trim().split(/\s+/);
  let i = 0;
  if (path.posix.basename(words[0] ?? '') === 'env') for (i = 1; i < words.length && (words[i].startsWith('-') || words[i].includes('=')); i++);
  const interpreter = path.posix.basename(words[i] ?? '').replace(/[\d.]+$/, '');
  return BY_INTERPRETER.get(interpreter) ?? null;
}

/** C++ constructs C never has, outside comments: classes, namespaces, templates, access labels, `std::`. */
const CPP_SIGNS =
  /^\s*(class\s+\w+\s*[:{]|namespace\s+[\w:]*\s*\{|template\s*<|using\s+namespace\b|(public|private|protected)\s*:)|\bstd::\w|#\s*include\s*<(iostream|string|vector|memory|map|utility|functional|algorithm)>/m;
function looksLikeCpp(text: string): boolean {
  return CPP_SIGNS.test(text.slice(0, 200_000).replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, ''));
}

const QUERY_DIR = path.dirname(fileURLToPath(import.meta.url));

/** A query file with its `; include <file>` lines replaced by those files (relative to this folder), recursively. */
export function querySource(file: string, seen: string[] = []): string {
  if (seen.includes(file)) throw new Error(`query include cycle: ${[...seen, file].join(' -> ')}`);
  const text = fs.readFileSync(path.join(QUERY_DIR, file), 'utf8');
  return text.replace(/^; include (\S+)[ \t]*$/gm, (_, inc: string) => querySource(inc, [...seen, file]));
}

/** A grammar with its compiled query, ready to parse. */
export interface LoadedLanguage {
  spec: LanguageSpec;
  /** Which backend parses it: `native` where the language has a native grammar and it loaded. */
  backend: ParseBackend;
  parser: SyntaxParser;
  /**
   * The language's query, with patterns capturing `@wrapper` and `@leading` nodes (see LanguageSpec) appended: found
   * by query, since walking parents and siblings costs O(depth) each in tree-sitter, and in the same pass as the
   * definitions, since a second pass over the tree cost as much as a third of the first one.
   */
  query: SyntaxQuery;
}

/** `ALLOT_PARSER=wasm` parses every language with its wasm grammar (native grammars unused). */
function preferredBackend(): ParseBackend {
  return process.env.ALLOT_PARSER === 'wasm' ? 'wasm' : 'native';
}

const loaded = new Map<string, Promise<LoadedLanguage>>();

/** Loads (once per thread) the grammar and the query file `indexer/languages/<language>.scm`. */
export function loadLanguage(language: CodeLanguage, backend: ParseBackend = preferredBackend()): Promise<LoadedLanguage> {
  const key = `${language}:${backend}`;
  let p = loaded.get(key);
  if (!p) {
    p = loadSpec(LANGUAGE_SPECS[language], backend);
    loaded.set(key, p);
  }
  return p;
}

/** A language's grammar and query with `backend`, or with its wasm grammar where the native one does not load. */
export async function loadSpec(spec: LanguageSpec, backend: ParseBackend): Promise<LoadedLanguage> {
  const source = querySource(`${spec.language}.scm`);
  const patterns = [
    spec.wrappers.length ? `[${spec.wrappers.map((t) => `(${t})`).join(' ')}] @wrapper` : '',
    spec.leading.length ? `[${spec.leading.map((t) => `(${t})`).join(' ')}] @leading` : '',
  ].join('\n');
  const query = `${source}\n${patterns}`;
  if (backend === 'native' && spec.native) {
    try {
      return { spec, backend: 'native', ...loadNativeGrammar(spec.native, query) };
    } catch (err) {
      warnFallback(spec, err as Error);
    }
  }
  return { spec, backend: 'wasm', ...(await loadWasmGrammar(spec.grammar, query)) };
}

/**
 * One line when a native grammar does not load (not built at install, a missing system library): the language is
 * parsed by its wasm grammar, to the same objects, only slower. Said by the main thread or the first parse worker
 * (`workerData.reportsFallback`), not once per thread.
 */
function warnFallback(spec: LanguageSpec, err: Error): void {
  if (!isMainThread && (workerData as { reportsFallback?: boolean } | null)?.reportsFallback !== true) return;
  const why = err.message.split('\n')[0];
  process.stderr.write(`allot: the native ${spec.language} parser (${spec.native!.pkg}) did not load, parsing ${spec.language} with its wasm grammar (slower): ${why}\n`);
}
