import { languageOf, LANGUAGE_SPECS } from '../languages/registry.ts';
import { splitIdentifier } from '../identifiers.ts';
import { nameShares } from '../name-shares.ts';
import { normalizePath } from '../paths.ts';
import { recentlyUsed, type RecentlyUsed } from '../recently-used.ts';
import type { ResolverReference } from '../resolve/resolve.ts';
import { prepared, type DB } from '../store/open.ts';
import { TYPE_KINDS, type Candidate, type CodeLanguage, type ExtractedReference, type ObjectKind, type ViewKind } from '../types.ts';
import { personalizedPageRank } from './graph.ts';
import { parallelMembers, type PendingClass, type ResolvedMemberCall } from './parallel-calls.ts';
import { pendingPrior, type ImportSeen } from './pending-prior.ts';
import type { LoadedLanguage } from '../languages/registry.ts';
import { STOP_WORDS, type TermShape } from './prose-reading.ts';
import { firstUses, loadQueryLanguages, readQuery, type QueryReading } from './query-reading.ts';
import { fileText } from '../store/read.ts';
import type { Retriever } from './retriever.ts';
import { structureOf } from './structure-cache.ts';
import type { Structure } from './structure.ts';

/** Seed weights: how strongly each kind of evidence in the query points at an object. */
const WEIGHT = {
  importedUnused: 3, // imported and not yet used: what the next lines are about to use
  pendingPrior: 0.1, // at most this on top, by which pending import comes next (pending-prior.ts)
  imported: 2,
  frame: 2.5,
  called: 1.5,
  path: 1,
  module: 0.5,
  named: 0.8,
};
/**
 * In a query read as words, how much a name counts by how it is written: an identifier fully; a capitalised word
 * (a class, perhaps) half; a plain English word that happens to name something (`route`, `files`, `parse`) only as
 * a weak signal, which never seeds the graph walk and counts little in fusion (`Candidate.weak`).
 */
const SHAPE_SHARE: Record<TermShape, number> = { identifier: 1, name: 0.5, word: 0.125 };
/** Graph neighbours rank below every seed: their scores are scaled into (0, NEIGHBOUR_SCALE]. */
const NEIGHBOUR_SCALE = 0.5;
const MAX_DEFINITIONS_PER_NAME = 3;
/** Members of one receiver the query may call next, at most (the closest by name). */
const MEMBERS_PER_RECEIVER = 6;
const NOISE = new Set(['self', 'this', 'cls', 'super', 'return', 'import', 'from', 'def', 'class', 'function', 'const', 'let', 'var', 'new', 'true', 'false', 'none', 'null', 'undefined', 'async', 'await', 'public', 'private', 'static', 'void', 'int', 'str', 'string', 'number', 'bool', 'boolean', 'list', 'dict', 'type', 'value', 'data', 'result', 'name', 'args', 'kwargs']);

interface Seed {
  score: number;
  reason: string;
  /** Found at a line (a traceback frame): the line, not the head, is what matters. */
  atLine?: boolean;
  /** Only a plain word of a prose query points at it. */
  weak?: boolean;
  /** A class the query calls members through. */
  receiver?: boolean;
}

export interface StructuralOptions {
  /** The file the query comes from (the editor's current file): resolves relative imports and hides its own objects. */
  path?: string;
  /**
   * The cursor's line in `path` (1-based): the indexed lines of the file before it are code already written, so a
   * name they use is no longer one the next lines are about to use (the query may hold only the last of them).
   */
  line?: number;
}

/**
 * The structural retriever: reads the query as code, resolves what it imports,
 * calls, names and points at (paths, stack frames) through the index, then
 * ranks the neighbourhood of those objects by personalized PageRank over the
 * reference graph (Aider's repo-map idea). Every candidate says why it was found.
 */
export async function structuralRetriever(db: DB, opts: StructuralOptions = {}): Promise<Retriever> {
  return createStructuralRetriever(db, await loadQueryLanguages(), opts);
}

