/**
 * What the witnesses know about one program: the facts a single pass over its
 * tree-sitter tree collects (bindings, uses, imports, definitions, calls with
 * their argument counts, exits, size). Language-specific collectors fill them
 * (`analyze-python.ts`, `analyze-script.ts`).
 */
import type { ArbitrateLanguage } from './types.ts';

/** An import (or a re-export) as written. */
export interface ImportRecord {
  /** The local name it binds (`np` in `import numpy as np`, `a` in `import a.b`); null for a wildcard or a side-effect import. */
  local: string | null;
  /** The module as written: Python's dotted name with its leading dots, a TS/JS specifier. */
  module: string;
  /** The imported name; null when the module itself is bound (`import a.b`, `import * as ns`). */
  name: string | null;
  /** `from m import *`, `export * from 'm'`. */
  wildcard: boolean;
  /** `export { a } from 'm'`: makes a name available to importers, binds nothing locally. */
  reexport: boolean;
  /** TS/JS `import x from 'm'`: the module's default export. */
  isDefault: boolean;
  line: number;
}

/** One call in the program with what its arguments look like. */
export interface CallSite {
  line: number;
  /** The callee's last segment: `parse` in `self.parser.parse(x)`. */
  name: string;
  /** The dotted chain before the name (`self`, `os.path`), null for a bare call, `?` when it is not a plain chain (`f().g()`). */
  qualifier: string | null;
  positional: number;
  keywords: string[];
  /** `*args`, `**kw` or `...xs` at the call: its argument count is not known. */
  spread: boolean;
  /** `new C(...)`. */
  isNew: boolean;
  /** The class (of this program) whose body holds the call, if any. */
  enclosingClass: string | null;
}

/** A function or class the program itself defines. */
export interface LocalDef {
  name: string;
  kind: 'function' | 'class';
  /** The declaration head up to its body, whitespace collapsed (as the indexer stores signatures). */
  signature: string;
  /** Decorator texts without `@`. */
  decorators: string[];
  /** The class whose body defines it (a method), or null. */
  className: string | null;
  /** Base classes as written (classes only). */
  bases: string[];
  line: number;
}

export interface ProgramFacts {
  language: ArbitrateLanguage;
  /** tree-sitter ERROR and MISSING nodes: line and what was there (the first few). */
  errors: { line: number; detail: string }[];
  /** How many ERROR and MISSING nodes the tree has. */
  errorCount: number;
  /** Every name the program binds anywhere (flat: scopes are not told apart). */
  bindings: Set<string>;
  /** The lines each name is bound on (to leave a replaced symbol's own bindings out). */
  bindingLines: Map<string, number[]>;
  /** Names the program reads, with the first line each is read on. */
  uses: Map<string, number>;
  imports: ImportRecord[];
  defs: LocalDef[];
  calls: CallSite[];
  /** Exit statements: `return expr`, bare `return`, `raise`/`throw`, `yield`. */
  exits: { returns: number; bareReturns: number; raises: number; yields: number };
  /** Leaf tokens without comments and docstrings: a size that formatting does not change. */
  tokens: number;
  /** Whether an import statement stands at the top level (the program looks like a whole file). */
  topLevelImports: boolean;
  /** TS/JS: the text imports or exports (ES or CommonJS), so it is a module rather than a script sharing globals. */
  isModule: boolean;
}

export function emptyFacts(language: ArbitrateLanguage): ProgramFacts {
  return {
    language,
    errors: [],
    errorCount: 0,
    bindings: new Set(),
    bindingLines: new Map(),
    uses: new Map(),
    imports: [],
    defs: [],
    calls: [],
    exits: { returns: 0, bareReturns: 0, raises: 0, yields: 0 },
    tokens: 0,
    topLevelImports: false,
    isModule: false,
  };
}

/** A dotted chain of plain names as text (`a.b.c`), or null when the expression is anything else. */
export function dottedText(text: string): string | null {
  const t = text.replace(/\s+/g, '');
  return /^[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*$/.test(t) ? t : null;
}

/** Records that `name` is bound on `line`. */
export function addBinding(facts: ProgramFacts, name: string, line: number): void {
  facts.bindings.add(name);
  const lines = facts.bindingLines.get(name);
  if (!lines) facts.bindingLines.set(name, [line]);
  else if (lines.at(-1) !== line) lines.push(line);
}
