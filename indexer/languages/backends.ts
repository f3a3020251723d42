import path from 'node:path';
import { createRequire } from 'node:module';
import type { SyntaxParser, SyntaxQuery } from '../types.ts';

/**
 * The two parse backends behind one contract (`SyntaxParser`, `SyntaxQuery` in `../types.ts`): wasm grammars run by
 * web-tree-sitter, which load everywhere, and native grammars run by the node tree-sitter bindings, for languages
 * whose wasm build parses several times slower than native code does (today Scala; BENCHMARKS.md says why not
 * Swift, C++ or OCaml). A native grammar is an optional dependency built or loaded at install; where it is missing
 * or does not load, the wasm grammar parses instead.
 */

/** Where a grammar's wasm file lives: a package and a path inside it (each checked against the pinned web-tree-sitter's ABI). */
export interface WasmGrammar {
  pkg: '@vscode/tree-sitter-wasm' | '@cursorless/tree-sitter-wasms' | 'tree-sitter-ocaml';
  file: string;
}

/**
 * A native grammar package (node bindings, an optional dependency). It must parse as the language's wasm build does
 * (the same grammar version), so that either backend yields the same objects.
 */
export interface NativeGrammar {
  pkg: 'tree-sitter-scala';
}

export interface Grammar {
  parser: SyntaxParser;
  query: SyntaxQuery;
}

const require = createRequire(import.meta.url);

function wasmPath(g: WasmGrammar): string {
  return path.join(path.dirname(require.resolve(`${g.pkg}/package.json`)), g.file);
}

let init: Promise<void> | undefined;

/** A wasm grammar with its compiled query. web-tree-sitter is loaded with the first grammar: a run that parses nothing never loads it. */
export async function loadWasmGrammar(g: WasmGrammar, querySource: string): Promise<Grammar> {
  const { Language, Parser, Query } = await import('web-tree-sitter');
  init ??= Parser.init();
  await init;
  const language = await Language.load(wasmPath(g));
  const parser = new Parser();
  parser.setLanguage(language);
  return { parser, query: new Query(language, querySource) };
}

/** The node bindings' module, as far as this file uses it. */
interface NativeModule {
  new (): { setLanguage(language: unknown): void; reset(): void; parse: SyntaxParser['parse'] };
  Query: new (language: unknown, source: string) => SyntaxQuery;
  Tree: { prototype: { delete?: () => void } };
  TreeCursor: { prototype: { delete?: () => void } };
}

let native: NativeModule | undefined;

function nativeModule(): NativeModule {
  if (!native) {
    const m = require('tree-sitter') as NativeModule;
    // The contract frees trees and cursors explicitly (wasm memory); native ones are freed by the garbage collector.
    m.Tree.prototype.delete ??= () => {};
    m.TreeCursor.prototype.delete ??= () => {};
    native = m;
  }
  return native;
}

/** A native grammar with its compiled query; throws when the bindings or the grammar's addon do not load. */
export function loadNativeGrammar(g: NativeGrammar, querySource: string): Grammar {
  const Parser = nativeModule();
  const language = require(g.pkg) as unknown;
  const parser = new Parser();
  parser.setLanguage(language);
  return { parser, query: new Parser.Query(language, querySource) };
}
