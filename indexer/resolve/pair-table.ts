/** Marks an empty cell. */
const EMPTY = -1;

/**
 * A map from a pair of non-negative 31-bit integers to one, in three typed arrays (open addressing, linear
 * probing, deletion by backward shift): 12 bytes a cell instead of a Map per first key and an entry object per pair.
 */
export class PairTable {
  private a = new Int32Array(0);
  private b = new Int32Array(0);
  private v = new Int32Array(0);
  private mask = -1;
  size = 0;

  constructor(capacity = 1024) {
    this.allocate(capacity);
  }

  /** The value held for (a, b), or -1. */
  get(a: number, b: number): number {
    for (let i = this.home(a, b); ; i = (i + 1) & this.mask) {
      const ka = this.a[i];
      if (ka === EMPTY) return EMPTY;
      if (ka === a && this.b[i] === b) return this.v[i];
    }
  }

  /** Holds `value` for (a, b) unless a value is held already (the first one stays). */
  addIfAbsent(a: number, b: number, value: number): void {
    if ((this.size + 1) * 2 > this.a.length) this.grow();
    let i = this.home(a, b);
    for (; this.a[i] !== EMPTY; i = (i + 1) & this.mask) if (this.a[i] === a && this.b[i] === b) return;
    this.a[i] = a;
    this.b[i] = b;
    this.v[i] = value;
    this.size++;
  }

  /** Forgets (a, b); nothing when absent. */
  delete(a: number, b: number): void {
    let i = this.home(a, b);
    for (; ; i = (i + 1) & this.mask) {
      if (this.a[i] === EMPTY) return;
      if (this.a[i] === a && this.b[i] === b) break;
    }
    // Backward shift: each later cell of the run moves into the hole if its home does not lie between them.
    for (let j = (i + 1) & this.mask; this.a[j] !== EMPTY; j = (j + 1) & this.mask) {
      const h = this.home(this.a[j], this.b[j]);
      if (((j - h) & this.mask) >= ((j - i) & this.mask)) {
        this.a[i] = this.a[j];
        this.b[i] = this.b[j];
        this.v[i] = this.v[j];
        i = j;
      }
    }
    this.a[i] = EMPTY;
    this.size--;
  }

  private home(a: number, b: number): number {
    return (Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca77) ^ (a >>> 15)) & this.mask;
  }

  private allocate(capacity: number): void {
    let n = 16;
    while (n < capacity) n *= 2;
    this.a = new Int32Array(n).fill(EMPTY);
    this.b = new Int32Array(n);
    this.v = new Int32Array(n);
    this.mask = n - 1;
    this.size = 0;
  }

  private grow(): void {
    const { a, b, v } = this;
    this.allocate(a.length * 2);
    for (let i = 0; i < a.length; i++) if (a[i] !== EMPTY) this.addIfAbsent(a[i], b[i], v[i]);
  }
}
