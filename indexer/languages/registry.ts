import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Language as Grammar, Parser, Query } from 'web-tree-sitter';
import type { CodeLanguage, Language } from '../types.ts';

/** How a language attaches documentation to a definition. */
export type DocStyle = 'leading-string' | 'preceding-comment';

export interface LanguageSpec {
  language: CodeLanguage;
  extensions: string[];
  /** Grammar file inside @vscode/tree-sitter-wasm (its ABI matches the pinned web-tree-sitter). */
  wasm: string;
  docStyle: DocStyle;
  /** Node types that wrap a definition and belong to its span (decorators, `export`). */
  wrappers: string[];
  /** Sibling node types before a definition that belong to it (attributes, comments). */
  leading: string[];
}

export const LANGUAGE_SPECS: Record<CodeLanguage, LanguageSpec> = {
  python: { language: 'python', extensions: ['.py', '.pyi'], wasm: 'tree-sitter-python.wasm', docStyle: 'leading-string', wrappers: ['decorated_definition'], leading: [] },
  typescript: { language: 'typescript', extensions: ['.ts', '.mts', '.cts'], wasm: 'tree-sitter-typescript.wasm', docStyle: 'preceding-comment', wrappers: ['export_statement'], leading: ['comment', 'decorator'] },
  tsx: { language: 'tsx', extensions: ['.tsx'], wasm: 'tree-sitter-tsx.wasm', docStyle: 'preceding-comment', wrappers: ['export_statement'], leading: ['comment', 'decorator'] },
  javascript: { language: 'javascript', extensions: ['.js', '.mjs', '.cjs', '.jsx'], wasm: 'tree-sitter-javascript.wasm', docStyle: 'preceding-comment', wrappers: ['export_statement'], leading: ['comment', 'decorator'] },
  java: { language: 'java', extensions: ['.java'], wasm: 'tree-sitter-java.wasm', docStyle: 'preceding-comment', wrappers: [], leading: ['block_comment', 'line_comment'] },
  go: { language: 'go', extensions: ['.go'], wasm: 'tree-sitter-go.wasm', docStyle: 'preceding-comment', wrappers: [], leading: ['comment'] },
  rust: { language: 'rust', extensions: ['.rs'], wasm: 'tree-sitter-rust.wasm', docStyle: 'preceding-comment', wrappers: [], leading: ['line_comment', 'block_comment', 'attribute_item'] },
};

const BY_EXTENSION = new Map<string, CodeLanguage>(
  Object.values(LANGUAGE_SPECS).flatMap((s) => s.extensions.map((e) => [e, s.language] as const)),
);

/** The language of a path by its extension; `text` for everything else. */
export function languageOf(file: string): Language {
  return BY_EXTENSION.get(path.extname(file).toLowerCase()) ?? 'text';
}

const require = createRequire(import.meta.url);
const WASM_DIR = path.join(path.dirname(require.resolve('@vscode/tree-sitter-wasm/package.json')), 'wasm');
const QUERY_DIR = path.dirname(fileURLToPath(import.meta.url));

/** A grammar with its compiled query, ready to parse. */
export interface LoadedLanguage {
  spec: LanguageSpec;
  parser: Parser;
  query: Query;
  /** Captures `@wrapper` and `@leading` nodes (see LanguageSpec): found by query, since walking parents and siblings costs O(depth) each in tree-sitter. */
  attachments: Query | null;
}

let init: Promise<void> | undefined;
const loaded = new Map<CodeLanguage, Promise<LoadedLanguage>>();

/** Loads (once per thread) the grammar and the query file `indexer/languages/<language>.scm`. */
export function loadLanguage(language: CodeLanguage): Promise<LoadedLanguage> {
  let p = loaded.get(language);
  if (!p) {
    p = (async () => {
      init ??= Parser.init();
      await init;
      const spec = LANGUAGE_SPECS[language];
      const grammar = await Grammar.load(path.join(WASM_DIR, spec.wasm));
      const parser = new Parser();
      parser.setLanguage(grammar);
      const source = fs.readFileSync(path.join(QUERY_DIR, `${language}.scm`), 'utf8');
      const patterns = [
        spec.wrappers.length ? `[${spec.wrappers.map((t) => `(${t})`).join(' ')}] @wrapper` : '',
        spec.leading.length ? `[${spec.leading.map((t) => `(${t})`).join(' ')}] @leading` : '',
      ].join('\n');
      return { spec, parser, query: new Query(grammar, source), attachments: patterns.trim() ? new Query(grammar, patterns) : null };
    })();
    loaded.set(language, p);
  }
  return p;
}
