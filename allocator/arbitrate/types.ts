/**
 * Public shapes of program arbitration (`allot arbitrate`): two candidate
 * programs, typed witnesses computed against the repository's index, and the
 * gate's choice. The witnesses never open a database: everything they need
 * from the index comes through `ArbitrateIndex`, which the store implements
 * (`indexer/store/arbitrate-source.ts`).
 */
import type { CodeObject, Language } from '../../indexer/types.ts';

/** Languages arbitration understands (builtin lists and scope rules exist for these). */
export const ARBITRATE_LANGUAGES = ['python', 'typescript', 'tsx', 'javascript'] as const;
export type ArbitrateLanguage = (typeof ARBITRATE_LANGUAGES)[number];

/** Which program a witness favours: `none` when it sees no difference (or cannot judge). */
export type Direction = 'alternative' | 'default' | 'none';

/** The four witnesses, one file each in `allocator/arbitrate/`. */
export type WitnessType = 'syntax' | 'interface' | 'names' | 'compactness';
export const WITNESS_TYPES: readonly WitnessType[] = ['syntax', 'interface', 'names', 'compactness'];

/** One fact behind a witness: a line and a name of one program (both null for a summary). */
export interface Evidence {
  /** The program the fact is about; null when it concerns both. */
  program: 'default' | 'alternative' | null;
  /** 1-based line in that program's text, or null. */
  line: number | null;
  /** The name involved (a callee, an unbound name), or null. */
  name: string | null;
  detail: string;
}

export interface Witness {
  type: WitnessType;
  direction: Direction;
  evidence: Evidence[];
}

/** The gate's answer: `alternative` only when a witness favours it and none favours the default. */
export interface Arbitration {
  choice: 'default' | 'alternative';
  witnesses: Witness[];
  /** One line for a person. */
  reason: string;
}

export interface ArbitrateOptions {
  language: ArbitrateLanguage;
  /**
   * Where the candidate goes: a repository-relative path (the target file
   * supplies imports and scope) and optionally the symbol it replaces (a name
   * or qualified name in that file).
   */
  at?: { path: string; symbol?: string };
  /**
   * Where the candidate would live when there is no `at` (relative imports are
   * resolved from it); default: the repository root.
   */
  path?: string;
}

/**
 * What the witnesses read from the repository's index. Objects are the
 * indexer's `CodeObject`s (signatures included).
 */
export interface ArbitrateIndex {
  /** Objects whose own (last-segment) name is `name`, in a stable order. */
  objectsNamed(name: string): CodeObject[];
  /** Objects whose enclosing object is `id` (a class's methods, a module's top level), in source order. */
  members(id: string): CodeObject[];
  /** Every object of one indexed file, in source order; [] when the path is not indexed. */
  fileObjects(path: string): CodeObject[];
  /** The indexed text of a file, or null when the path is not indexed. */
  fileText(path: string): string | null;
  /** The repository files a module specifier, imported from `fromPath`, names; [] for modules outside the repository. */
  moduleFiles(spec: string, fromPath: string, language: Language): string[];
}

/** A request arbitration cannot serve (unknown `at` path or symbol, unsupported language): a message for the user. */
export class ArbitrateError extends Error {
  override name = 'ArbitrateError';
}
