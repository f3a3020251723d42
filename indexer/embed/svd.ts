/**
 * The linear algebra of the repository-trained embedder: a sparse symmetric
 * matrix in CSR form and its randomized truncated SVD (Halko, Martinsson and
 * Tropp 2011, algorithms 4.4 and 5.3), with a seeded Gaussian test matrix,
 * subspace (power) iterations re-orthonormalised by modified Gram–Schmidt, and
 * a cyclic Jacobi eigendecomposition of the small projected matrix. Pure and
 * deterministic: the same matrix and seed give the same bits.
 *
 * Dense matrices are row-major Float64Arrays (`rows × cols`), so the sparse
 * product streams each nonzero's row of the dense factor contiguously.
 */

import { seededRandom } from '../random.ts';

/** A sparse matrix in compressed sparse row form; columns ascending within each row. */
export interface CsrMatrix {
  readonly rows: number;
  readonly cols: number;
  /** rows + 1 offsets into colIndex/values. */
  readonly rowPtr: Int32Array;
  readonly colIndex: Int32Array;
  readonly values: Float32Array;
}

/** Rank-k part of a symmetric matrix A ≈ U · diag(λ) · Uᵀ, largest |λ| first. */
export interface SymmetricSvd {
  /** |λ|, descending: the singular values of A. */
  readonly singularValues: Float64Array;
  /** λ with its sign (a symmetric matrix's SVD is its eigendecomposition up to sign). */
  readonly eigenvalues: Float64Array;
  /** U, row-major rows × k, orthonormal columns. */
  readonly vectors: Float64Array;
  readonly k: number;
}

/**
 * Box–Muller: n standard normal draws from a seeded uniform generator.
 * @example gaussianMatrix(3, 2, 7).length // 6
 */
export function gaussianMatrix(rows: number, cols: number, seed: number): Float64Array {
  const rand = seededRandom(seed);
  const out = new Float64Array(rows * cols);
  for (let i = 0; i < out.length; i += 2) {
    const u = 1 - rand(); // (0, 1]: log is finite
    const v = rand();
    const r = Math.sqrt(-2 * Math.log(u));
    out[i] = r * Math.cos(2 * Math.PI * v);
    if (i + 1 < out.length) out[i + 1] = r * Math.sin(2 * Math.PI * v);
  }
  return out;
}

/**
 * Y = A·X for sparse A (n × m) and dense row-major X (m × w): touches only the
 * nonzeros, each one an axpy of a contiguous row of X into a row of Y.
 * @example csrTimesDense(csrFromDense([[1, 2], [0, 3]]), Float64Array.of(1, 1), 1) // [3, 3]
 */
export function csrTimesDense(a: CsrMatrix, x: Float64Array, width: number): Float64Array {
  const y = new Float64Array(a.rows * width);
  const { rowPtr, colIndex, values } = a;
  for (let i = 0; i < a.rows; i++) {
    const yi = i * width;
    for (let p = rowPtr[i]; p < rowPtr[i + 1]; p++) {
      const v = values[p];
      const xj = colIndex[p] * width;
      for (let c = 0; c < width; c++) y[yi + c] += v * x[xj + c];
    }
  }
  return y;
}

/**
 * Orthonormal basis of the column space of Y (n × w, row-major) by modified
 * Gram–Schmidt, in place order. Columns that are (numerically) dependent on the
 * earlier ones become zero, so a rank-deficient Y yields zero columns, not noise.
 * Works on a column-major copy so every dot product is contiguous.
 * @example orthonormalColumns(Float64Array.of(3, 0, 4, 0), 2, 2) // [0.6, 0, 0.8, 0]
 */
export function orthonormalColumns(y: Float64Array, n: number, width: number): Float64Array {
  const cols = transpose(y, n, width);
  for (let j = 0; j < width; j++) {
    const qj = j * n;
    const before = norm(cols, qj, n);
    for (let i = 0; i < j; i++) {
      const qi = i * n;
      let dot = 0;
      for (let r = 0; r < n; r++) dot += cols[qi + r] * cols[qj + r];
      if (dot !== 0) for (let r = 0; r < n; r++) cols[qj + r] -= dot * cols[qi + r];
    }
    const after = norm(cols, qj, n);
    // What is left after removing earlier directions is rounding noise: drop it.
    const scale = after > 1e-10 * before && after > 0 ? 1 / after : 0;
    for (let r = 0; r < n; r++) cols[qj + r] *= scale;
  }
  return transpose(cols, width, n);
}

