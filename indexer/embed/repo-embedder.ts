/**
 * An embedder trained on the repository itself, so every user has a dense
 * signal from the first command with no downloaded weights (issue #7, item 6).
 *
 * Training: the identifier sub-tokens of each document (one code object's
 * text) are counted; sub-tokens that occur near each other in an object
 * co-occur; the co-occurrence counts become a positive-PMI matrix; a randomized
 * truncated SVD of it gives each sub-token a dense vector. A text is embedded
 * as the IDF-weighted mean of its sub-tokens' vectors, normalised. The model is
 * deterministic and independent of document order: the same documents give the
 * same bits and the same `version`.
 */
import { createHash } from 'node:crypto';
import { identifiers, splitIdentifier } from '../identifiers.ts';
import { type CsrMatrix, randomizedSymmetricSvd } from './svd.ts';
import { type Embedder, ModelError } from './types.ts';

export const REPO_EMBEDDER_ID = 'allot/repo-ppmi';

export interface RepositoryEmbedder extends Embedder {
  /**
   * Sync version of embed for one text (the query path uses it). A text with no
   * known sub-token gets the zero vector: callers must read it as "no signal".
   */
  embedOne(text: string): Float32Array;
  /** The trained model (vocabulary, idf weights, token vectors) as bytes, for loadRepositoryEmbedder. */
  toBuffer(): Buffer;
  /** The sub-tokens with a vector, most frequent first. */
  readonly vocabulary: readonly string[];
}

export interface TrainOptions {
  /** Vector length, 64-256 is the useful range. Default 128. */
  dimension?: number;
  /** Documents a sub-token must appear in to get a vector. Default 2. */
  minCount?: number;
  /** Most frequent sub-tokens kept (by document frequency). Default 20,000, at most 65,535. */
  maxVocabulary?: number;
  /** Seed of the SVD's random test matrix. Default 1. */
  seed?: number;
}

/**
 * Sub-tokens within this many positions of each other (in-vocabulary tokens)
 * co-occur: bounds the pairs of long bodies (linear, not quadratic, in their
 * length). On SymPy 10 gave visibly better neighbours than 5 (file: path,
 * filename; solve: solution) for about 1.4x the pairs.
 */
const WINDOW = 10;
/** Context-distribution smoothing exponent (Levy, Goldberg and Dagan 2015). */
const ALPHA = 0.75;
const OVERSAMPLE = 10;
const POWER_ITERATIONS = 2;
const FORMAT = 'allot-repo-ppmi/1';
const MAGIC = Buffer.from('ALRPPMI1', 'latin1');

/**
 * Keywords of the indexed languages and English function words: frequent
 * everywhere, so they say nothing about what code is about.
 */
const STOP = new Set(
  (
    // Python
    'and as assert async await break class continue def del elif else except false finally for from global if import in is ' +
    'lambda none nonlocal not or pass raise return true try while with yield self cls args kwargs ' +
    // JavaScript / TypeScript / Java / C-family / Go / Rust
    'abstract any boolean case catch const constructor debugger default delete do enum export extends final function ' +
    'implements instanceof interface let new null number package private protected public readonly static string super ' +
    'switch this throw throws typeof undefined var void chan defer fallthrough func go goto map range select struct type ' +
    'fn impl mod mut pub ref trait unsafe use where crate dyn match loop int char float double long short unsigned signed ' +
    'sizeof typedef union volatile extern register auto inline bool byte uint usize isize str vec ' +
    // English function words of docstrings and comments
    'the an of to be are was were it its this that these those there their then than by on at or but also can may ' +
    'will would should could has have had not no yes so such which who whom what when how all any each if into onto ' +
    'only other some same used using use see e g ie eg etc we you our your they he she them his her one two'
  ).split(' '),
);

/**
 * Content-token rule: an identifier part without leading digits (the splitter
 * keeps `_array2matrix`'s `2matrix` whole), two characters or more, not a
 * keyword or function word; null when nothing is left.
 */
function contentToken(part: string): string | null {
  const t = part.replace(/^[0-9]+/, '');
  return t.length >= 2 && !STOP.has(t) ? t : null;
}

/**
 * The content sub-tokens of a text, in order: identifier parts from the
 * project's splitter, with short, numeric and keyword parts dropped.
 * @example subTokens('def read_file(self, filePath): return open(filePath)') // ['read', 'file', 'file', 'path', 'open', 'file', 'path']
 */
