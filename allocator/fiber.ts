/**
 * Fibers: the file an object lives in. Two objects share a fiber when their
 * normalised paths are equal.
 */

/**
 * Normalises a path for fiber comparison: forward slashes, no duplicate
 * slashes, no leading `./`, no trailing slash. Case is kept (paths are
 * case-sensitive on the platforms allot indexes by default).
 * @example normaliseFiber('.\\src//a.ts') // 'src/a.ts'
 */
export function normaliseFiber(path: string): string {
  let p = path.replace(/\\/g, '/').replace(/\/{2,}/g, '/');
  while (p.startsWith('./')) p = p.slice(2);
  if (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
  return p;
}
