import { createIncrementalResolver, type IncrementalResolver, type ResolverObject, type ResolverReference } from '../resolve/resolve.ts';
import type { DB } from '../store/open.ts';
import { addEdge, addNode, emptyGraph, removeNode, type ReferenceGraph } from './graph.ts';

export interface StructureObject extends ResolverObject {
  qualifiedName: string;
  startLine: number;
  endLine: number;
}

/**
 * What structural queries resolve against: the index's objects by id, name and
 * file, a resolver that knows what every file binds, and the reference graph.
 * Everything in it is the sum of what each file contributes, so a batch that
 * changed a few files updates only their part (`applyFiles`).
 */
export interface Structure {
  /** The index generation this structure reflects (-1: nothing loaded yet). */
  generation: number;
  objects: Map<string, StructureObject>;
  /** Object ids per name (modules and files left out), sorted. */
  byName: Map<string, string[]>;
  /** Object ids per file, sorted. */
  byFile: Map<string, string[]>;
  /** Indexed files with objects, sorted. */
  files: string[];
  /** Import references per file, in line order: the resolver's passes read them in path order. */
  imports: Map<string, ResolverReference[]>;
  resolver: IncrementalResolver;
  graph: ReferenceGraph;
}

export function emptyStructure(): Structure {
  return { generation: -1, objects: new Map(), byName: new Map(), byFile: new Map(), files: [], imports: new Map(), resolver: createIncrementalResolver(), graph: emptyGraph() };
}

interface Statements {
  paths: () => string[];
  objects: (path: string) => StructureObject[];
  outEdges: (path: string) => [string, string][];
  inEdges: (path: string) => [string, string][];
  imports: (path: string) => ResolverReference[];
}

const statements = new WeakMap<DB, Statements>();
/** One file's rows, each read by the file's path (prepared once per connection). */
function statementsOf(db: DB): Statements {
  let s = statements.get(db);
  if (s) return s;
  const paths = db.prepare('SELECT path FROM files ORDER BY path').pluck();
  const objects = db.prepare(
    `SELECT o.id, f.path, o.parent_id AS parentId, o.kind, o.name, o.qualified_name AS qualifiedName, o.start_line AS startLine, o.end_line AS endLine
     FROM files f JOIN objects o ON o.file_id = f.id WHERE f.path = ? ORDER BY o.id`,
  );
  const outEdges = db
    .prepare('SELECT r.source_id, r.target_id FROM files f JOIN objects o ON o.file_id = f.id JOIN refs r ON r.source_id = o.id WHERE f.path = ? AND r.target_id IS NOT NULL')
    .raw();
  const inEdges = db.prepare('SELECT r.source_id, r.target_id FROM files f JOIN objects o ON o.file_id = f.id JOIN refs r ON r.target_id = o.id WHERE f.path = ?').raw();
  const imports = db.prepare(
    `SELECT r.id, r.source_id AS sourceId, f.path, f.language, r.kind, r.name, r.qualifier, r.module, r.alias
     FROM files f JOIN objects o ON o.file_id = f.id JOIN refs r ON r.source_id = o.id WHERE f.path = ? AND r.kind = 'import' ORDER BY r.line, r.id`,
  );
  s = {
    paths: () => paths.all() as string[],
    objects: (p) => objects.all(p) as StructureObject[],
    outEdges: (p) => outEdges.all(p) as [string, string][],
    inEdges: (p) => inEdges.all(p) as [string, string][],
    imports: (p) => imports.all(p) as ResolverReference[],
  };
  statements.set(db, s);
  return s;
}

/** Every indexed path, for a build from nothing. */
export function indexedPaths(db: DB): string[] {
  return statementsOf(db).paths();
}

/**
 * Replaces what the given files contribute with what the store holds for them
 * now (nothing, for a removed file): their objects, their resolver entries,
 * their graph edges (both the references they make and those made to them) and
 * their imports. Run it inside a read transaction so all reads see one
 * generation. Afterwards `resolver.stale` says whether the import bindings must
 * be redone (`bindImports`). Any partition of a change into calls gives the same
 * structure.
 */
export function applyFiles(s: Structure, db: DB, paths: Iterable<string>): void {
  const q = statementsOf(db);
  const changed = new Set(paths);
  const old = new Map<string, string[]>();
  for (const path of changed) {
    const ids = s.byFile.get(path) ?? [];
    old.set(path, ids);
    for (const id of ids) {
      const o = s.objects.get(id)!;
      s.objects.delete(id);
      if (named(o)) removeSorted(s.byName, o.name, id);
      removeNode(s.graph, id);
    }
    s.byFile.delete(path);
  }
  const added: StructureObject[] = [];
  for (const path of changed) {
    const rows = q.objects(path);
    if (rows.length) s.byFile.set(path, rows.map((o) => o.id));
    for (const o of rows) {
      s.objects.set(o.id, o);
      if (named(o)) insertSorted(s.byName, o.name, o.id);
      addNode(s.graph, o.id);
      added.push(o);
    }
  }
  s.resolver.replaceFiles(old, added);
  // Each edge once: a reference between two changed files comes in as the source's; edges to objects not held are dropped.
  for (const path of changed) {
    for (const [a, b] of q.outEdges(path)) addEdge(s.graph, a, b);
    for (const [a, b] of q.inEdges(path)) {
      const source = s.objects.get(a);
      if (source && !changed.has(source.path)) addEdge(s.graph, a, b);
    }
  }
  for (const o of added) if (o.parentId) addEdge(s.graph, o.parentId, o.id);
  for (const path of changed) {
    const refs = q.imports(path);
    if (!sameImports(s.imports.get(path) ?? [], refs)) s.resolver.invalidate();
    if (refs.length) s.imports.set(path, refs);
    else s.imports.delete(path);
  }
  if ([...changed].some((p) => old.get(p)!.length === 0 !== !s.byFile.has(p))) s.files = [...s.byFile.keys()].sort();
}

/** Redoes the resolver's import bindings (both passes, every file in path order), yielding every `every` imports. */
export function bindImports(s: Structure, every?: number): Generator<void> {
  return s.resolver.bind(function* () {
    for (const file of s.files) yield* s.imports.get(file) ?? [];
  }, every);
}

const named = (o: StructureObject) => o.kind !== 'module' && o.kind !== 'file';

/** The same imports in the same order, as far as resolving them goes (ids and lines aside). */
function sameImports(a: ResolverReference[], b: ResolverReference[]): boolean {
  return a.length === b.length && a.every((r, i) => r.module === b[i].module && r.name === b[i].name && r.alias === b[i].alias && r.language === b[i].language);
}

function insertSorted(map: Map<string, string[]>, key: string, id: string): void {
  const list = map.get(key);
  if (!list) return void map.set(key, [id]);
  let i = list.length;
  while (i > 0 && list[i - 1] > id) i--;
  list.splice(i, 0, id);
}

function removeSorted(map: Map<string, string[]>, key: string, id: string): void {
  const list = map.get(key);
  const i = list?.indexOf(id) ?? -1;
  if (i < 0) return;
  list!.splice(i, 1);
  if (!list!.length) map.delete(key);
}
