/**
 * Which of the imports a file has not used yet comes next. A file often imports dozens of names still unused above
 * the cursor, all equally "about to be used"; what orders them is evidence about code in general:
 *  - the import statement's own order: files import what they need first first (and the foundations before the
 *    specialities), so of the names still pending, the earlier imported is used sooner;
 *  - how much of the repository the definition is connected to (its degree in the reference graph): widely used
 *    names are used early and often in any file that imports them;
 *  - its definition lies in the same file as a name the lines just used: code goes on with that module's siblings
 *    (`sin(asin(x))`, `sin(acos(x))`, then `sin(acot(x))`).
 * Each is a share in [0, 1]; the prior is their mean, so no single kind of evidence decides alone.
 */

/** An import of the query: the object it resolves to, the local name it binds, its place among the query's imports. */
export interface ImportSeen {
  id: string;
  local: string;
  /** Position among the query's import bindings (0 = first). */
  order: number;
}

export interface PriorFacts {
  /** The file an object is defined in. */
  pathOf(id: string): string | undefined;
  /** The object's degree in the reference graph (references to and from it, containment). */
  degree(id: string): number;
  /** How near the query's end a local name is used, 0..1 (0: not in the query's code). */
  recency(local: string): number;
}

/**
 * The prior in [0, 1] of each pending import (by object id; an object imported twice keeps its best).
 * `used` are the query's imports its code has already used.
 * @example pendingPrior([{ id: 'a', local: 'a', order: 0 }, { id: 'b', local: 'b', order: 1 }], [], facts).get('a') // > .get('b') when degrees tie
 */
export function pendingPrior(pending: readonly ImportSeen[], used: readonly ImportSeen[], facts: PriorFacts): Map<string, number> {
  const out = new Map<string, number>();
  if (!pending.length) return out;
  const byOrder = [...pending].sort((a, b) => a.order - b.order);
  const maxDegree = Math.max(0, ...pending.map((p) => facts.degree(p.id)));
  const nearUse = new Map<string, number>();
  for (const u of used) {
    const path = facts.pathOf(u.id);
    const r = facts.recency(u.local);
    if (path !== undefined && r > 0) nearUse.set(path, Math.max(nearUse.get(path) ?? 0, r));
  }
  byOrder.forEach((p, k) => {
    const order = byOrder.length > 1 ? 1 - k / (byOrder.length - 1) : 1;
    const connected = maxDegree > 0 ? Math.log1p(facts.degree(p.id)) / Math.log1p(maxDegree) : 0;
    const path = facts.pathOf(p.id);
    const sibling = path !== undefined ? nearUse.get(path) ?? 0 : 0;
    const prior = (order + connected + sibling) / 3;
    out.set(p.id, Math.max(out.get(p.id) ?? 0, prior));
  });
  return out;
}