/** The structural retriever with the query grammars already loaded (see `loadQueryLanguages`). */
export function createStructuralRetriever(db: DB, grammars: Map<CodeLanguage, LoadedLanguage>, opts: StructuralOptions = {}): Retriever {
  const viewOf = prepared(
    db,
    `SELECT v.id, v.kind, v.start_line AS startLine, v.end_line AS endLine FROM views v
     WHERE v.object = (SELECT key FROM objects WHERE id = ?) AND +v.derived = 0 ORDER BY CASE v.kind WHEN 'signature' THEN 0 WHEN 'body' THEN 1 ELSE 2 END, v.id LIMIT 1`,
  );
  const basesOf = prepared(db, "SELECT t.id FROM refs r JOIN objects t ON t.key = r.target WHERE r.source = (SELECT key FROM objects WHERE id = ?) AND r.kind = 'inherit'", 'pluck');
  const memberOf = prepared(db, 'SELECT id FROM objects WHERE parent = (SELECT key FROM objects WHERE id = ?) AND name = ? LIMIT 1', 'pluck');
  // References to each member of a container from other files than the query's (its own later lines are no evidence).
  const memberUses = prepared(
    db,
    `SELECT m.id AS id, count(*) AS n FROM objects m JOIN refs r ON r.target = m.key JOIN objects s ON s.key = r.source
     WHERE m.parent = (SELECT key FROM objects WHERE id = ?) AND s.file_id IS NOT (SELECT id FROM files WHERE path = ?) GROUP BY m.key`,
  );
  const own = opts.path ? normalizePath(opts.path) : null;
  /**
   * Names the file's code uses before the cursor (outside imports, strings and comments), read from the index from its
   * first line (so a docstring the query's lines start inside is still read as one); null without a cursor.
   */
  const writtenBefore = (): { has(name: string): boolean } | null => {
    const line = opts.line;
    if (!own || !line) return null;
    const uses = fileFirstUses(db, own);
    return uses && { has: (name) => (uses.get(name) ?? Infinity) < line };
  };
  const usesOf = (containerId: string): Map<string, number> =>
    new Map((memberUses.all(containerId, own) as { id: string; n: number }[]).map((r) => [r.id, r.n]));
  /** A member of a class or of one of its bases (breadth first, a few levels up). */
  const inheritedMember = (classId: string, name: string): string | undefined => {
    const queue = [classId];
    const seen = new Set<string>();
    while (queue.length && seen.size < 16) {
      const id = queue.shift()!;
      if (seen.has(id)) continue;
      seen.add(id);
      const hit = memberOf.get(id, name) as string | undefined;
      if (hit) return hit;
      queue.push(...(basesOf.all(id) as string[]));
    }
    return undefined;
  };
  return {
    name: 'structural',
    retrieve(query, k) {
      if (k <= 0) return [];
      const s = structureOf(db);
      const reading = readQuery(query, grammars, opts.path);
      const seeds = seedObjects(s, reading, opts.path, inheritedMember, (c, m) => memberOf.get(c, m) as string | undefined, usesOf, writtenBefore());
      const ranked: ({ id: string } & Seed)[] = [...seeds.entries()].map(([id, seed]) => ({ id, ...seed }));
      // A code query (the lines at a cursor) is about to use what it names: those objects render as their heads.
      const code = reading.language !== null;
      const seedIndex = new Map<number, number>();
      for (const [id, seed] of seeds) {
        const i = s.graph.index.get(id);
        // A plain word is too weak a pointer to walk from: its neighbourhood would flood the list.
        if (i !== undefined && !seed.weak) seedIndex.set(i, seed.score);
      }
      // The query's own file is a dead end for the walk: its later lines are not evidence for its earlier ones.
      const ownObjects = own ? s.byFile.get(own) : undefined;
      const blocked = ownObjects ? new Set(ownObjects.map((id) => s.graph.index.get(id)!).filter((i) => i !== undefined)) : undefined;
      const ppr = personalizedPageRank(s.graph, seedIndex, { blocked });
      // Break ties between equally strong seeds (a file imports dozens of names) by the words near the end of the query.
      const affinity = seedAffinity(s, seeds, reading);
      for (const r of ranked) r.score += (affinity.get(r.id) ?? 0) * (r.weak ? SHAPE_SHARE.word : 1);
      let max = 0;
      for (const [i, v] of ppr) if (!seeds.has(s.graph.ids[i]) && v > max) max = v;
      const ids = s.graph.ids;
      for (const [i, mass] of [...ppr.entries()].sort((a, b) => b[1] - a[1] || (ids[a[0]] < ids[b[0]] ? -1 : 1))) {
        const id = ids[i];
        if (seeds.has(id) || max <= 0) continue;
        const o = s.objects.get(id)!;
        if (o.kind === 'module' || o.kind === 'file' || (opts.path && o.path === normalizePath(opts.path))) continue;
        ranked.push({ id, score: (NEIGHBOUR_SCALE * mass) / max, reason: 'reference-graph neighbour of the query\'s objects' });
        if (ranked.length >= k) break;
      }
      ranked.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
      const out: Candidate[] = [];
      for (const r of ranked.slice(0, k)) {
        const o = s.objects.get(r.id)!;
        const v = viewOf.get(r.id) as { id: number; kind: ViewKind; startLine: number; endLine: number } | undefined;
        if (!v) continue;
        out.push({
          viewId: v.id, objectId: r.id, fiber: o.path, path: o.path, objectName: o.qualifiedName, objectKind: o.kind as ObjectKind,
          viewKind: v.kind, startLine: v.startLine, endLine: v.endLine, score: r.score, reason: `structural: ${r.reason}`,
          ...(code && !r.atLine ? { viaStructure: true } : {}),
          ...(r.weak ? { weak: true } : {}),
          ...(code && r.receiver ? { receiver: true } : {}),
        });
      }
      return out;
    },
  };
}