export function subTokens(text: string): string[] {
  const out: string[] = [];
  for (const id of identifiers(text)) {
    for (const p of splitIdentifier(id)) {
      const t = contentToken(p);
      if (t !== null) out.push(t);
    }
  }
  return out;
}

/**
 * Interns sub-tokens: identifiers repeat a lot, so each distinct identifier is
 * split once and its parts kept as ids.
 */
class Interner {
  readonly ids = new Map<string, number>();
  readonly tokens: string[] = [];
  private readonly byIdentifier = new Map<string, Int32Array>();

  /** Ids of a text's content sub-tokens, in order. */
  tokenize(text: string, out: number[]): number[] {
    out.length = 0;
    for (const id of identifiers(text)) {
      let parts = this.byIdentifier.get(id);
      if (parts === undefined) {
        parts = Int32Array.from(subTokens(id), (t) => this.intern(t));
        this.byIdentifier.set(id, parts);
      }
      for (let i = 0; i < parts.length; i++) out.push(parts[i]);
    }
    return out;
  }

  private intern(t: string): number {
    let i = this.ids.get(t);
    if (i === undefined) {
      i = this.tokens.length;
      this.ids.set(t, i);
      this.tokens.push(t);
    }
    return i;
  }
}

/** The tokenised corpus: every document's sub-token ids, concatenated, and each token's document frequency. */
interface Corpus {
  tokens: string[];
  docStarts: number[];
  ids: Int32Array;
  df: Int32Array;
  documents: number;
}

function readCorpus(documents: Iterable<string>): Corpus {
  const interner = new Interner();
  const docStarts = [0];
  let ids = new Int32Array(1 << 16);
  let used = 0;
  const scratch: number[] = [];
  const dfCounts: number[] = [];
  const seenIn: number[] = []; // last document each token was counted for
  for (const text of documents) {
    const doc = docStarts.length - 1;
    interner.tokenize(text, scratch);
    if (used + scratch.length > ids.length) {
      const grown = new Int32Array(Math.max(ids.length * 2, used + scratch.length));
      grown.set(ids.subarray(0, used));
      ids = grown;
    }
    for (const t of scratch) {
      ids[used++] = t;
      if (seenIn[t] !== doc) {
        seenIn[t] = doc;
        dfCounts[t] = (dfCounts[t] ?? 0) + 1;
      }
    }
    docStarts.push(used);
  }
  return { tokens: interner.tokens, docStarts, ids: ids.subarray(0, used), df: Int32Array.from(dfCounts), documents: docStarts.length - 1 };
}

/** Vocabulary rule: document frequency ≥ minCount, most frequent first, ties by spelling (so order-independent). */
function chooseVocabulary(corpus: Corpus, minCount: number, maxVocabulary: number): number[] {
  const keep: number[] = [];
  for (let t = 0; t < corpus.tokens.length; t++) if (corpus.df[t] >= minCount) keep.push(t);
  keep.sort((a, b) => corpus.df[b] - corpus.df[a] || (corpus.tokens[a] < corpus.tokens[b] ? -1 : 1));
  return keep.slice(0, maxVocabulary);
}

/**
 * Pair counts in an open-addressing table keyed by i·65536 + j (i < j, so the
 * key fits 32 bits): a Map of millions of pairs would cost gigabytes.
 */
class PairCounts {
  private static readonly EMPTY = 0xffffffff;
  keys = new Uint32Array(1 << 16).fill(PairCounts.EMPTY);
  counts = new Uint32Array(1 << 16);
  private lastDoc = new Int32Array(1 << 16).fill(-1);
  size = 0;

  /** Counts the pair once per document: a long body repeating two names is one piece of evidence, not fifty. */
  addOnce(key: number, doc: number): void {
    if (this.size * 2 > this.keys.length) this.grow();
    const mask = this.keys.length - 1;
    let s = mix(key) & mask;
    for (;;) {
      const k = this.keys[s];
      if (k === key) {
        if (this.lastDoc[s] !== doc) {
          this.lastDoc[s] = doc;
          this.counts[s]++;
        }
        return;
      }
      if (k === PairCounts.EMPTY) {
        this.keys[s] = key;
        this.counts[s] = 1;
        this.lastDoc[s] = doc;
        this.size++;
        return;
      }
      s = (s + 1) & mask;
    }
  }

