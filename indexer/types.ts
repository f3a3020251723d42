/**
 * Public shapes of the indexer layer: what extraction produces, what the store
 * holds and what retrieval returns. Everything above the indexer (allocator,
 * daemon, clients) speaks in these types.
 */

/** Languages parsed with tree-sitter; `text` is every other readable file. */
export const CODE_LANGUAGES = [
  'python', 'typescript', 'tsx', 'javascript', 'java', 'go', 'rust',
  'c', 'cpp', 'csharp', 'php', 'ruby', 'kotlin', 'swift', 'scala', 'bash', 'lua', 'elixir', 'dart', 'haskell', 'ocaml', 'ocaml_interface', 'zig',
] as const;
export type CodeLanguage = (typeof CODE_LANGUAGES)[number];
export type Language = CodeLanguage | 'text';

/** What a canonical code object is. `module` is a source file as an object; `file` a non-code text file. */
export const OBJECT_KINDS = [
  'module', 'file', 'class', 'interface', 'struct', 'enum', 'trait',
  // A named module inside a file (Ruby `module`, Elixir `defmodule`, OCaml `module M = struct`): a container whose functions stay functions.
  'namespace',
  'type', 'function', 'method', 'constant',
] as const;
export type ObjectKind = (typeof OBJECT_KINDS)[number];

/** Kinds of object a value can be an instance of: a receiver (`x` in `x.m(`) stands for one of these. */
export const TYPE_KINDS: ReadonlySet<ObjectKind> = new Set<ObjectKind>(['class', 'interface', 'struct', 'enum', 'trait', 'type']);
/** Kinds of object whose members a qualifier names (`T.m`, `self.m` inside it): the types, and namespaces, which have no instances. */
export const SCOPE_KINDS: ReadonlySet<ObjectKind> = new Set<ObjectKind>([...TYPE_KINDS, 'namespace']);

/**
 * One rendering of an object. `signature`, `body` and `docstring` come from the
 * object's own source; `callsite`, `import` and `testref` are lines elsewhere
 * that use the object (derived from resolved references); `window` is a line
 * window of a non-code text file.
 */
export type ViewKind = 'signature' | 'body' | 'docstring' | 'callsite' | 'import' | 'testref' | 'window';

/** How one object refers to a name. */
export type ReferenceKind = 'call' | 'import' | 'inherit';

/** What a reference filter can ask for (`find_references`): a kind of use, or uses from test code. */
export const REFERENCE_FILTERS = ['call', 'import', 'inherit', 'test'] as const;
export type ReferenceFilter = (typeof REFERENCE_FILTERS)[number];

/** An object as extraction sees it, before ids are assigned. Lines are 1-based and inclusive. */
export interface ExtractedObject {
  /** Index of the enclosing object in the same file's list, or null for top level (the module's children have the module as parent). */
  parent: number | null;
  kind: ObjectKind;
  name: string;
  /** Dotted path of enclosing named scopes plus the name, e.g. `Parser.parse_file`. The module object's qualified name is its module path. */
  qualifiedName: string;
  startLine: number;
  endLine: number;
  startByte: number;
  endByte: number;
  /** The declaration head, e.g. `def parse(self, text: str) -> Tree:`; empty for modules and files. */
  signature: string;
  docstring: string | null;
}

/** A view of an object of the same file: a line range; `text` is what its lines show (see extract/view-text.ts), which the store indexes but does not keep. */
export interface ExtractedView {
  object: number;
  kind: ViewKind;
  startLine: number;
  endLine: number;
  text: string;
}

/** A reference from an object (by index) to a name: one per distinct (kind, qualifier, name, module, alias) an object uses, at its first line. */
export interface ExtractedReference {
  source: number;
  kind: ReferenceKind;
  /** The referenced name's last segment: `parse` for `self.parser.parse(...)`. */
  name: string;
  /** What stands before the name, as written: `self.parser`, `os.path`, or null. */
  qualifier: string | null;
  /** For imports: the module specifier as written (`..core.basic`, `./util`, `java.util.List`). */
  module: string | null;
  /** For imports: the local name the import binds (`c` in `from a import b as c`), when it differs. */
  alias: string | null;
  line: number;
}