/**
 * A bonus in [0, 1] per seed: the share of its name's parts found in the query's code, lines near the end
 * counting most. (PageRank mass from the other seeds was tried too and added nothing on cross-file tasks.)
 */
function seedAffinity(s: Structure, seeds: Map<string, Seed>, reading: QueryReading): Map<string, number> {
  const out = new Map<string, number>();
  if (!reading.recentParts.size) return out;
  for (const id of seeds.keys()) {
    const a = nameAffinity(s.objects.get(id)!.name, reading.recentParts);
    if (a !== null) out.set(id, a);
  }
  return out;
}

/** The share of a name's parts among the query's recent identifier parts (each weighted by closeness to the end); null for a name without parts. */
function nameAffinity(name: string, recentParts: ReadonlyMap<string, number>): number | null {
  const parts = splitIdentifier(name);
  if (!parts.length) return null;
  let hit = 0;
  for (const p of parts) hit += recentParts.get(p) ?? 0;
  return hit / parts.length;
}

/** A receiver of the query: how it is bound, and the local name the query calls its members through. */
interface ReceiverUse {
  how: string;
  locals: string[];
  /** Imported and not yet used by the query's code: what its next lines are about to use. */
  pending?: boolean;
}

/**
 * Members of the query's receivers (a module it imports, a class a local name is bound to, the bases of a class it
 * declares): what its next lines may call through them. A member counts by
 *  - its name's words in the query (near the end more; words every member of the receiver shares count less),
 *  - failing those, how near the query's end it uses the receiver (an imported module it has not used yet: about to),
 *    times the member's prior: how much of the
 *    repository calls it (references from other files, relative to the receiver's most used member) and whether it
 *    is declared next to a member the query already calls through that receiver (code that uses one method goes
 *    on with its neighbours);
 * the best few per receiver, those with any evidence.
 */
