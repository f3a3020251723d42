/**
 * Token authority: how many tokens each ordered object may use.
 */

/** One b_i with the quantities it was computed from (i is 1-based). */
export interface Allowance {
  i: number;
  d: number;
  bObj: number;
  R: number;
  floor: number;
  m: number;
  result: number;
}

// Floor rule: reserve `floor` tokens per later object only when the budget can afford it for all m objects.
export function effectiveFloor(budget: number, m: number, floor: number): number {
  return budget >= m * floor ? floor : 0;
}

// Token-authority rule: b_i = min(d_i, b_obj, [R_i - (m-i)*floor]+), with R_1 = B and R_{i+1} = R_i - b_i.
// Hence 0 <= b_i <= b_obj, sum(b_i) <= B, and R_{i+1} >= (m-i)*floor whenever the floor applies.
export function tokenAuthority(d: readonly number[], budget: number, objectCap: number, floor: number): Allowance[] {
  const m = d.length;
  const f = effectiveFloor(budget, m, floor);
  const out: Allowance[] = [];
  let R = Math.max(0, budget);
  for (let k = 0; k < m; k++) {
    const i = k + 1;
    const reserve = Math.max(0, R - (m - i) * f);
    const result = Math.max(0, Math.min(d[k], objectCap, reserve));
    out.push({ i, d: d[k], bObj: objectCap, R, floor: f, m, result });
    R -= result;
  }
  return out;
}
