import type { Language, ReferenceKind } from '../types.ts';
import type { ModuleRoots } from './modules.ts';
import { createIncrementalResolver, type IncrementalResolver, type ResolverObject, type ResolverReference } from './resolve.ts';

/**
 * A resolver that follows an index file by file: the objects each file holds, the imports each file makes, and
 * the resolver over them. What a file contributes is replaced whole (`replaceResolverFiles`); the import bindings
 * are redone (`bindImports`) only when a change reaches what they read (`resolver.stale`). Shared by the
 * structural retriever's structure and the store's resolution pass, so both resolve exactly as a fresh resolver over
 * the same files would: objects are added per file in the order they start (then by id: what a fresh
 * extraction inserts first, whatever rewrites in place did to the rows), imports bound in path, then line order.
 */
export interface ResolverFiles {
  resolver: IncrementalResolver;
  /** Object ids per file, in the order they were added. */
  byFile: Map<string, string[]>;
  /** Indexed files with objects, sorted. */
  files: string[];
  /** Import references per file, in line order: the resolver's passes read them in path order. */
  imports: Map<string, FileImports>;
  /** One copy of each name, kind and module string the resolver holds (`shared`). */
  strings: Map<string, string>;
}

/** An empty resolver, with where the repository says its modules live (PSR-4 roots) when known. */
export function emptyResolverFiles(roots?: ModuleRoots): ResolverFiles {
  return { resolver: createIncrementalResolver(roots), byFile: new Map(), files: [], imports: new Map(), strings: new Map() };
}

/**
 * Replaces what the given files contribute with what they hold now (`objectsOf`: in the order they start, then by id; `importsOf`: in line
 * order; nothing for a removed file). Afterwards `resolver.stale` says whether the bindings must be redone.
 * Returns the ids each file held before and the objects added, for callers that keep more per object.
 */
export function replaceResolverFiles<O extends ResolverObject>(
  rf: ResolverFiles,
  paths: Iterable<string>,
  objectsOf: (path: string) => O[],
  importsOf: (path: string) => ResolverReference[],
): { old: Map<string, string[]>; added: O[] } {
  const changed = new Set(paths);
  const old = new Map<string, string[]>();
  const added: O[] = [];
  for (const path of changed) {
    old.set(path, rf.byFile.get(path) ?? []);
    rf.byFile.delete(path);
  }
  /** A file's object ids: its objects' parents and its imports' sources share them. */
  const ids = new Map<string, string>();
  for (const path of changed) {
    const rows = objectsOf(path);
    ids.clear();
    for (const o of rows) ids.set(o.id, o.id);
    // Every row read from SQLite brings its own copy of each string: the objects of a file share one path, the
    // parent's id, and one copy of a name or kind the repository repeats (at 1 GB, ~2M objects).
    for (const o of rows) {
      o.path = path;
      if (o.parentId !== null) o.parentId = ids.get(o.parentId) ?? o.parentId;
      o.kind = shared(rf, o.kind);
      o.name = shared(rf, o.name);
    }
    if (rows.length) rf.byFile.set(path, rows.map((o) => o.id));
    added.push(...rows);
  }
  rf.resolver.replaceFiles(old, added);
  for (const path of changed) {
    const refs = importsOf(path);
    const own = rf.byFile.get(path);
    ids.clear();
    for (const id of own ?? []) ids.set(id, id);
    const packed = new FileImports(path, refs, (s) => shared(rf, s), (id) => ids.get(id) ?? id);
    if (!sameImports(rf.imports.get(path), packed)) rf.resolver.invalidate();
    if (refs.length) rf.imports.set(path, packed);
    else rf.imports.delete(path);
  }
  if ([...changed].some((p) => old.get(p)!.length === 0 !== !rf.byFile.has(p))) rf.files = [...rf.byFile.keys()].sort();
  return { old, added };
}

/**
 * Redoes the resolver's import bindings (both passes, every file in path order), yielding every `every` imports;
 * `onTarget` hears each import's target as the second pass resolves it (what the store records).
 */
export function bindImports(rf: ResolverFiles, every?: number, onTarget?: (r: ResolverReference, target: string | undefined) => void): Generator<void> {
  return rf.resolver.bind(function* () {
    for (const file of rf.files) yield* rf.imports.get(file) ?? [];
  }, every, onTarget);
}

/**
 * Distinct strings kept for sharing before the table starts over: a daemon's edits bring new names for ever, and
 * sharing only saves copies (a string dropped from the table stays valid where it is held).
 */
const SHARED_STRINGS = 1 << 21;

/** The one copy of `s` the resolver keeps (equal strings, one allocation: names and modules repeat across files). */
function shared<T extends string>(rf: ResolverFiles, s: T): T {
  const held = rf.strings.get(s);
  if (held !== undefined) return held as T;
  if (rf.strings.size >= SHARED_STRINGS) rf.strings.clear();
  rf.strings.set(s, s);
  return s;
}

/** The same imports in the same order, as far as resolving them goes (ids and lines aside). */
function sameImports(a: FileImports | undefined, b: FileImports): boolean {
  if ((a?.length ?? 0) !== b.length) return false;
  if (!a) return true;
  for (let i = 0; i < a.length; i++) {
    const [x, y] = [a.at(i), b.at(i)];
    if (x.module !== y.module || x.name !== y.name || x.alias !== y.alias || x.language !== y.language) return false;
  }
  return true;
}

/** Slots an import takes in `FileImports`: id, source id, kind, name, qualifier, module, alias. */
const SLOTS = 7;

/**
 * One file's imports in one flat array (seven slots each, strings shared; the file's path and language once) instead
 * of an object per import: each is rebuilt as a reference when read (`at`, iteration), in the order it was given.
 */
export class FileImports implements Iterable<ResolverReference> {
  private readonly cells: (string | number | null)[];
  /** The file's language: one per file (null when it has no imports). */
  private readonly language: Language | null;
  readonly length: number;

  constructor(readonly path: string, refs: readonly ResolverReference[], share: (s: string) => string, sourceOf: (id: string) => string) {
    this.length = refs.length;
    this.language = refs.length ? (share(refs[0].language) as Language) : null;
    this.cells = new Array(refs.length * SLOTS);
    refs.forEach((r, i) => {
      if (r.language !== this.language) throw new Error(`imports of one file in two languages: ${path}`);
      const c = i * SLOTS;
      this.cells[c] = r.id;
      this.cells[c + 1] = sourceOf(r.sourceId);
      this.cells[c + 2] = share(r.kind);
      this.cells[c + 3] = share(r.name);
      this.cells[c + 4] = r.qualifier === null ? null : share(r.qualifier);
      this.cells[c + 5] = r.module === null ? null : share(r.module);
      this.cells[c + 6] = r.alias === null ? null : share(r.alias);
    });
  }

  id(i: number): number {
    return this.cells[i * SLOTS] as number;
  }

  /** The `i`th import as a reference (a new object each time). */
  at(i: number): ResolverReference {
    const c = i * SLOTS;
    const cell = (k: number) => this.cells[c + k] as string | null;
    return {
      id: this.cells[c] as number,
      sourceId: cell(1)!,
      path: this.path,
      language: this.language!,
      kind: cell(2) as ReferenceKind,
      name: cell(3)!,
      qualifier: cell(4),
      module: cell(5),
      alias: cell(6),
    };
  }

  *[Symbol.iterator](): Iterator<ResolverReference> {
    for (let i = 0; i < this.length; i++) yield this.at(i);
  }
}
