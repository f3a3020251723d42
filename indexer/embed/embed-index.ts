/**
 * The embedding pass: gives every object of the index a vector of one model.
 * Only what is new is done: objects written since the last pass get their text
 * hash, and only hashes without a vector of this model are embedded (shortest
 * texts first, in small batches: padding makes mixed lengths slow). Each batch
 * is one transaction, so an interrupted pass keeps what it finished.
 */
import type { DB } from '../store/open.ts';
import {
  activateDenseModel, missingHashes, objectsWithoutHash, pruneVectors, setObjectHashes, writeVectors,
} from '../store/embeddings.ts';
import { contentHash } from '../extract/extract-file.ts';
import { EMBEDDED_KIND_LIST, objectEmbeddingText } from './object-text.ts';
import { modelKey, type Embedder } from './types.ts';

export interface EmbedProgress {
  phase: 'hash' | 'embed' | 'done';
  done: number;
  total: number;
}

export interface EmbedSummary {
  model: string;
  /** Texts embedded in this pass. */
  embedded: number;
  /** Texts that already had a vector of this model. */
  cached: number;
  pruned: number;
  seconds: number;
}

export interface EmbedOptions {
  /** Texts per embed() call (default 8: large batches are slower on CPU). */
  batchSize?: number;
  onProgress?: (p: EmbedProgress) => void;
  shouldStop?: () => boolean;
}

type Located = Parameters<typeof objectEmbeddingText>[0] & { path: string; startLine: number; endLine: number };

/** Each object (sorted by path) with its embedding text, reading each file's text once. */
function* withTexts<T extends Located>(objects: readonly T[], fileText: (path: string) => string): Generator<[T, string]> {
  let path: string | null = null;
  let lines: string[] = [];
  for (const o of objects) {
    if (o.path !== path) {
      path = o.path;
      lines = fileText(path).split(/\r?\n/);
    }
    yield [o, objectEmbeddingText(o, lines.slice(o.startLine - 1, o.endLine))];
  }
}

/** Sets the text hash of objects written since the last pass; returns hash -> text of those it met. */
function hashNewObjects(db: DB, fileText: (path: string) => string): Map<string, string> {
  const texts = new Map<string, string>();
  const hashes: [string, string][] = [];
  for (const [o, text] of withTexts(objectsWithoutHash(db), fileText)) {
    const hash = contentHash(text);
    texts.set(hash, text);
    hashes.push([o.id, hash]);
  }
  setObjectHashes(db, hashes);
  return texts;
}

/**
 * @example await embedIndex(db, await loadTransformersEmbedder('/models/minilm'), { onProgress: console.log })
 */
export async function embedIndex(db: DB, embedder: Embedder, opts: EmbedOptions = {}): Promise<EmbedSummary> {
  const started = performance.now();
  const model = modelKey(embedder);
  const textOf = db.prepare('SELECT t.text FROM file_texts t JOIN files f ON f.id = t.file_id WHERE f.path = ?').pluck();
  const fileText = (p: string) => (textOf.get(p) as string | undefined) ?? '';
  opts.onProgress?.({ phase: 'hash', done: 0, total: 0 });
  const fresh = hashNewObjects(db, fileText);
  const missing = missingHashes(db, model);
  // Hashes of objects hashed in an earlier pass whose text we did not just rebuild: rebuild them now.
  const unknown = missing.filter((h) => !fresh.has(h));
  if (unknown.length) for (const [h, t] of rebuildTexts(db, fileText, new Set(unknown))) fresh.set(h, t);
  const todo = missing.filter((h) => fresh.has(h)).sort((a, b) => fresh.get(a)!.length - fresh.get(b)!.length || (a < b ? -1 : 1));
  const batch = Math.max(1, opts.batchSize ?? 8);
  let done = 0;
  opts.onProgress?.({ phase: 'embed', done, total: todo.length });
  for (let i = 0; i < todo.length; i += batch) {
    if (opts.shouldStop?.()) break;
    const hashes = todo.slice(i, i + batch);
    const vectors = await embedder.embed(hashes.map((h) => fresh.get(h)!));
    writeVectors(db, model, hashes.map((hash, k) => ({ hash, vector: vectors[k] })));
    done += hashes.length;
    opts.onProgress?.({ phase: 'embed', done, total: todo.length });
  }
  const complete = done === todo.length;
  const pruned = complete ? pruneVectors(db, model) : 0;
  if (complete) activateDenseModel(db, model);
  opts.onProgress?.({ phase: 'done', done, total: todo.length });
  return { model, embedded: done, cached: countHashes(db) - todo.length, pruned, seconds: (performance.now() - started) / 1000 };
}

/** Every embeddable object's text, in path order: what the repository-trained model learns from. */
export function* objectTexts(db: DB): Generator<string> {
  const textOf = db.prepare('SELECT t.text FROM file_texts t JOIN files f ON f.id = t.file_id WHERE f.path = ?').pluck();
  const rows = db
    .prepare(
      `SELECT f.path, o.qualified_name AS qualifiedName, o.signature, o.docstring, o.start_line AS startLine, o.end_line AS endLine
       FROM objects o JOIN files f ON f.id = o.file_id WHERE o.kind IN ${EMBEDDED_KIND_LIST} ORDER BY f.path, o.start_line`,
    )
    .all() as Located[];
  for (const [, text] of withTexts(rows, (p) => (textOf.get(p) as string | undefined) ?? '')) yield text;
}

function countHashes(db: DB): number {
  return db.prepare('SELECT count(DISTINCT embed_hash) FROM objects WHERE embed_hash IS NOT NULL').pluck().get() as number;
}

/** Texts of objects whose hash is among `wanted` (their vectors were lost, e.g. after a model switch). */
function rebuildTexts(db: DB, fileText: (path: string) => string, wanted: Set<string>): Map<string, string> {
  const rows = db
    .prepare(
      `SELECT o.embed_hash AS hash, f.path, o.qualified_name AS qualifiedName, o.signature, o.docstring, o.start_line AS startLine, o.end_line AS endLine
       FROM objects o JOIN files f ON f.id = o.file_id WHERE o.embed_hash IS NOT NULL ORDER BY f.path`,
    )
    .all() as { hash: string; path: string; qualifiedName: string; signature: string; docstring: string | null; startLine: number; endLine: number }[];
  const out = new Map<string, string>();
  for (const [r, text] of withTexts(rows.filter((r) => wanted.has(r.hash)), fileText)) out.set(r.hash, text);
  return out;
}