export function receiverMembers(
  s: Pick<Structure, 'objects' | 'byFile'>,
  receivers: ReadonlyMap<string, ReceiverUse>,
  reading: Pick<QueryReading, 'recentParts' | 'recency'>,
  called: ReadonlySet<string>,
  usesOf: (containerId: string) => ReadonlyMap<string, number>,
): [string, number, string][] {
  const out: [string, number, string][] = [];
  const partsOf = (name: string) => splitIdentifier(name).filter((p) => p.length > 2);
  for (const [id, use] of receivers) {
    const container = s.objects.get(id);
    if (!container) continue;
    const members = (s.byFile.get(container.path) ?? []).map((m) => s.objects.get(m)!).filter((m) => m.parentId === id)
      .sort((a, b) => a.startLine - b.startLine || (a.id < b.id ? -1 : 1))
      .map((m) => ({ m, parts: partsOf(m.name) }));
    if (!members.length) continue;
    const shares = nameShares(members.map((x) => x.parts), reading.recentParts);
    const recent = use.pending ? 1 : Math.max(0, ...use.locals.map((l) => reading.recency.get(l) ?? 0));
    const uses = recent > 0 ? usesOf(id) : new Map<string, number>();
    const most = Math.max(0, ...uses.values());
    const calledAt = members.flatMap((x, k) => (called.has(x.m.id) ? [k] : []));
    const scored = members
      .map(({ m }, k) => {
        const words = shares[k];
        const used = most > 0 ? Math.log1p(uses.get(m.id) ?? 0) / Math.log1p(most) : 0;
        const gap = calledAt.length ? Math.min(...calledAt.map((c) => Math.abs(c - k))) : 0;
        const next = gap > 0 ? 1 / gap : 0;
        const prior = called.has(m.id) ? 0 : recent * Math.max(used, next);
        return { m, a: words + (1 - words) * prior };
      })
      .filter((x) => x.a > 0)
      .sort((x, y) => y.a - x.a || (x.m.id < y.m.id ? -1 : 1))
      .slice(0, MEMBERS_PER_RECEIVER);
    for (const { m, a } of scored) out.push([m.id, WEIGHT.importedUnused * a, `member of ${container.name}, a receiver in the query (${use.how})`]);
  }
  return out;
}

/** Per index, the last files' first uses by their content hash: a cursor moving in one file reads it once. */
const firstUsesKept = new WeakMap<DB, RecentlyUsed<string, { hash: string; uses: Map<string, number> }>>();
const FIRST_USES_KEPT = 32;

/** `firstUses` of an indexed file's text, kept while its content is the same; null when the file is not indexed. */
function fileFirstUses(db: DB, path: string): Map<string, number> | null {
  const hash = prepared(db, 'SELECT hash FROM files WHERE path = ?', 'pluck').get(path) as string | undefined;
  if (hash === undefined) return null;
  let kept = firstUsesKept.get(db);
  if (!kept) firstUsesKept.set(db, (kept = recentlyUsed(FIRST_USES_KEPT)));
  const hit = kept.get(path);
  if (hit?.hash === hash) return hit.uses;
  const text = fileText(db, path);
  if (text === null) return null;
  const uses = firstUses(text, languageOf(path));
  kept.set(path, { hash, uses });
  return uses;
}

/** Objects the query points at directly, with the strongest reason for each. */

