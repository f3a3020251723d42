import type { Language, ObjectKind, ReferenceKind } from '../types.ts';
import { buildModuleIndex, type ModuleIndex, type ModuleRoots } from './modules.ts';
import { NONE, ObjectTable } from './object-table.ts';

export interface ResolverObject {
  id: string;
  path: string;
  parentId: string | null;
  kind: ObjectKind;
  name: string;
}

export interface ResolverReference {
  id: number;
  sourceId: string;
  path: string;
  language: Language;
  kind: ReferenceKind;
  name: string;
  qualifier: string | null;
  module: string | null;
  alias: string | null;
}

const SELF = new Set(['self', 'this', 'cls', 'super', 'super()', 'Self', '$this', 'static', 'parent']);
/** Languages whose unqualified names also see the rest of the folder (package). */
const FOLDER_SCOPED = new Set<Language>(['go', 'java', 'csharp', 'kotlin', 'scala', 'swift', 'php']);
/** Languages whose `import a.b.C` may name the file of C (tried before the module itself). */
const NAMES_A_FILE = new Set<Language>(['python', 'java', 'rust', 'kotlin', 'scala', 'php', 'elixir']);

/** What an import binds a local name to: an object, or the files of a module. */
export interface Binding {
  objectId: string | null;
  files: string[];
}

/**
 * Resolves references against one set of objects. Imports must all be seen
 * before any other reference, twice, so re-exports (`from .core import Basic` in
 * a package `__init__`) resolve whatever order files come in.
 */
export interface Resolver {
  /** Resolves an import and records the local name it binds in its file. */
  resolveImport(r: ResolverReference): string | undefined;
  /** Resolves a call or inheritance reference, using the bindings recorded so far. */
  resolve(r: ResolverReference): string | undefined;
  /** Forgets the names imports bound in one file (a query reuses the resolver under its own path). */
  clearBindings(path: string): void;
}

/**
 * Resolves references to target objects where the index can: enclosing and
 * same-file scopes, imported modules (with aliases), `self`/`this` members, and
 * finally a name that is unique in the whole repository. Pure and
 * deterministic: the same objects and references always give the same targets.
 * @returns target object id per reference id (unresolved references absent).
 */
export function resolveReferences(objects: ResolverObject[], refs: ResolverReference[], roots?: ModuleRoots): Map<number, string> {
  const resolver = createResolver(objects, roots);
  const targets = new Map<number, string>();
  const imports = refs.filter((r) => r.kind === 'import');
  // Two passes: a re-export is followed whichever file was read first.
  for (const r of imports) resolver.resolveImport(r);
  for (const r of imports) {
    const t = resolver.resolveImport(r);
    if (t) targets.set(r.id, t);
  }
  for (const r of refs) {
    if (r.kind === 'import') continue;
    const t = resolver.resolve(r);
    if (t) targets.set(r.id, t);
  }
  return targets;
}

/** The resolver behind `resolveReferences`, for callers that stream references. */
export function createResolver(objects: ResolverObject[], roots?: ModuleRoots): Resolver {
  const resolver = createIncrementalResolver(roots);
  resolver.addObjects(objects);
  return resolver;
}

/** Names looked up per file (the file and name strings the resolver holds, no key string per pair). */
type FileNames = Map<string, Set<string>>;

/** What a file's imports bound and which files its wildcard imports re-export, saved around a query. */
export interface SavedBindings {
  bindings: Map<string, Binding> | undefined;
  wildcards: string[] | undefined;
}

/**
 * A resolver whose objects follow index changes file by file. Import bindings
 * come from two passes over every import in order (`bind`); the passes record
 * which (file, exported name) pairs they looked up, so replacing a file whose
 * changes touch none of them leaves the bindings exactly as fresh passes would.
 */
