import type { ModuleRoots } from '../resolve/modules.ts';
import type { ResolverObject, ResolverReference } from '../resolve/resolve.ts';
import { emptyResolverFiles, replaceResolverFiles, type ResolverFiles } from '../resolve/resolver-files.ts';
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
export interface Structure extends ResolverFiles {
  /** The index generation this structure reflects (-1: nothing loaded yet). */
  generation: number;
  objects: Map<string, StructureObject>;
  /** Object ids per name (modules and files left out), sorted. */
  byName: Map<string, string[]>;
  graph: ReferenceGraph;
}

/** An empty structure whose resolver knows where the repository says its modules live (`moduleRoots`: composer.json's PSR-4 roots). */
export function emptyStructure(roots?: ModuleRoots): Structure {
  return { generation: -1, objects: new Map(), byName: new Map(), ...emptyResolverFiles(roots), graph: emptyGraph() };
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
    `SELECT o.id, f.path, (SELECT p.id FROM objects p WHERE p.key = o.parent) AS parentId, o.kind, o.name, o.qualified_name AS qualifiedName, o.start_line AS startLine, o.end_line AS endLine
     FROM files f JOIN objects o ON o.file_id = f.id WHERE f.path = ? ORDER BY o.start_byte, o.id`,
  );
  const outEdges = db
    .prepare('SELECT o.id, t.id FROM files f JOIN objects o ON o.file_id = f.id JOIN refs r ON r.source = o.key JOIN objects t ON t.key = r.target WHERE f.path = ?')
    .raw();
  const inEdges = db
    .prepare('SELECT s.id, t.id FROM files f JOIN objects t ON t.file_id = f.id JOIN refs r ON r.target = t.key JOIN objects s ON s.key = r.source WHERE f.path = ?')
    .raw();
  const imports = db.prepare(
    `SELECT r.id, o.id AS sourceId, f.path, f.language, r.kind, r.name, r.qualifier, r.module, r.alias
     FROM files f JOIN objects o ON o.file_id = f.id JOIN refs r ON r.source = o.key WHERE f.path = ? AND r.kind = 'import' ORDER BY r.line, r.id`,
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
  const { old, added } = replaceResolverFiles(s, changed, q.objects, q.imports);
  for (const ids of old.values()) {
    for (const id of ids) {
      const o = s.objects.get(id)!;
      s.objects.delete(id);
      if (named(o)) removeSorted(s.byName, o.name, id);
      removeNode(s.graph, id);
    }
  }
  for (const o of added) {
    s.objects.set(o.id, o);
    if (named(o)) insertSorted(s.byName, o.name, o.id);
    addNode(s.graph, o.id);
  }
  // Each edge once: a reference between two changed files comes in as the source's; edges to objects not held are dropped.
  for (const path of changed) {
    for (const [a, b] of q.outEdges(path)) addEdge(s.graph, a, b);
    for (const [a, b] of q.inEdges(path)) {
      const source = s.objects.get(a);
      if (source && !changed.has(source.path)) addEdge(s.graph, a, b);
    }
  }
  for (const o of added) if (o.parentId) addEdge(s.graph, o.parentId, o.id);
}

export { bindImports } from '../resolve/resolver-files.ts';

const named = (o: StructureObject) => o.kind !== 'module' && o.kind !== 'file';

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