function seedObjects(
  s: Structure,
  reading: QueryReading,
  path: string | undefined,
  inheritedMember: (classId: string, name: string) => string | undefined,
  directMember: (classId: string, name: string) => string | undefined,
  usesOf: (containerId: string) => ReadonlyMap<string, number>,
  writtenBefore: { has(name: string): boolean } | null,
): Map<string, Seed> {
  const seeds = new Map<string, Seed>();
  const here = path ? normalizePath(path) : null;
  const add = (id: string | undefined, score: number, reason: string, atLine = false, weak = false) => {
    if (!id) return;
    const o = s.objects.get(id);
    if (!o || (here && o.path === here)) return;
    // A whole module is a weak pointer: its file is too big to be "the" definition.
    const weight = o.kind === 'module' || o.kind === 'file' ? Math.min(score, WEIGHT.module) : score;
    const prev = seeds.get(id);
    if (!prev || prev.score < weight) seeds.set(id, { score: weight, reason, ...(atLine ? { atLine } : {}), ...(weak ? { weak } : {}) });
  };
  const language: CodeLanguage | null = reading.language;
  const queryPath = here ?? `__query__${language ? LANGUAGE_SPECS[language].extensions[0] : '.txt'}`;
  const resolver = s.resolver;
  // Import bindings are per query: the query's replace whatever its path bound, which is put back after it.
  const saved = resolver.saveBindings(queryPath);
  resolver.clearBindings(queryPath);
  let nextId = -1;
  const asRef = (r: ExtractedReference): ResolverReference => ({
    id: nextId--, sourceId: '', path: queryPath, language: here ? languageOf(here) : (language ?? 'text'),
    kind: r.kind, name: r.name, qualifier: r.qualifier, module: r.module, alias: r.alias,
  });
  const receivers = new Map<string, ReceiverUse>();
  const called = new Set<string>();
  // Member calls resolved through a class, and the query's pending classes: parallel calls (parallel-calls.ts).
  const memberCalls: ResolvedMemberCall[] = [];
  const pendingClasses: PendingClass[] = [];
  const importLocals = new Set(reading.imports.map(importLocal));
  // Code names what it uses; a question names things only where it writes them as identifiers.
  const words = reading.language === null || reading.prose.mostlyProse;
  const shapeOf = shapesOf(reading);
  const isType = (id: string | undefined): id is string => id !== undefined && TYPE_KINDS.has(s.objects.get(id)?.kind as ObjectKind);
  // One receiver may be bound to several locals: the first binding names it, every local counts for recency.
  const bind = (id: string, how: string, local: string) => {
    const had = receivers.get(id);
    if (had) had.locals.push(local);
    else receivers.set(id, { how, locals: [local] });
  };
  try {
    const pending: ImportSeen[] = [];
    const used: ImportSeen[] = [];
    reading.imports.forEach((imp, order) => {
      const local = importLocal(imp);
      // Pending: not used by the code above the cursor (the query's lines when that is all there is, prose and all).
      // A module stays a pending receiver while the query's lines do not use it, even when the file's earlier lines
      // did (code goes on calling through a module); a name they used is no longer about to be used.
      const unusedHere = !reading.used.has(local);
      const unused = writtenBefore ? !writtenBefore.has(local) : unusedHere;
      const id = resolver.resolveImport(asRef(imp));
      const o = id ? s.objects.get(id) : undefined;
      const whole = !!o && (o.kind === 'module' || o.kind === 'file');
      // A family the query's lines go through: a class they have not used yet is its next member, whatever the file's
      // earlier lines did (as a module stays a pending receiver).
      if (id && unusedHere && isType(id)) pendingClasses.push({ id, order });
      // A pending name is seeded once every pending import is known: which of them comes next is their prior's to say.
      if (id && unused && !whole) pending.push({ id, local, order });
      else add(id, unused ? WEIGHT.importedUnused : WEIGHT.imported, `imported by the query as ${local}`);
      if (id && !unused) used.push({ id, local, order });
      if (o && whole) {
        bind(o.id, `${local}.`, local);
        if (unusedHere) receivers.get(o.id)!.pending = true;
      }
    });
    const prior = pendingPrior(pending, used, {
      pathOf: (id) => s.objects.get(id)?.path,
      degree: (id) => s.graph.adjacency[s.graph.index.get(id) ?? -1]?.length ?? 0,
      recency: (local) => reading.recency.get(local) ?? 0,
    });
    // The prior breaks the tie among pending imports (by at most WEIGHT.pendingPrior): it orders the names nothing else
    // tells apart, and yields to evidence of the query's words (name affinity, a receiver's member it names).
    for (const p of pending) add(p.id, WEIGHT.importedUnused + WEIGHT.pendingPrior * (prior.get(p.id) ?? 0), `imported by the query as ${p.local}`);
    // Receivers first: a member resolved through its receiver's type keeps that reason. Only a class-like object
    // is a type: a local bound to a function's result stays unresolved.
    const resolveName = (name: string) => resolver.resolve(asRef({ source: 0, kind: 'call', name, qualifier: null, module: null, alias: null, line: 0 }));
    const resolveType = (name: string) => {
      const id = resolveName(name);
      return isType(id) ? id : undefined;
    };
    for (const [local, type] of reading.receivers.types) {
      const id = resolveType(type);
      if (id) bind(id, `${local}: ${type}`, local);
    }
    for (const base of reading.receivers.bases) {
      const id = resolveType(base);
      if (id) bind(id, `self: a ${base}`, 'self');
    }
    for (const [id, reason, classId] of receiverCalls(reading, resolveType, inheritedMember)) {
      add(id, WEIGHT.called, reason);
      called.add(id);
      const name = s.objects.get(id)!.name;
      memberCalls.push({ name, classId, at: reading.recency.get(name) ?? 0 });
    }
    for (const call of reading.calls) {
      const id = resolver.resolve(asRef(call));
      add(id, WEIGHT.called, `${call.kind === 'inherit' ? 'inherited' : 'called'} in the query as ${call.qualifier ? `${call.qualifier}.` : ''}${call.name}`);
      if (id && call.qualifier) {
        called.add(id);
        // `C.m(`: the class the qualifier names is a receiver too, whose other members the next lines may call.
        const parent = s.objects.get(id)?.parentId;
        const through = resolveType(call.qualifier);
        if (parent && through === parent) bind(parent, `${call.qualifier}.`, call.qualifier);
        // `x.m(` on a local the query binds to nothing it can read (a callback's parameter, an untyped argument),
        // resolved to a member of one class: x stands for an instance of it, whose other members are in play too.
        const q = call.qualifier;
        if (parent && !through && isType(parent) && LOCAL_NAME.test(q) && !SELF_RECEIVERS.has(q) && !reading.receivers.types.has(q) && !importLocals.has(q)) {
          bind(parent, `${q}.${call.name} is ${s.objects.get(parent)!.name}.${call.name}`, q);
        }
        if (through) memberCalls.push({ name: call.name, classId: through, at: reading.recency.get(call.name) ?? 0 });
      }
      // A class the query instantiates: an instance in play, whose members the next lines may call.
      if (id && s.objects.get(id)?.kind === 'class') bind(id, `${call.name}(...)`, call.name);
    }
    // The same member called through two or more classes: the next pending classes of that family offer it too.
    // Each name's list is in the order it offers them: the pending prior's scale keeps that order among equals.
    const offered = parallelMembers(memberCalls, pendingClasses, { memberOf: directMember, fileOf: (c) => s.objects.get(c)?.path }, MEMBERS_PER_RECEIVER);
    offered.forEach((p, k) => {
      const first = offered.findIndex((q) => q.name === p.name);
      const next = WEIGHT.pendingPrior * (1 - (k - first) / MEMBERS_PER_RECEIVER);
      const share = SHAPE_SHARE[words ? shapeOf(p.name) : 'identifier'];
      if (!seeds.has(p.id)) add(p.id, WEIGHT.importedUnused * share + next, `member ${p.name} of ${s.objects.get(p.classId)?.name}, imported by the query and not yet used: the query calls ${p.name} through other classes`);
    });
  } finally {
    resolver.restoreBindings(queryPath, saved);
  }
  // Classes bound to a local or declared as bases are receivers (modules are not: their outline is the file's).
  for (const [id] of receivers) {
    const seed = seeds.get(id);
    const o = s.objects.get(id);
    if (seed && o && o.kind !== 'module' && o.kind !== 'file') seed.receiver = true;
  }
  // Members the query calls already keep that reason; the others are what its next lines may call.
  for (const [id, score, reason] of receiverMembers(s, receivers, reading, called, usesOf)) if (!seeds.has(id)) add(id, score, reason);
  const bySuffix = (p: string) => {
    const clean = normalizePath(p.replace(/^\/+/, ''));
    return s.files.filter((f) => clean === f || clean.endsWith(`/${f}`) || f.endsWith(`/${clean}`));
  };
  for (const frame of reading.frames) {
    for (const file of bySuffix(frame.path).slice(0, 1)) {
      // The innermost object spanning the frame's line.
      let best: string | undefined;
      for (const id of s.byFile.get(file) ?? []) {
        const o = s.objects.get(id)!;
        if (o.startLine > frame.line || frame.line > o.endLine) continue;
        const b = best ? s.objects.get(best)! : undefined;
        // Innermost: the latest start, then the shortest span (a function on its module's first line).
        if (!b || o.startLine > b.startLine || (o.startLine === b.startLine && o.endLine < b.endLine)) best = id;
      }
      add(best, WEIGHT.frame, `named in a traceback frame (${file}:${frame.line})`, true);
    }
  }
  for (const p of reading.paths) for (const file of bySuffix(p).slice(0, 2)) add(s.byFile.get(file)?.find((id) => s.objects.get(id)!.parentId === null), WEIGHT.path, `path ${p} named in the query`);
  for (const name of reading.identifiers) {
    if (name.length < 3 || NOISE.has(name.toLowerCase())) continue;
    const shape = words ? shapeOf(name) : 'identifier';
    if (words && shape !== 'identifier' && STOP_WORDS.has(name.toLowerCase())) continue;
    const defs = s.byName.get(name);
    if (!defs || defs.length > MAX_DEFINITIONS_PER_NAME) continue;
    const share = SHAPE_SHARE[shape];
    const split = words ? byDegree(s, defs) : defs.map(() => 1 / defs.length);
    defs.forEach((id, k) => {
      if (!seeds.has(id)) add(id, WEIGHT.named * share * split[k], `defines ${name}, named in the query`, false, shape === 'word');
    });
  }
  // Adjacent plain words spelled as one identifier (`parse expr` -> `parse_expr`): the question names it after all.
  if (words) {
    for (const name of reading.prose.joined) {
      const defs = s.byName.get(name);
      if (!defs || defs.length > MAX_DEFINITIONS_PER_NAME) continue;
      const split = byDegree(s, defs);
      defs.forEach((id, k) => add(id, WEIGHT.named * split[k], `defines ${name}, the query's words joined`));
    }
  }
  return seeds;
}