/** Everything one file yields. */
export interface FileExtraction {
  path: string;
  language: Language;
  hash: string;
  size: number;
  mtimeMs: number;
  lineCount: number;
  /** The decoded text (BOM removed, invalid UTF-8 replaced). */
  text: string;
  /** tree-sitter ERROR/MISSING nodes seen; the file is still indexed with what parsed. */
  parseErrors: number;
  /** Non-fatal problems (invalid UTF-8 replaced, parse abandoned...) reported with the path. */
  warnings: string[];
  objects: ExtractedObject[];
  views: ExtractedView[];
  references: ExtractedReference[];
  /** Set when the file was indexed with less than extraction gives: minified or generated code, or views over the per-file caps. */
  limit: { reason: LimitReason; message: string } | null;
}

/** Why a file was indexed with less than extraction gives (see extract/limits.ts). */
export type LimitReason = 'minified' | 'views';

/** Why discovery left a path out. */
export type SkipReason = 'binary' | 'too-large' | 'symlink-outside' | 'symlink' | 'ignored' | 'unreadable' | 'vanished';

/** A stored object, as read back from the index. */
export interface CodeObject {
  id: string;
  path: string;
  language: Language;
  parentId: string | null;
  kind: ObjectKind;
  name: string;
  qualifiedName: string;
  startLine: number;
  endLine: number;
  startByte: number;
  endByte: number;
  signature: string;
  docstring: string | null;
}

/** A stored view. `path` is where its text lives, which differs from the object's for derived views; `tokens` counts `text` (cl100k_base). */
export interface View {
  id: number;
  objectId: string;
  path: string;
  kind: ViewKind;
  startLine: number;
  endLine: number;
  text: string;
  tokens: number;
}

/** A stored reference with its resolution (null when the index could not resolve it). */
export interface Reference {
  sourceId: string;
  path: string;
  kind: ReferenceKind;
  name: string;
  qualifier: string | null;
  module: string | null;
  alias: string | null;
  line: number;
  targetId: string | null;
}

/**
 * One retrieved view, as every retriever returns it. `fiber` is the object's
 * provenance fiber: its normalised file path.
 */
export interface Candidate {
  viewId: number;
  objectId: string;
  fiber: string;
  /** Where the view's text lives (differs from `fiber` for callsite/import/testref views). */
  path: string;
  objectName: string;
  objectKind: ObjectKind;
  viewKind: ViewKind;
  startLine: number;
  endLine: number;
  /** Higher is better; comparable only within one result list. */
  score: number;
  /** Why it was found, e.g. `bm25`. */
  reason: string;
  /**
   * Found through the index's structure for a query that is code (an import, a call or a name of the query, or a
   * reference-graph neighbour of those), not through words of its text: what the query needs of it is its head
   * (declaration, docstring, first lines), so the allocator renders the head, not a window matched to the query.
   */
  viaStructure?: boolean;
  /** Found only through a plain English word of a prose query that happens to name it: fusion counts it little. */
  weak?: boolean;
  /**
   * The evidence of the object's file among the retrieved objects, 0..1 (the best file 1), when the retriever
   * weighs files (prose queries): where the answer to a question most likely lives, for the companion and the fill.
   */
  fileScore?: number;
  /**
   * How strongly the query's evidence supports the object, 0..1, comparable across ranks and queries (unlike `score`,
   * whose reciprocal ranks fall the same way whatever the query), when the retriever reports it (fused prose
   * queries): the allocator's fill stops on it (`fillRelevance`).
   */
  relevance?: number;
  /** A class the query calls members through (a local bound to it, a base of a class it declares): its members matter. */
  receiver?: boolean;
  /**
   * Retrieved for a question (a prose or names query, not the lines at a cursor): which object answers it is uncertain,
   * so the allocator's fill gives no further object more than b_obj (`FillContext.question`).
   */
  question?: boolean;
}

