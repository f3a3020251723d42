/**
 * The core and companion step: the strongest positions form the core; the
 * remaining slots go to companions, objects that live beside a core object
 * (same fiber) and name something the query names.
 */
import { normalizePath } from '../indexer/paths.ts';
import type { Slots } from './options.ts';
import { terms } from './terms.ts';
import type { CompanionTrace, ObjectInfo, ObjectSource, ObjectText, Position, Role } from './types.ts';

export interface Selected {
  position: Position;
  role: Role;
}

export interface Selection {
  /** e_1..e_m: the core in rank order, then the companions in the order chosen. */
  selected: Selected[];
  companions: CompanionTrace[];
  /** Every retrieved object as given (with or without its text), plus the fiber objects fetched here (with text). */
  texts: Map<string, ObjectInfo>;
}

/**
 * The query terms an object shares through what identifies it: its name,
 * qualified name and signature (not its body, which would make almost every
 * object of a fiber qualify; not its path, which every object of a fiber shares).
 */
export function objectSharedTerms(queryTerms: readonly string[], info: ObjectInfo): string[] {
  if (queryTerms.length === 0) return [];
  let own = identifying.get(info);
  if (!own) identifying.set(info, (own = new Set(terms(`${info.name} ${info.qualifiedName} ${info.signature}`))));
  return queryTerms.filter((t) => own.has(t));
}
/** The terms of what identifies an object, split once per object read (a source remembers objects across queries). */
const identifying = new WeakMap<ObjectInfo, ReadonlySet<string>>();

const overlaps = (a: { startLine: number; endLine: number }, b: { startLine: number; endLine: number }): boolean =>
  a.startLine <= b.endLine && b.startLine <= a.endLine;

// Fiber-object order: all score 0, so ties break deterministically by path, then line, then id.
function byPlace(a: ObjectInfo, b: ObjectInfo): number {
  const pa = normalizePath(a.path);
  const pb = normalizePath(b.path);
  if (pa !== pb) return pa < pb ? -1 : 1;
  return a.startLine - b.startLine || a.endLine - b.endLine || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

// Core rule: the top `core` ranked positions form the core (K-1 of K by default).
export function splitCore(ranked: readonly Position[], core: number): { core: Position[]; rest: Position[] } {
  return { core: ranked.slice(0, core), rest: ranked.slice(core) };
}

/**
 * Companion rule: each companion slot goes, in order, to
 *  1. the strongest retrieved non-core position in a core fiber sharing a query term (when the retriever weighs
 *     files, `Position.fileScore`, the fiber with the most evidence first: where the question's answer lives);
 *  2. else an unretrieved object of a core fiber sharing a query term (score 0, by path/line),
 *     skipping objects whose lines overlap an already selected object of that fiber
 *     (a module or class around a core method would only repeat its lines);
 *  3. else the next-ranked retrieved position ('fallback: next-ranked');
 *  4. else nothing ('none').
 * `texts` must hold every retrieved position's object, its text not needed (missing ones already dropped).
 */
export function selectSlots(
  ranked: readonly Position[],
  texts: ReadonlyMap<string, ObjectInfo>,
  queryTerms: readonly string[],
  slots: Slots,
  source: ObjectSource,
): Selection {
  const { core, rest } = splitCore(ranked, slots.core);
  const allTexts = new Map<string, ObjectInfo>(texts);
  const selected: Selected[] = core.map((position) => ({ position, role: 'core' as const }));
  const companions: CompanionTrace[] = [];
  const coreFibers = new Set(core.map((p) => p.fiber));
  const taken = new Set(core.map((p) => p.key));

  const choose = (position: Position, reason: CompanionTrace['reason'], shared: string[]): void => {
    const info = allTexts.get(position.objectId)!;
    taken.add(position.key);
    selected.push({ position, role: 'companion' });
    companions.push({
      slot: companions.length + 1,
      objectId: position.objectId,
      object: info.qualifiedName,
      path: info.path,
      origin: position.origin,
      score: position.score,
      reason,
      sharedTokens: shared,
    });
  };

  // 1. Retrieved non-core positions, strongest first (by their file's evidence first, when there is some).
  const evidence = (p: Position) => p.fileScore ?? 0;
  for (const p of [...rest].sort((a, b) => evidence(b) - evidence(a))) {
    if (companions.length >= slots.companion) break;
    if (!coreFibers.has(p.fiber)) continue;
    const shared = objectSharedTerms(queryTerms, allTexts.get(p.objectId)!);
    if (shared.length > 0) choose(p, 'shared-tokens', shared);
  }

  // 2. Unretrieved objects of the core fibers.
  if (companions.length < slots.companion && queryTerms.length > 0) {
    const retrievedIds = new Set(ranked.map((p) => p.objectId));
    const fiberPaths = new Map<string, string>(); // fiber -> path as the store spells it
    for (const p of core) if (!fiberPaths.has(p.fiber)) fiberPaths.set(p.fiber, allTexts.get(p.objectId)!.path);
    const pool: { info: ObjectInfo; shared: string[] }[] = [];
    for (const [fiber, path] of fiberPaths) {
      for (const info of source.fiberObjects(path)) {
        if (normalizePath(info.path) !== fiber || retrievedIds.has(info.id)) continue;
        const shared = objectSharedTerms(queryTerms, info);
        if (shared.length > 0) pool.push({ info, shared });
      }
    }
    const fiberEvidence = new Map<string, number>();
    for (const p of core) fiberEvidence.set(p.fiber, Math.max(fiberEvidence.get(p.fiber) ?? 0, evidence(p)));
    const poolEvidence = (info: ObjectInfo) => fiberEvidence.get(normalizePath(info.path)) ?? 0;
    pool.sort((a, b) => poolEvidence(b.info) - poolEvidence(a.info) || byPlace(a.info, b.info));
    const seen = new Set<string>();
    for (const { info, shared } of pool) {
      if (companions.length >= slots.companion) break;
      if (seen.has(info.id)) continue;
      seen.add(info.id);
      const fiber = normalizePath(info.path);
      const clash = selected.some(
        (s) => s.position.fiber === fiber && overlaps(allTexts.get(s.position.objectId)!, info),
      );
      if (clash) continue;
      const text = source.objects([info.id]).get(info.id);
      if (!text) continue; // the store no longer has it
      allTexts.set(info.id, text);
      choose(
        { key: info.id, objectId: info.id, fiber, score: 0, rank: 0, span: null, views: [], origin: 'fiber' },
        'shared-tokens',
        shared,
      );
    }
  }

  // 3. Fallback: the next-ranked retrieved positions.
  for (const p of rest) {
    if (companions.length >= slots.companion) break;
    if (!taken.has(p.key)) choose(p, 'fallback: next-ranked', []);
  }

  // 4. Slots nothing could fill stay empty.
  while (companions.length < slots.companion) {
    companions.push({
      slot: companions.length + 1, objectId: null, object: null, path: null, origin: null, score: null,
      reason: 'none', sharedTokens: [],
    });
  }

  return { selected, companions, texts: allTexts };
}