/** The shape of each identifier of a query read as words (`identifier` when it is written as one anywhere). */
function shapesOf(reading: QueryReading): (name: string) => TermShape {
  const best = new Map<string, TermShape>();
  for (const t of reading.prose.terms) if (t.shape === 'name' || !best.has(t.text)) best.set(t.text, t.shape);
  return (name) => (reading.prose.shaped.has(name) ? 'identifier' : best.get(name) ?? 'word');
}

/**
 * Shares of one name's definitions, by how connected each is (1 + ln(1 + degree) in the reference graph): a question
 * naming `parse_expr` more likely means the one the repository uses everywhere than a private twin.
 */
function byDegree(s: Structure, defs: readonly string[]): number[] {
  const w = defs.map((id) => 1 + Math.log1p(s.graph.adjacency[s.graph.index.get(id) ?? -1]?.length ?? 0));
  const total = w.reduce((a, b) => a + b, 0);
  return w.map((x) => x / total);
}

/** The local name an import binds: its alias, else the first part of its name (`import a.b` binds `a`). */
const importLocal = (imp: { name: string; alias: string | null }): string => imp.alias ?? imp.name.split('.')[0];

/** A plain local name: not a chain of attributes (`self.model._meta`), whose type the query says nothing of. */
const LOCAL_NAME = /^[A-Za-z_$][\w$]*$/;
const SELF_RECEIVERS = new Set(['self', 'this', 'cls', 'super', 'super()']);

