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
  imports: Map<string, ResolverReference[]>;
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
    for (const r of refs) {
      r.path = path;
      r.sourceId = ids.get(r.sourceId) ?? r.sourceId;
      r.kind = shared(rf, r.kind);
      r.language = shared(rf, r.language);
      r.name = shared(rf, r.name);
      if (r.module !== null) r.module = shared(rf, r.module);
    }
    if (!sameImports(rf.imports.get(path) ?? [], refs)) rf.resolver.invalidate();
    if (refs.length) rf.imports.set(path, refs);
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
function sameImports(a: ResolverReference[], b: ResolverReference[]): boolean {
  return a.length === b.length && a.every((r, i) => r.module === b[i].module && r.name === b[i].name && r.alias === b[i].alias && r.language === b[i].language);
}