/**
 * Cyclic Jacobi eigendecomposition of a small dense symmetric matrix (w × w,
 * row-major): rotations zero each off-diagonal entry in turn until the
 * off-diagonal mass is negligible. Returns eigenvalues and the eigenvectors as
 * the columns of a row-major w × w matrix, in no particular order.
 * @example jacobiEigen(Float64Array.of(2, 1, 1, 2), 2).values // [1, 3] (some order)
 */
export function jacobiEigen(matrix: Float64Array, w: number): { values: Float64Array; vectors: Float64Array } {
  const a = Float64Array.from(matrix);
  const v = new Float64Array(w * w);
  for (let i = 0; i < w; i++) v[i * w + i] = 1;
  let total = 0;
  for (let i = 0; i < a.length; i++) total += a[i] * a[i];
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < w; p++) for (let q = p + 1; q < w; q++) off += a[p * w + q] * a[p * w + q];
    if (off <= 1e-30 * total || off === 0) break;
    for (let p = 0; p < w; p++) {
      for (let q = p + 1; q < w; q++) {
        const apq = a[p * w + q];
        if (apq === 0) continue;
        // The rotation angle that zeroes a[p][q], in the numerically stable form (Numerical Recipes §11.1).
        const theta = (a[q * w + q] - a[p * w + p]) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        rotate(a, v, w, p, q, c, s);
      }
    }
  }
  const values = new Float64Array(w);
  for (let i = 0; i < w; i++) values[i] = a[i * w + i];
  return { values, vectors: v };
}

/**
 * Randomized truncated SVD of a symmetric sparse matrix: range finder with a
 * Gaussian test matrix of k + oversample columns, `powerIterations` rounds of
 * subspace iteration (each re-orthonormalised, so small singular directions are
 * not swamped), then the eigendecomposition of B = Qᵀ·A·Q. Symmetry halves the
 * sparse products of the general algorithm (Aᵀ = A). Each eigenvector's sign is
 * fixed (largest-magnitude entry positive) so results do not flip between runs.
 * @example randomizedSymmetricSvd(csrFromDense([[2, 1], [1, 2]]), 1).singularValues // [3]
 */
export function randomizedSymmetricSvd(
  a: CsrMatrix,
  k: number,
  opts: { oversample?: number; powerIterations?: number; seed?: number } = {},
): SymmetricSvd {
  const n = a.rows;
  const width = Math.min(n, k + (opts.oversample ?? 10));
  const kk = Math.min(k, width);
  if (n === 0 || kk === 0) return { singularValues: new Float64Array(0), eigenvalues: new Float64Array(0), vectors: new Float64Array(0), k: 0 };
  let q = orthonormalColumns(csrTimesDense(a, gaussianMatrix(n, width, opts.seed ?? 1), width), n, width);
  for (let it = 0; it < (opts.powerIterations ?? 2); it++) q = orthonormalColumns(csrTimesDense(a, q, width), n, width);
  const b = symmetrize(projectedMatrix(q, csrTimesDense(a, q, width), n, width), width);
  const eig = jacobiEigen(b, width);
  const order = [...eig.values.keys()].sort((x, y) => Math.abs(eig.values[y]) - Math.abs(eig.values[x]) || x - y).slice(0, kk);
  const small = new Float64Array(width * kk); // chosen eigenvectors of B, width × kk
  order.forEach((src, dst) => {
    for (let r = 0; r < width; r++) small[r * kk + dst] = eig.vectors[r * width + src];
  });
  const vectors = denseTimesDense(q, small, n, width, kk);
  fixSigns(vectors, n, kk);
  const eigenvalues = Float64Array.from(order, (i) => eig.values[i]);
  return { singularValues: eigenvalues.map(Math.abs), eigenvalues, vectors, k: kk };
}

