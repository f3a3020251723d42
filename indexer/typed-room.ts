/**
 * A growable typed array with room for `index`: the array itself when it has it, else a copy at least twice as long
 * (1,024 cells at least), the new cells zero.
 * @example let a = new Int32Array(0); a = withRoom(a, 5); a[5] = 1; // a.length === 1024
 */
export function withRoom<T extends Int32Array | Uint8Array>(a: T, index: number): T {
  if (index < a.length) return a;
  let n = Math.max(1024, a.length * 2);
  while (n <= index) n *= 2;
  const b = new (a.constructor as new (n: number) => T)(n);
  b.set(a);
  return b;
}
