import { describe, expect, it } from 'vitest';
import { loadRepositoryEmbedder, subTokens, trainRepositoryEmbedder } from '../../indexer/embed/repo-embedder.ts';
import { csrFromDense, jacobiEigen, orthonormalColumns, randomizedSymmetricSvd } from '../../indexer/embed/svd.ts';
import { ModelError } from '../../indexer/embed/types.ts';

/** Two topics whose identifier parts always appear together, plus words both share. */
const FILES = ['read_file', 'file_path', 'open_file', 'write_file', 'path_exists', 'read_bytes', 'file_handle', 'close_handle'];
const CART = ['cart_total', 'price_tax', 'apply_discount', 'cart_items', 'item_price', 'tax_rate', 'discount_code', 'total_price'];
const SHARED = ['result', 'value', 'data', 'helper', 'check'];

/** 40 small functions, half about files and half about a shopping cart, from fixed rotations (no randomness). */
function corpus(): string[] {
  const docs: string[] = [];
  for (let i = 0; i < 40; i++) {
    const ids = i % 2 === 0 ? FILES : CART;
    const pick = (k: number) => ids[(i * 3 + k * 5) % ids.length];
    docs.push(`def ${pick(0)}(${pick(1)}, ${SHARED[i % SHARED.length]}):\n    """${pick(2)} helper."""\n    return ${pick(3)}(${pick(1)})`);
  }
  return docs;
}

const cosine = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);
const norm = (a: Float32Array) => Math.sqrt(cosine(a, a));