export interface IncrementalResolver extends Resolver {
  /** Adds objects (in id order within a file, as a fresh resolver reads them). */
  addObjects(objects: ResolverObject[]): void;
  /** Replaces the objects of some files (`old`: path -> the ids it held) with `objects`. */
  replaceFiles(old: Map<string, string[]>, objects: ResolverObject[]): void;
  /** True when a change since the last `bind` could alter what the passes bind. */
  readonly stale: boolean;
  /** Marks the bindings stale (a file's imports changed). */
  invalidate(): void;
  /**
   * Rebinds from scratch: both import passes over `imports` (in path, line, id order), yielding every `every`
   * imports; `onTarget` hears what the second pass resolves each import to.
   */
  bind(imports: () => Iterable<ResolverReference>, every?: number, onTarget?: (r: ResolverReference, target: string | undefined) => void): Generator<void>;
  /** What a query may overwrite when it reuses a file's path, to restore after it. */
  saveBindings(path: string): SavedBindings;
  restoreBindings(path: string, saved: SavedBindings): void;
}

export function createIncrementalResolver(roots?: ModuleRoots): IncrementalResolver {
  /** Every object by slot: parent, kind, name, members by name, and names only one object has. */
  const table = new ObjectTable();
  const moduleOf = new Map<string, string>();
  let modules: ModuleIndex = buildModuleIndex([], roots);
  let folderFiles = new Map<string, string[]>();
  let filesChanged = false;
  let stale = true;
  /** (file, name) pairs the running import passes look up (null outside them), and those of the last passes. */
  let reads: FileNames | null = null;
  let lastReads: FileNames = new Map();

  // The module index is a function of the set of module files: rebuilt only when that set changed.
  const refreshFiles = () => {
    if (!filesChanged) return;
    filesChanged = false;
    const files = [...moduleOf.keys()].sort();
    modules = buildModuleIndex(files, roots);
    folderFiles = new Map();
    for (const f of files) {
      const dir = f.includes('/') ? f.slice(0, f.lastIndexOf('/')) : '';
      const list = folderFiles.get(dir);
      if (list) list.push(f);
      else folderFiles.set(dir, [f]);
    }
  };
  /** What a file defines at top level under a name (its module object's member), not recorded as read. */
  const exportOf = (file: string, name: string): string | undefined => {
    const mod = moduleOf.get(file);
    const hit = mod === undefined ? NONE : table.member(table.slot(mod), name);
    return hit === NONE ? undefined : table.id(hit);
  };

  const addObjects = (objects: ResolverObject[]) => {
    table.addAll(objects);
    for (const o of objects) {
      if (o.parentId !== null) continue;
      if (!moduleOf.has(o.path)) filesChanged = true;
      moduleOf.set(o.path, o.id);
    }
  };
  const removeObjects = (file: string, ids: string[]) => {
    table.removeFile(ids);
    if (moduleOf.delete(file)) filesChanged = true;
  };
  /** The passes read a file's module id (module imports) and its exported names: stale when any of those they read changed. */
  const replaceFiles = (old: Map<string, string[]>, objects: ResolverObject[]) => {
    /** Per file: its module id, and what each name the last passes read there named. */
    const before = new Map([...old.keys()].map((f) => [f, { mod: moduleOf.get(f), read: stale ? [] : [...(lastReads.get(f) ?? [])].map((n) => [n, exportOf(f, n)] as const) }]));
    const filesBefore = filesChanged;
    filesChanged = false;
    for (const [file, ids] of old) removeObjects(file, ids);
    addObjects(objects);
    const setChanged = [...before].some(([f, b]) => (b.mod === undefined) !== !moduleOf.has(f));
    filesChanged = filesBefore || setChanged;
    if (stale) return;
    if (setChanged) stale = true;
    for (const [file, b] of before) {
      if (stale) return;
      if (moduleOf.get(file) !== b.mod) stale = true;
      for (const [name, id] of b.read) if (exportOf(file, name) !== id) stale = true;
    }
  };

  const topLevel = (file: string, name: string): string | undefined => {
    if (reads) {
      const names = reads.get(file);
      if (names) names.add(name);
      else reads.set(file, new Set([name]));
    }
    return exportOf(file, name);
  };
  /** The one object of the repository with this name, if only one has it. */
  const unique = (name: string): string | undefined => {
    const held = table.unique(name);
    return held === NONE ? undefined : table.id(held);
  };
  const inFiles = (fs: string[], name: string): string | undefined => {
    for (const f of fs) {
      const hit = topLevel(f, name);
      if (hit) return hit;
    }
    return undefined;
  };
  const member = (objectId: string, name: string): string | undefined => {
    const hit = table.member(table.slot(objectId), name);
    return hit === NONE ? undefined : table.id(hit);
  };
  const enclosingType = (id: string): string | undefined => {
    for (let o = table.slot(id); o !== NONE; o = table.parent(o)) if (table.isScope(o)) return table.id(o);
    return undefined;
  };

  // Imports bind local names in their file that calls then use.
  const bindings = new Map<string, Map<string, Binding>>();
  const bind = (file: string, local: string, b: Binding) => {
    let m = bindings.get(file);
    if (!m) bindings.set(file, (m = new Map()));
    m.set(local, b);
  };
  /** The bindings the running passes made, by object ('' for none) then the one file named ('' for none); null outside them. */
  let madeBindings: Map<string, Map<string, Binding>> | null = null;
  /** Rule: equal bindings are one object (most imports bind what other files' imports bound); a binding of several files is its own. */
  const sharedBinding = (objectId: string | null, files: string[]): Binding => {
    if (files.length > 1 || !madeBindings) return { objectId, files };
    const byFile = madeBindings.get(objectId ?? '') ?? madeBindings.set(objectId ?? '', new Map()).get(objectId ?? '')!;
    const file = files[0] ?? '';
    return byFile.get(file) ?? byFile.set(file, { objectId, files }).get(file)!;
  };
  // `from .core import *` in a package makes the package re-export everything the module has.
  const wildcards = new Map<string, string[]>();
  /** What a file makes importable under a name: its own definition, or what it imported under that name (re-export). */
  const exported = (file: string, name: string, depth = 0): string | undefined => {
    const own = topLevel(file, name);
    if (own) return own;
    const bound = bindings.get(file)?.get(name)?.objectId;
    if (bound) return bound;
    if (depth < 3) for (const src of wildcards.get(file) ?? []) {
      const hit = src !== file ? exported(src, name, depth + 1) : undefined;
      if (hit) return hit;
    }
    return undefined;
  };
  const resolveImport = (r: ResolverReference): string | undefined => {
    if (r.module === null) return undefined;
    refreshFiles();
    const isModuleImport = r.name === r.module;
    const sep = r.language === 'rust' ? '::' : r.language === 'php' ? '\\' : r.language === 'python' && r.module.endsWith('.') ? '' : '.';
    let found: string[] = [];
    let objectId: string | undefined;
    if (!isModuleImport && r.name !== '*' && NAMES_A_FILE.has(r.language)) {
      // `from pkg import sub` and `import a.b.C` may name a module or a class file; Elixir's `alias A.B` names the module `A.B` itself.
      const sub = modules.resolve(`${r.module}${sep}${r.name}`, r.path, r.language);
      if (sub.length) {
        found = sub;
        objectId = exported(sub[0], r.name) ?? exported(sub[0], `${r.module}${sep}${r.name}`) ?? moduleOf.get(sub[0]);
      }
    }
    if (!objectId) {
      found = modules.resolve(r.module, r.path, r.language);
      if (isModuleImport || r.name === '*') objectId = found.length === 1 ? moduleOf.get(found[0]) : undefined;
      // A module outside the repository (`vitest`, `std::fmt`) binds an external name: no guessing by unique name.
      else for (const f of found) if ((objectId = exported(f, r.name))) break;
    }
    if (r.name === '*' && found.length) {
      const list = wildcards.get(r.path) ?? wildcards.set(r.path, []).get(r.path)!;
      for (const f of found) if (!list.includes(f)) list.push(f);
    }
    const binding = sharedBinding(objectId ?? null, found);
    if (r.alias) bind(r.path, r.alias, binding);
    else if (isModuleImport) {
      bind(r.path, r.module, binding);
      const last = r.module.split(/[./:]+/).filter(Boolean).at(-1);
      if (last && (r.language === 'go' || r.language === 'javascript' || r.language === 'typescript' || r.language === 'tsx')) bind(r.path, last, binding);
    } else if (r.name !== '*') bind(r.path, r.name, binding);
    return objectId;
  };

  const resolve = (r: ResolverReference): string | undefined => {
    refreshFiles();
    let target: string | undefined;
    const fileBindings = bindings.get(r.path);
    if (r.qualifier === null) {
      for (let o = table.slot(r.sourceId); o !== NONE && !target; o = table.parent(o)) {
        const hit = table.member(o, r.name);
        if (hit !== NONE) target = table.id(hit);
      }
      if (!target) {
        const b = fileBindings?.get(r.name);
        if (b) {
          if (!b.objectId) return undefined; // bound by an import the index cannot follow: external
          target = b.objectId;
        }
      }
      if (!target && FOLDER_SCOPED.has(r.language)) target = inFiles(folderFiles.get(r.path.slice(0, Math.max(0, r.path.lastIndexOf('/')))) ?? [], r.name);
      // What wildcard imports make visible: `#include`, `using N;`, `open M`, `source f.sh`, `from m import *`.
      if (!target) target = inFiles(wildcards.get(r.path) ?? [], r.name);
    } else if (SELF.has(r.qualifier)) {
      const type = enclosingType(r.sourceId);
      if (type) target = member(type, r.name);
    } else {
      const b = fileBindings?.get(r.qualifier);
      if (b && !b.objectId && !b.files.length) return undefined; // a member of an external module
      if (b) {
        const bound = b.objectId ? table.slot(b.objectId) : NONE;
        target = bound !== NONE && table.kind(bound) !== 'module' ? member(b.objectId!, r.name) : inFiles(b.files, r.name);
      } else {
        const type = topLevel(r.path, r.qualifier) ?? inFiles(wildcards.get(r.path) ?? [], r.qualifier) ?? unique(r.qualifier);
        if (type && table.isScope(table.slot(type))) target = member(type, r.name);
      }
    }
    target ??= unique(r.name);
    return target && target !== r.sourceId ? target : undefined;
  };
  function* bindAll(imports: () => Iterable<ResolverReference>, every = Infinity, onTarget?: (r: ResolverReference, target: string | undefined) => void): Generator<void> {
    bindings.clear();
    wildcards.clear();
    reads = new Map();
    madeBindings = new Map();
    let n = 0;
    // Imports twice: the first pass records what every file binds, so re-exports resolve whatever the order.
    for (let pass = 0; pass < 2; pass++) {
      for (const r of imports()) {
        const target = resolveImport(r);
        if (pass === 1) onTarget?.(r, target);
        if (++n % every === 0) yield;
      }
    }
    lastReads = reads;
    reads = null;
    madeBindings = null;
    stale = false;
  }
  return {
    resolveImport,
    resolve,
    clearBindings: (path) => void bindings.delete(path),
    addObjects,
    replaceFiles,
    get stale() {
      return stale;
    },
    invalidate: () => void (stale = true),
    bind: bindAll,
    saveBindings: (path) => ({ bindings: bindings.get(path), wildcards: wildcards.get(path)?.slice() }),
    restoreBindings(path, saved) {
      if (saved.bindings) bindings.set(path, saved.bindings);
      else bindings.delete(path);
      if (saved.wildcards) wildcards.set(path, saved.wildcards);
      else wildcards.delete(path);
    },
  };
}