/**
 * CSR form of a small dense matrix (tests and examples), zeros dropped.
 * @example csrFromDense([[0, 1], [1, 0]]).values // [1, 1]
 */
export function csrFromDense(rows: readonly (readonly number[])[]): CsrMatrix {
  const rowPtr = new Int32Array(rows.length + 1);
  const cols: number[] = [];
  const vals: number[] = [];
  rows.forEach((row, i) => {
    row.forEach((v, j) => {
      if (v !== 0) {
        cols.push(j);
        vals.push(v);
      }
    });
    rowPtr[i + 1] = cols.length;
  });
  return { rows: rows.length, cols: rows[0]?.length ?? 0, rowPtr, colIndex: Int32Array.from(cols), values: Float32Array.from(vals) };
}

function transpose(m: Float64Array, rows: number, cols: number): Float64Array {
  const out = new Float64Array(m.length);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) out[c * rows + r] = m[r * cols + c];
  return out;
}

function norm(m: Float64Array, offset: number, length: number): number {
  let s = 0;
  for (let i = offset; i < offset + length; i++) s += m[i] * m[i];
  return Math.sqrt(s);
}

/** A ← Jᵀ·A·J and V ← V·J for the Jacobi rotation J in the (p, q) plane. */
function rotate(a: Float64Array, v: Float64Array, w: number, p: number, q: number, c: number, s: number): void {
  for (let k = 0; k < w; k++) {
    const akp = a[k * w + p];
    const akq = a[k * w + q];
    a[k * w + p] = c * akp - s * akq;
    a[k * w + q] = s * akp + c * akq;
  }
  for (let k = 0; k < w; k++) {
    const apk = a[p * w + k];
    const aqk = a[q * w + k];
    a[p * w + k] = c * apk - s * aqk;
    a[q * w + k] = s * apk + c * aqk;
  }
  for (let k = 0; k < w; k++) {
    const vkp = v[k * w + p];
    const vkq = v[k * w + q];
    v[k * w + p] = c * vkp - s * vkq;
    v[k * w + q] = s * vkp + c * vkq;
  }
}

/** Qᵀ·Z for row-major n × w factors: the w × w projection of A onto span(Q). */
function projectedMatrix(q: Float64Array, z: Float64Array, n: number, w: number): Float64Array {
  const b = new Float64Array(w * w);
  for (let r = 0; r < n; r++) {
    const o = r * w;
    for (let i = 0; i < w; i++) {
      const qi = q[o + i];
      if (qi === 0) continue;
      const bi = i * w;
      for (let j = 0; j < w; j++) b[bi + j] += qi * z[o + j];
    }
  }
  return b;
}

/** Rounding makes Qᵀ·A·Q slightly asymmetric; Jacobi assumes exact symmetry. */
function symmetrize(b: Float64Array, w: number): Float64Array {
  for (let i = 0; i < w; i++) {
    for (let j = i + 1; j < w; j++) {
      const m = (b[i * w + j] + b[j * w + i]) / 2;
      b[i * w + j] = m;
      b[j * w + i] = m;
    }
  }
  return b;
}

function denseTimesDense(x: Float64Array, y: Float64Array, n: number, inner: number, out: number): Float64Array {
  const z = new Float64Array(n * out);
  for (let r = 0; r < n; r++) {
    for (let i = 0; i < inner; i++) {
      const xv = x[r * inner + i];
      if (xv === 0) continue;
      for (let c = 0; c < out; c++) z[r * out + c] += xv * y[i * out + c];
    }
  }
  return z;
}

/** Eigenvectors are defined up to sign: make each column's largest-magnitude entry positive. */
function fixSigns(u: Float64Array, n: number, k: number): void {
  for (let c = 0; c < k; c++) {
    let best = 0;
    for (let r = 0; r < n; r++) if (Math.abs(u[r * k + c]) > Math.abs(best)) best = u[r * k + c];
    if (best < 0) for (let r = 0; r < n; r++) u[r * k + c] = -u[r * k + c];
  }
}