/** Counts shown after an index run and by status. */
export interface IndexSummary {
  files: number;
  filesByLanguage: Record<string, number>;
  /** Files indexed as plain text for want of a grammar, by extension, most first. */
  textByExtension: Record<string, number>;
  /** Files of this run parsed, and files restored from the extraction cache (content indexed before, on any branch or path). */
  parsed: number;
  restored: number;
  unchanged: number;
  removed: number;
  objects: number;
  views: number;
  references: number;
  resolvedReferences: number;
  /**
   * The resolution pass of this run, if one ran: `changes` resolved only the references the run's changes reach
   * (`visited` of `references`), `full` every one (after many files changed).
   */
  resolution: { mode: 'full' | 'changes'; visited: number } | null;
  /** Files left out, counted by reason (`ignored` counts ignored folders and files as they were met). */
  skipped: Record<string, number>;
  /** Every file left out for a reason other than ignore rules, with the reason. */
  skippedPaths: { path: string; reason: SkipReason; message: string }[];
  /** Files of this run indexed with less than extraction gives, counted by reason: `minified` (one file object, no views), `views` (views over the per-file caps). */
  limited: Record<string, number>;
  /** Each such file with its reason and what was kept. */
  limitedPaths: { path: string; reason: LimitReason; message: string }[];
  /** Files indexed with a problem (syntax errors, invalid UTF-8, parse abandoned) or lost while indexing (vanished, unreadable). */
  problems: { path: string; message: string }[];
  /** The extraction cache after the run: rows, bytes stored and the bound. */
  cache: { entries: number; bytes: number; maxBytes: number; trees?: number; treeBytes?: number };
  /** Tree snapshots this run (tree-snapshots.ts): the tree left was kept, the tree found was copied back from one. */
  trees?: { kept: boolean; restored: boolean };
  seconds: number;
  /** Wall seconds per phase; `write` is the main thread's share of `parse` spent writing the store; `trees` keeping and restoring tree snapshots (part of `discover`). */
  phases: { discover: number; parse: number; write: number; resolve: number; compact: number; trees: number };
}

/**
 * The syntax trees extraction reads, as both parse backends give them (see `languages/backends.ts`): the wasm one
 * (web-tree-sitter) and the native one (node tree-sitter bindings, for grammars whose wasm build parses slowly).
 * Only what extraction and arbitration use is named, so either implementation is checked against it by the compiler.
 * Indices and columns count UTF-16 code units in both.
 */
export interface SyntaxPoint {
  row: number;
  column: number;
}

export interface SyntaxRange {
  startIndex: number;
  endIndex: number;
  startPosition: SyntaxPoint;
  endPosition: SyntaxPoint;
}

export interface SyntaxNode {
  /** Unique within a tree (the node's address). */
  readonly id: number;
  readonly type: string;
  readonly text: string;
  readonly startIndex: number;
  readonly endIndex: number;
  readonly startPosition: SyntaxPoint;
  readonly endPosition: SyntaxPoint;
  readonly hasError: boolean;
  readonly isError: boolean;
  readonly isMissing: boolean;
  readonly isNamed: boolean;
  readonly parent: SyntaxNode | null;
  readonly childCount: number;
  readonly children: SyntaxNode[];
  readonly namedChildren: SyntaxNode[];
  readonly lastNamedChild: SyntaxNode | null;
  child(index: number): SyntaxNode | null;
  childForFieldName(fieldName: string): SyntaxNode | null;
  childrenForFieldName(fieldName: string): SyntaxNode[];
  fieldNameForChild(index: number): string | null;
  descendantsOfType(types: string | string[]): SyntaxNode[];
  walk(): SyntaxCursor;
}

export interface SyntaxCursor {
  readonly currentNode: SyntaxNode;
  /** The current node's type, start, end and missing flag, read without materializing the node. */
  readonly nodeType: string;
  readonly startIndex: number;
  readonly endIndex: number;
  readonly nodeIsMissing: boolean;
  gotoFirstChild(): boolean;
  gotoNextSibling(): boolean;
  gotoParent(): boolean;
  /** Frees the cursor (wasm memory); a no-op natively. */
  delete(): void;
}

export interface SyntaxTree {
  readonly rootNode: SyntaxNode;
  /** Frees the tree (wasm memory); a no-op natively, where the garbage collector frees it. */
  delete(): void;
}

export interface SyntaxCapture {
  name: string;
  node: SyntaxNode;
}

export interface SyntaxMatch {
  captures: SyntaxCapture[];
  /** Properties a pattern sets with `(#set! key "value")`. */
  setProperties?: Record<string, string | null>;
}

export interface ParseOptions {
  includedRanges?: SyntaxRange[];
  /** Called every fixed number of parse operations (the same count in both backends); true stops the parse. */
  progressCallback?: () => boolean;
}

export interface SyntaxParser {
  /** Forgets a parse left unfinished, so the next one starts from the beginning. */
  reset(): void;
  /** The tree of `text`, or null when the progress callback stopped the parse. */
  parse(text: string, oldTree?: null, options?: ParseOptions): SyntaxTree | null;
}

export interface SyntaxQuery {
  matches(node: SyntaxNode): SyntaxMatch[];
}

/** Which implementation parses a language: `native` falls back to `wasm` where the addon does not load. */
export type ParseBackend = 'wasm' | 'native';
