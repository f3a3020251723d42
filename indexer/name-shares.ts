/**
 * How much of each name a query's words cover: each part of a name weighs by its IDF among the names compared (a
 * part most of them share, `eval` in `_eval_*`, says little) times the weight the query gives it (0..1, e.g. how
 * near the query's end it is), over the sum of its parts' IDF. The structural retriever ranks a receiver's members
 * by it, the allocator picks the members an outline expands by it.
 * @example nameShares([['get', 'prep'], ['get', 'db']], new Map([['prep', 1]])) // [0.6..., 0]
 */
export function nameShares(partsOf: readonly (readonly string[])[], weight: ReadonlyMap<string, number>): number[] {
  const df = new Map<string, number>();
  for (const parts of partsOf) for (const p of new Set(parts)) df.set(p, (df.get(p) ?? 0) + 1);
  const idf = (p: string) => Math.log(1 + partsOf.length / (df.get(p) ?? 1));
  return partsOf.map((parts) => {
    let hit = 0;
    let all = 0;
    for (const p of parts) {
      hit += (weight.get(p) ?? 0) * idf(p);
      all += idf(p);
    }
    return all > 0 ? hit / all : 0;
  });
}
