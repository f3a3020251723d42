/**
 * Parallel calls: code that calls one member name through several classes (`Sum.eval(`, `Product.eval(`;
 * `FloatField.get_prep_value(`, `IntegerField.get_prep_value(`) is going through a family of classes sharing an
 * interface, and its next line most likely calls that member on the next class of the family it imports. The
 * evidence is the query's own repetition, not any name: a member name called through one class only says nothing
 * about the others.
 */

/** A member call of the query resolved through its class. */
export interface ResolvedMemberCall {
  /** The member's name as called. */
  name: string;
  /** The class it resolved through. */
  classId: string;
}

/** An imported class the query has not used yet, with its place among the query's imports (0 = first). */
export interface PendingClass {
  id: string;
  order: number;
}

/** A member of a pending class the query may call next, and the name it shares with the parallel calls. */
export interface ParallelMember {
  id: string;
  name: string;
  classId: string;
}

/**
 * Members of the pending classes named like a member the query calls through two or more different classes: per
 * name, at most `perName`, the classes imported after the last of those calls' classes first (imports list a
 * family in the order the code goes through it), then the earlier ones, each in import order. `memberOf` says
 * which member of a class (if any) bears a name; a member reached through two classes is listed once.
 * @example
 * parallelMembers(
 *   [{ name: 'eval', classId: 'sin' }, { name: 'eval', classId: 'cos' }],
 *   [{ id: 'tan', order: 2 }, { id: 'cot', order: 3 }],
 *   (c, m) => `${c}.${m}`, 6,
 * ) // [{ id: 'tan.eval', ... }, { id: 'cot.eval', ... }]
 */
export function parallelMembers(
  calls: readonly ResolvedMemberCall[],
  pending: readonly PendingClass[],
  memberOf: (classId: string, name: string) => string | undefined,
  perName: number,
  orderOf: (classId: string) => number | undefined = () => undefined,
): ParallelMember[] {
  const classesByName = new Map<string, Set<string>>();
  for (const c of calls) {
    const set = classesByName.get(c.name) ?? new Set<string>();
    set.add(c.classId);
    classesByName.set(c.name, set);
  }
  const out: ParallelMember[] = [];
  const seen = new Set<string>();
  for (const [name, classes] of classesByName) {
    if (classes.size < 2) continue;
    const last = Math.max(-1, ...[...classes].map((c) => orderOf(c) ?? -1));
    const candidates = pending
      .filter((p) => !classes.has(p.id))
      .sort((a, b) => Number(a.order < last) - Number(b.order < last) || a.order - b.order);
    let taken = 0;
    for (const p of candidates) {
      if (taken >= perName) break;
      const id = memberOf(p.id, name);
      if (!id || seen.has(id)) continue;
      seen.add(id);
      out.push({ id, name, classId: p.id });
      taken++;
    }
  }
  return out;
}