  get(key: number): number {
    const mask = this.keys.length - 1;
    for (let s = mix(key) & mask; ; s = (s + 1) & mask) {
      const k = this.keys[s];
      if (k === key) return this.counts[s];
      if (k === PairCounts.EMPTY) return 0;
    }
  }

  private grow(): void {
    const { keys, counts, lastDoc } = this;
    this.keys = new Uint32Array(keys.length * 2).fill(PairCounts.EMPTY);
    this.counts = new Uint32Array(keys.length * 2);
    this.lastDoc = new Int32Array(keys.length * 2).fill(-1);
    const mask = this.keys.length - 1;
    for (let i = 0; i < keys.length; i++) {
      if (keys[i] === PairCounts.EMPTY) continue;
      let s = mix(keys[i]) & mask;
      while (this.keys[s] !== PairCounts.EMPTY) s = (s + 1) & mask;
      this.keys[s] = keys[i];
      this.counts[s] = counts[i];
      this.lastDoc[s] = lastDoc[i];
    }
  }
}

/** MurmurHash3's finaliser: every key bit reaches the low bits the table uses (the low 16 key bits are only j). */
function mix(key: number): number {
  let h = key ^ (key >>> 16);
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Co-occurrence rule: two distinct vocabulary sub-tokens within WINDOW positions in a document, counted once per document. */
function countPairs(corpus: Corpus, vocabOf: Int32Array): PairCounts {
  const pairs = new PairCounts();
  const seq: number[] = [];
  for (let d = 0; d < corpus.documents; d++) {
    seq.length = 0;
    for (let p = corpus.docStarts[d]; p < corpus.docStarts[d + 1]; p++) {
      const v = vocabOf[corpus.ids[p]];
      if (v >= 0) seq.push(v);
    }
    for (let a = 0; a < seq.length; a++) {
      const i = seq[a];
      for (let b = a + 1; b <= a + WINDOW && b < seq.length; b++) {
        const j = seq[b];
        if (i !== j) pairs.addOnce(i < j ? i * 65536 + j : j * 65536 + i, d);
      }
    }
  }
  return pairs;
}

/**
 * Symmetric PPMI rule: M_ij = max(0, log P(i,j) − h_i − h_j) with
 * h_i = ½(log P(i) + log P_α(i)), i.e. the Levy et al. PMI with α-smoothed
 * context probabilities averaged with its transpose. Co-occurrence within an
 * object has no word/context direction, and a symmetric matrix halves the SVD.
 */
function ppmiMatrix(pairs: PairCounts, size: number): CsrMatrix {
  const keys = new Uint32Array(pairs.size);
  for (let s = 0, n = 0; s < pairs.keys.length; s++) if (pairs.keys[s] !== 0xffffffff) keys[n++] = pairs.keys[s];
  // Sorted keys fill every CSR row in ascending column order, whatever order documents came in.
  keys.sort();
  const counts = Uint32Array.from(keys, (k) => pairs.get(k));
  const marginal = new Float64Array(size);
  let total = 0;
  for (let p = 0; p < keys.length; p++) {
    const i = Math.floor(keys[p] / 65536);
    const j = keys[p] % 65536;
    marginal[i] += counts[p];
    marginal[j] += counts[p];
    total += 2 * counts[p];
  }
  let smoothedTotal = 0;
  for (let i = 0; i < size; i++) smoothedTotal += Math.pow(marginal[i], ALPHA);
  const h = Float64Array.from(marginal, (c) => (c > 0 ? 0.5 * (Math.log(c / total) + Math.log(Math.pow(c, ALPHA) / smoothedTotal)) : 0));
  const value = new Float32Array(keys.length);
  const rowCount = new Int32Array(size + 1);
  for (let p = 0; p < keys.length; p++) {
    const i = Math.floor(keys[p] / 65536);
    const j = keys[p] % 65536;
    const m = Math.log(counts[p] / total) - h[i] - h[j];
    if (m > 0) {
      value[p] = m;
      rowCount[i + 1]++;
      rowCount[j + 1]++;
    }
  }
  const rowPtr = new Int32Array(size + 1);
  for (let i = 0; i < size; i++) rowPtr[i + 1] = rowPtr[i] + rowCount[i + 1];
  const fill = rowPtr.slice(0, size);
  const colIndex = new Int32Array(rowPtr[size]);
  const values = new Float32Array(rowPtr[size]);
  for (let p = 0; p < keys.length; p++) {
    if (value[p] <= 0) continue;
    const i = Math.floor(keys[p] / 65536);
    const j = keys[p] % 65536;
    colIndex[fill[i]] = j;
    values[fill[i]++] = value[p];
    colIndex[fill[j]] = i;
    values[fill[j]++] = value[p];
  }
  return { rows: size, cols: size, rowPtr, colIndex, values };
}

/** Token vector rule: U·Σ^½ (Levy et al.'s symmetric weighting), each row scaled to unit length; zero-padded to the dimension. */
function tokenVectors(u: Float64Array, sigma: Float64Array, rows: number, k: number, dimension: number): Float32Array {
  const out = new Float32Array(rows * dimension);
  const scale = Float64Array.from(sigma, Math.sqrt);
  for (let r = 0; r < rows; r++) {
    let sq = 0;
    for (let c = 0; c < k; c++) sq += (u[r * k + c] * scale[c]) ** 2;
    if (sq === 0) continue; // a token with no positive association keeps the zero vector
    const inv = 1 / Math.sqrt(sq);
    for (let c = 0; c < k; c++) out[r * dimension + c] = u[r * k + c] * scale[c] * inv;
  }
  return out;
}

/** Smoothed IDF rule: ln((1 + N) / (1 + df)) + 1, so a token in every document still counts a little. */
function idfWeights(vocab: number[], df: Int32Array, documents: number): Float32Array {
  return Float32Array.from(vocab, (t) => Math.log((1 + documents) / (1 + df[t])) + 1);
}

/**
 * Trains the embedder on documents (each an object's text: name, signature,
 * docstring, body). Deterministic and independent of document order. With no
 * usable sub-token the model is empty and embeds everything as the zero vector.
 * @example
 * const e = trainRepositoryEmbedder(objects.map((o) => `${o.signature}\n${o.docstring ?? ''}\n${o.body}`));
 * const v = e.embedOne('read the contents of a file'); // unit Float32Array(128), or zeros
 */
export function trainRepositoryEmbedder(documents: Iterable<string>, opts: TrainOptions = {}): RepositoryEmbedder {
  const dimension = opts.dimension ?? 128;
  if (!Number.isInteger(dimension) || dimension < 1) throw new RangeError(`dimension must be a positive integer, not ${dimension}`);
  const maxVocabulary = Math.min(opts.maxVocabulary ?? 20_000, 65_535);
  const corpus = readCorpus(documents);
  const vocab = chooseVocabulary(corpus, Math.max(1, opts.minCount ?? 2), maxVocabulary);
  const vocabOf = new Int32Array(corpus.tokens.length).fill(-1);
  vocab.forEach((t, v) => (vocabOf[t] = v));
  const matrix = ppmiMatrix(countPairs(corpus, vocabOf), vocab.length);
  const svd = randomizedSymmetricSvd(matrix, dimension, { oversample: OVERSAMPLE, powerIterations: POWER_ITERATIONS, seed: opts.seed ?? 1 });
  const vectors = tokenVectors(svd.vectors, svd.singularValues, vocab.length, svd.k, dimension);
  return makeEmbedder(
    vocab.map((t) => corpus.tokens[t]),
    idfWeights(vocab, corpus.df, corpus.documents),
    vectors,
    dimension,
  );
}

/**
 * Rebuilds an embedder from toBuffer()'s bytes; a damaged or foreign buffer
 * raises ModelError.
 * @example const same = loadRepositoryEmbedder(trained.toBuffer()); // same.version === trained.version
 */
export function loadRepositoryEmbedder(buf: Buffer): RepositoryEmbedder {
  if (buf.length < MAGIC.length + 4 || !buf.subarray(0, MAGIC.length).equals(MAGIC)) {
    throw new ModelError('not a repository-trained embedder model (bad header); retrain it');
  }
  const headerLength = buf.readUInt32LE(MAGIC.length);
  const headerEnd = MAGIC.length + 4 + headerLength;
  let header: { format: string; dimension: number; vocabulary: string[] };
  try {
    header = JSON.parse(buf.subarray(MAGIC.length + 4, headerEnd).toString('utf8'));
  } catch {
    throw new ModelError('repository-trained embedder model is damaged (header); retrain it');
  }
  if (header.format !== FORMAT) throw new ModelError(`repository-trained embedder model has format ${header.format}, expected ${FORMAT}; retrain it`);
  const v = header.vocabulary.length;
  const body = alignedOffset(headerEnd);
  const expected = body + 4 * (v + v * header.dimension);
  if (buf.length !== expected) throw new ModelError(`repository-trained embedder model is damaged (${buf.length} bytes, expected ${expected}); retrain it`);
  const floats = (offset: number, count: number) => {
    const out = new Float32Array(count);
    for (let i = 0; i < count; i++) out[i] = buf.readFloatLE(offset + 4 * i);
    return out;
  };
  return makeEmbedder(header.vocabulary, floats(body, v), floats(body + 4 * v, v * header.dimension), header.dimension);
}

/** Float arrays start on a 4-byte boundary after the header. */
function alignedOffset(n: number): number {
  return (n + 3) & ~3;
}

function serialise(vocabulary: string[], idf: Float32Array, vectors: Float32Array, dimension: number): Buffer {
  const header = Buffer.from(JSON.stringify({ format: FORMAT, dimension, vocabulary }), 'utf8');
  const body = alignedOffset(MAGIC.length + 4 + header.length);
  const buf = Buffer.alloc(body + 4 * (idf.length + vectors.length));
  MAGIC.copy(buf, 0);
  buf.writeUInt32LE(header.length, MAGIC.length);
  header.copy(buf, MAGIC.length + 4);
  idf.forEach((x, i) => buf.writeFloatLE(x, body + 4 * i));
  vectors.forEach((x, i) => buf.writeFloatLE(x, body + 4 * (idf.length + i)));
  return buf;
}

/** Text vector rule: Σ idf(t)·(1 + ln tf(t))·vec(t) over distinct known sub-tokens, scaled to unit length (zero if none). */
function embedText(text: string, vocabIds: (identifier: string) => Int32Array, idf: Float32Array, vectors: Float32Array, dimension: number): Float32Array {
  const tf = new Map<number, number>();
  for (const id of identifiers(text)) for (const v of vocabIds(id)) tf.set(v, (tf.get(v) ?? 0) + 1);
  const acc = new Float64Array(dimension);
  for (const [v, n] of tf) {
    const w = idf[v] * (1 + Math.log(n));
    const o = v * dimension;
    for (let c = 0; c < dimension; c++) acc[c] += w * vectors[o + c];
  }
  let sq = 0;
  for (let c = 0; c < dimension; c++) sq += acc[c] * acc[c];
  const out = new Float32Array(dimension);
  if (sq === 0) return out;
  const inv = 1 / Math.sqrt(sq);
  for (let c = 0; c < dimension; c++) out[c] = acc[c] * inv;
  return out;
}

function makeEmbedder(vocabulary: string[], idf: Float32Array, vectors: Float32Array, dimension: number): RepositoryEmbedder {
  const bytes = serialise(vocabulary, idf, vectors, dimension);
  const version = createHash('sha1').update(bytes).digest('hex').slice(0, 12);
  const index = new Map(vocabulary.map((t, i) => [t, i]));
  // Identifiers repeat across texts: their known sub-token ids are memoised (bounded).
  const memo = new Map<string, Int32Array>();
  const vocabIds = (identifier: string): Int32Array => {
    let ids = memo.get(identifier);
    if (ids === undefined) {
      const known: number[] = [];
      for (const t of subTokens(identifier)) {
        const v = index.get(t);
        if (v !== undefined) known.push(v);
      }
      ids = Int32Array.from(known);
      if (memo.size >= 100_000) memo.clear();
      memo.set(identifier, ids);
    }
    return ids;
  };
  const embedOne = (text: string) => embedText(text, vocabIds, idf, vectors, dimension);
  return {
    id: REPO_EMBEDDER_ID,
    version,
    dimension,
    vocabulary,
    embedOne,
    embed: async (texts) => texts.map(embedOne),
    toBuffer: () => Buffer.from(bytes),
  };
}