/**
 * Member calls resolved through receivers (receiver resolution): `x.m(` where the query binds `x` to a type
 * (`x = C(...)`, `x: C`, ...) resolves as the member `m` of `C` or of a base of `C`; `C(...).m(` likewise;
 * `self.m`, `this.m` and `super().m` in a class the query declares resolve to what its bases define or inherit.
 * `resolveName` resolves a name with the query's imports; `member(classId, m)` looks `m` up the class and its bases.
 * Each call as [member id, reason, the class it resolved through].
 */
export function receiverCalls(
  reading: QueryReading,
  resolveName: (name: string) => string | undefined,
  member: (classId: string, name: string) => string | undefined,
): [string, string, string][] {
  const out: [string, string, string][] = [];
  const { types, chained, bases } = reading.receivers;
  const memberOfType = (type: string, name: string): [string, string] | undefined => {
    const cls = resolveName(type);
    const id = cls ? member(cls, name) : undefined;
    return cls && id ? [id, cls] : undefined;
  };
  for (const call of reading.calls) {
    if (call.kind !== 'call' || !call.qualifier) continue;
    const type = types.get(call.qualifier);
    if (type) {
      const hit = memberOfType(type, call.name);
      if (hit) out.push([hit[0], `called in the query as ${call.qualifier}.${call.name} (${call.qualifier}: ${type})`, hit[1]]);
      continue;
    }
    if (SELF_RECEIVERS.has(call.qualifier)) {
      for (const base of bases) {
        const hit = memberOfType(base, call.name);
        if (hit) {
          out.push([hit[0], `called in the query as ${call.qualifier}.${call.name} (inherited from ${base})`, hit[1]]);
          break;
        }
      }
    }
  }
  for (const c of chained) {
    const hit = memberOfType(c.qualifier, c.name);
    if (hit) out.push([hit[0], `called in the query as ${c.qualifier}(...).${c.name}`, hit[1]]);
  }
  return out;
}
