/** How much of its objects' evidence a file gathers: one rule for fused prose retrieval and for `allot files`. */

/** Objects of a file whose scores add up to the file's evidence. */
export const OBJECTS_PER_FILE = 3;

/**
 * Each file's evidence: the sum of its best `OBJECTS_PER_FILE` object scores. A question about one place in the code
 * finds several of that file's objects, each perhaps below the single best match elsewhere; their sum says where the
 * answer lives. Best file first (ties by path).
 * @example fileSums([['x.py', 3], ['y.py', 2], ['y.py', 2]]) // Map { 'y.py' => 4, 'x.py' => 3 }
 */
export function fileSums(scores: Iterable<readonly [file: string, score: number]>): Map<string, number> {
  const perFile = new Map<string, number[]>();
  for (const [f, s] of scores) {
    const list = perFile.get(f);
    if (list) list.push(s);
    else perFile.set(f, [s]);
  }
  const sums = [...perFile].map(([f, list]) => [f, list.sort((a, b) => b - a).slice(0, OBJECTS_PER_FILE).reduce((a, b) => a + b, 0)] as const);
  return new Map(sums.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)));
}

/**
 * File evidence of scored objects: each file's share (0..1, the best file 1) of `fileSums`.
 * @example fileEvidence(new Map([['a', 3], ['b', 2], ['c', 2]]), new Map([['a', 'x.py'], ['b', 'y.py'], ['c', 'y.py']])) // x.py 0.75, y.py 1
 */
export function fileEvidence(score: ReadonlyMap<string, number>, fileOf: ReadonlyMap<string, string>): Map<string, number> {
  const pairs: [string, number][] = [];
  for (const [id, s] of score) {
    const f = fileOf.get(id);
    if (f !== undefined) pairs.push([f, s]);
  }
  const sums = fileSums(pairs);
  const max = Math.max(0, ...sums.values());
  return new Map([...sums].map(([f, v]) => [f, max > 0 ? v / max : 0]));
}

/**
 * The objects a file's evidence is made of: its best `OBJECTS_PER_FILE` by score. Only they are lifted, so the
 * question lands in the right file first while the file's further objects keep their own rank (one file with many
 * weak hits does not take the whole fill from the files after it).
 * @example evidenceObjects(new Map([['a', 3], ['b', 2], ['c', 1], ['d', 1], ['e', 1]]), new Map([['a', 'x.py'], ['b', 'y.py'], ['c', 'y.py'], ['d', 'y.py'], ['e', 'y.py']])) // Set { 'a', 'b', 'c', 'd' }
 */
export function evidenceObjects(score: ReadonlyMap<string, number>, fileOf: ReadonlyMap<string, string>): Set<string> {
  const order = [...score].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const taken = new Map<string, number>();
  const out = new Set<string>();
  for (const [id] of order) {
    const f = fileOf.get(id);
    if (f === undefined) continue;
    const n = taken.get(f) ?? 0;
    if (n < OBJECTS_PER_FILE) out.add(id);
    taken.set(f, n + 1);
  }
  return out;
}