describe('repository-trained embedder', () => {
  const model = trainRepositoryEmbedder(corpus(), { dimension: 16 });

  it('splits identifiers with the project splitter and drops keywords, short and numeric parts', () => {
    expect(subTokens('def read_file(self, filePath, x2): return open(filePath)')).toEqual(['read', 'file', 'file', 'path', 'open', 'file', 'path']);
    expect(subTokens('_array2matrix')).toEqual(['array', 'matrix']);
  });

  it('embeds texts as unit vectors of its dimension, and text with no known sub-token as zero', async () => {
    expect(model.id).toBe('allot/repo-ppmi');
    expect(model.version).toMatch(/^[0-9a-f]{12}$/);
    const [a, b, none] = await model.embed(['read the file', 'cart total with tax', 'x = 1 + zebra']);
    for (const v of [a, b]) {
      expect(v).toHaveLength(16);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
    expect(none.every((x) => x === 0)).toBe(true);
  });

  it('is deterministic and independent of document order; another corpus gets another version', () => {
    const again = trainRepositoryEmbedder(corpus(), { dimension: 16 });
    const shuffled = trainRepositoryEmbedder([...corpus()].reverse(), { dimension: 16 });
    expect(again.version).toBe(model.version);
    expect(shuffled.version).toBe(model.version);
    expect(again.toBuffer().equals(model.toBuffer())).toBe(true);
    expect(Array.from(shuffled.embedOne('open the file handle'))).toEqual(Array.from(model.embedOne('open the file handle')));
    const other = trainRepositoryEmbedder([...corpus(), 'def parse_config(config_path): return load_config(config_path)', 'def load_config(config_file): pass'], { dimension: 16 });
    expect(other.version).not.toBe(model.version);
    expect(trainRepositoryEmbedder(corpus(), { dimension: 16, seed: 2 }).version).not.toBe(model.version);
  });

  it('round-trips through toBuffer and loadRepositoryEmbedder with identical vectors', () => {
    const loaded = loadRepositoryEmbedder(model.toBuffer());
    expect(loaded.version).toBe(model.version);
    expect(loaded.dimension).toBe(16);
    expect(loaded.vocabulary).toEqual(model.vocabulary);
    for (const text of ['read_file(path)', 'apply discount to the cart', 'value']) {
      expect(Array.from(loaded.embedOne(text))).toEqual(Array.from(model.embedOne(text)));
    }
  });

  it('refuses a damaged or foreign buffer with a ModelError', () => {
    const bytes = model.toBuffer();
    expect(() => loadRepositoryEmbedder(Buffer.from('not a model at all'))).toThrow(ModelError);
    expect(() => loadRepositoryEmbedder(bytes.subarray(0, bytes.length - 4))).toThrow(ModelError);
  });

  it('puts identifier parts that are used together closer than unrelated ones', () => {
    // The compared texts share no sub-token: closeness can only come from co-occurrence.
    const readBytes = model.embedOne('read bytes');
    const openHandle = model.embedOne('open handle');
    const cartDiscount = model.embedOne('cart discount');
    const itemTax = model.embedOne('item tax');
    expect(cosine(readBytes, openHandle)).toBeGreaterThan(cosine(readBytes, cartDiscount) + 0.3);
    expect(cosine(cartDiscount, itemTax)).toBeGreaterThan(cosine(cartDiscount, openHandle) + 0.3);
    // Every topic token's nearest other token is from its own topic (random vectors would mix them).
    const topicOf = (t: string) => (FILES.join('_').split('_').includes(t) ? 'files' : CART.join('_').split('_').includes(t) ? 'cart' : 'shared');
    const tokens = model.vocabulary.filter((t) => topicOf(t) !== 'shared');
    expect(tokens.length).toBeGreaterThanOrEqual(10);
    for (const t of tokens) {
      const v = model.embedOne(t);
      const nearest = tokens.filter((u) => u !== t).sort((x, y) => cosine(v, model.embedOne(y)) - cosine(v, model.embedOne(x)))[0];
      expect(topicOf(nearest), `${t} -> ${nearest}`).toBe(topicOf(t));
    }
  });

  it('trains on an empty corpus and pads a vocabulary smaller than the dimension', () => {
    const empty = trainRepositoryEmbedder([]);
    expect(empty.dimension).toBe(128);
    expect(empty.embedOne('anything').every((x) => x === 0)).toBe(true);
    const wide = trainRepositoryEmbedder(corpus());
    expect(wide.vocabulary.length).toBeLessThan(128);
    expect(norm(wide.embedOne('read the file'))).toBeCloseTo(1, 5);
  });
});

describe('randomized symmetric SVD', () => {
  it('diagonalises small symmetric matrices (Jacobi)', () => {
    const { values } = jacobiEigen(Float64Array.of(2, 1, 1, 2), 2);
    expect(Array.from(values).sort()).toEqual([expect.closeTo(1, 12), expect.closeTo(3, 12)]);
  });

  it('zeroes dependent columns when orthonormalising', () => {
    const q = orthonormalColumns(Float64Array.of(1, 2, 1, 2), 2, 2); // columns (1, 1) and (2, 2)
    expect(Array.from(q)).toEqual([expect.closeTo(Math.SQRT1_2, 12), 0, expect.closeTo(Math.SQRT1_2, 12), 0]);
  });

  it('finds the known singular values of the second-difference matrix', () => {
    // tridiag(-1, 2, -1) of size 3 has eigenvalues 2 - √2, 2, 2 + √2.
    const svd = randomizedSymmetricSvd(csrFromDense([[2, -1, 0], [-1, 2, -1], [0, -1, 2]]), 2);
    expect(Array.from(svd.singularValues)).toEqual([expect.closeTo(2 + Math.SQRT2, 9), expect.closeTo(2, 9)]);
  });

  it('recovers the top of a larger spectrum, with signs and orthonormal vectors', () => {
    // A = 9·h1h1ᵀ − 7·h2h2ᵀ + 4·h3h3ᵀ + 0.05·(the other 29 Hadamard directions), n = 32.
    const n = 32;
    const h = (r: number) => Array.from({ length: n }, (_, c) => (popcount(r & c) % 2 ? -1 : 1) / Math.sqrt(n));
    const lambda = (r: number) => [0, 9, -7, 4][r] ?? 0.05;
    const dense = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => {
      let s = 0;
      for (let r = 1; r < n; r++) s += lambda(r) * h(r)[i] * h(r)[j];
      return s;
    }));
    const svd = randomizedSymmetricSvd(csrFromDense(dense), 3, { seed: 7 });
    expect(Array.from(svd.singularValues)).toEqual([9, 7, 4].map((x) => expect.closeTo(x, 5)));
    expect(Array.from(svd.eigenvalues)).toEqual([9, -7, 4].map((x) => expect.closeTo(x, 5)));
    for (let c = 0; c < 3; c++) {
      const u = Array.from({ length: n }, (_, r) => svd.vectors[r * 3 + c]);
      expect(Math.abs(u.reduce((s, x, r) => s + x * h(c + 1)[r], 0))).toBeCloseTo(1, 5);
    }
  });
});

function popcount(x: number): number {
  let n = 0;
  for (; x; x &= x - 1) n++;
  return n;
}
