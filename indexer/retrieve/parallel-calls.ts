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
  /** How near the query's end it is called (0..1). */
  at: number;
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

/** What the index says of a class: which member (if any) bears a name, and the file it is defined in. */
export interface ClassFacts {
  memberOf(classId: string, name: string): string | undefined;
  fileOf(classId: string): string | undefined;
}

/**
 * Members of the pending classes named like the query's last member call, when it calls that name through two or
 * more different classes: per
 * name, at most `perName`, the classes defined in the same file as one of the called ones first (a family is
 * declared together: `sin`, `cos`, `tan`), each group in import order. A member reached through two classes (one
 * inherited) is listed once.
 * @example
 * parallelMembers(
 *   [{ name: 'eval', classId: 'sin', at: 0.5 }, { name: 'eval', classId: 'cos', at: 1 }],
 *   [{ id: 'log', order: 1 }, { id: 'tan', order: 2 }],
 *   { memberOf: (c, m) => `${c}.${m}`, fileOf: (c) => (c === 'log' ? 'exponential.py' : 'trigonometric.py') }, 6,
 * ) // [{ id: 'tan.eval', ... }, { id: 'log.eval', ... }]
 */
export function parallelMembers(
  calls: readonly ResolvedMemberCall[],
  pending: readonly PendingClass[],
  facts: ClassFacts,
  perName: number,
): ParallelMember[] {
  // The family the query is going through is that of its last member call: one it went through earlier is done.
  const last = Math.max(-Infinity, ...calls.map((c) => c.at));
  const latest = new Set(calls.filter((c) => c.at === last).map((c) => c.name));
  const classesByName = new Map<string, Set<string>>();
  for (const c of calls) {
    if (!latest.has(c.name)) continue;
    const set = classesByName.get(c.name) ?? new Set<string>();
    set.add(c.classId);
    classesByName.set(c.name, set);
  }
  const out: ParallelMember[] = [];
  const seen = new Set<string>();
  for (const [name, classes] of classesByName) {
    if (classes.size < 2) continue;
    const files = new Set([...classes].map((c) => facts.fileOf(c)));
    files.delete(undefined);
    const apart = (p: PendingClass) => Number(!files.has(facts.fileOf(p.id)));
    const candidates = pending.filter((p) => !classes.has(p.id)).sort((a, b) => apart(a) - apart(b) || a.order - b.order);
    let taken = 0;
    for (const p of candidates) {
      if (taken >= perName) break;
      const id = facts.memberOf(p.id, name);
      if (!id || seen.has(id)) continue;
      seen.add(id);
      out.push({ id, name, classId: p.id });
      taken++;
    }
  }
  return out;
}
