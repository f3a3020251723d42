/**
 * The store's side of dense embeddings: which objects need a vector, the
 * vectors themselves keyed by (model, text hash), the embedders they came
 * from, and the active dense model. Vectors are float32 little-endian blobs.
 */
import { EMBEDDED_KIND_LIST as KINDS } from '../embed/object-text.ts';
import type { DB } from './open.ts';
import { getState, setState } from './write.ts';

export interface EmbeddableObject {
  id: string;
  path: string;
  qualifiedName: string;
  signature: string;
  docstring: string | null;
  startLine: number;
  endLine: number;
}

/** Objects of the embedded kinds whose text hash is not known yet (written since the last pass), grouped by file. */
export function objectsWithoutHash(db: DB): EmbeddableObject[] {
  return db
    .prepare(
      `SELECT o.id, f.path, o.qualified_name AS qualifiedName, o.signature, o.docstring, o.start_line AS startLine, o.end_line AS endLine
       FROM objects o JOIN files f ON f.id = o.file_id WHERE o.embed_hash IS NULL AND o.kind IN ${KINDS} ORDER BY f.path, o.start_line`,
    )
    .all() as EmbeddableObject[];
}

export function setObjectHashes(db: DB, hashes: readonly (readonly [string, string])[]): void {
  const set = db.prepare('UPDATE objects SET embed_hash = ? WHERE id = ?');
  db.transaction(() => {
    for (const [id, hash] of hashes) set.run(hash, id);
    if (hashes.length) touchVectors(db);
  })();
}

/** Text hashes objects use now that have no vector of `model` yet. */
export function missingHashes(db: DB, model: string): string[] {
  return db
    .prepare(
      `SELECT DISTINCT o.embed_hash FROM objects o WHERE o.embed_hash IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM embeddings e WHERE e.model = ? AND e.text_hash = o.embed_hash)`,
    )
    .pluck()
    .all(model) as string[];
}

export function countEmbedded(db: DB, model: string): { objects: number; embedded: number } {
  const objects = db.prepare(`SELECT count(*) FROM objects WHERE kind IN ${KINDS}`).pluck().get() as number;
  const embedded = db
    .prepare('SELECT count(*) FROM objects o JOIN embeddings e ON e.model = ? AND e.text_hash = o.embed_hash')
    .pluck()
    .get(model) as number;
  return { objects, embedded };
}

export function toBlob(v: Float32Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

export function fromBlob(b: Buffer): Float32Array {
  // Copy: the blob's buffer may be shared and unaligned.
  const out = new Float32Array(b.byteLength / 4);
  new Uint8Array(out.buffer).set(b);
  return out;
}

/**
 * Changes whenever vectors or the hashes that map objects to them change, so readers holding vectors in memory
 * know to reload without counting rows.
 */
export function vectorsStamp(db: DB): string | null {
  return getState(db, 'vectors_stamp');
}

export function touchVectors(db: DB): void {
  setState(db, 'vectors_stamp', String(Number(getState(db, 'vectors_stamp') ?? 0) + 1));
}

/** The sequence number of the last batch of vectors written. */
export function vectorsSeq(db: DB): number {
  return Number(getState(db, 'vectors_seq') ?? 0);
}

export function writeVectors(db: DB, model: string, rows: readonly { hash: string; vector: Float32Array }[]): void {
  const put = db.prepare('INSERT OR REPLACE INTO embeddings (model, text_hash, dim, vector, seq) VALUES (?, ?, ?, ?, ?)');
  if (!rows.length) return;
  db.transaction(() => {
    const seq = vectorsSeq(db) + 1;
    for (const r of rows) put.run(model, r.hash, r.vector.length, toBlob(r.vector), seq);
    setState(db, 'vectors_seq', String(seq));
    touchVectors(db);
  })();
}

/** Vectors of `model` written after batch `afterSeq`, in write order: a reader's increment. */
export function vectorsSince(db: DB, model: string, afterSeq: number): { hashes: string[]; dim: number; vectors: Buffer[] } {
  const rows = db.prepare('SELECT text_hash, dim, vector FROM embeddings WHERE model = ? AND seq > ? ORDER BY seq, text_hash').raw().all(model, afterSeq) as [string, number, Buffer][];
  const dim = rows[0]?.[1] ?? 0;
  const kept = rows.filter((r) => r[1] === dim);
  return { hashes: kept.map((r) => r[0]), dim, vectors: kept.map((r) => r[2]) };
}

/** The objects whose embedded text has one of these hashes (identical texts share a vector). */
export function objectsWithHashes(db: DB, hashes: readonly string[]): { id: string; hash: string; kind: string; name: string; path: string }[] {
  if (!hashes.length) return [];
  const marks = hashes.map(() => '?').join(', ');
  return db
    .prepare(
      `SELECT o.id, o.embed_hash AS hash, o.kind, o.qualified_name AS name, f.path FROM objects o JOIN files f ON f.id = o.file_id
       WHERE o.embed_hash IN (${marks}) ORDER BY o.id`,
    )
    .all(...hashes) as { id: string; hash: string; kind: string; name: string; path: string }[];
}

/** Deletes `model`'s vectors that no object uses any more. */
export function pruneVectors(db: DB, model: string): number {
  return db
    .prepare('DELETE FROM embeddings WHERE model = ? AND text_hash NOT IN (SELECT embed_hash FROM objects WHERE embed_hash IS NOT NULL)')
    .run(model).changes;
}

export type EmbedderKind = 'repo' | 'transformers';

export function saveEmbedder(db: DB, model: string, kind: EmbedderKind, data: Buffer): void {
  db.prepare('INSERT OR REPLACE INTO embedders (model, kind, data) VALUES (?, ?, ?)').run(model, kind, data);
}

export function loadEmbedderRow(db: DB, model: string): { kind: EmbedderKind; data: Buffer } | null {
  return (db.prepare('SELECT kind, data FROM embedders WHERE model = ?').get(model) as { kind: EmbedderKind; data: Buffer } | undefined) ?? null;
}

/** The model dense retrieval uses (`id@version`), set when an embedding pass completes. */
export function activeDenseModel(db: DB): string | null {
  return getState(db, 'dense_model');
}

/** Makes `model` the dense model, and forgets every other model's vectors and embedder (one model at a time). */
export function activateDenseModel(db: DB, model: string): void {
  if (activeDenseModel(db) === model) return;
  db.transaction(() => {
    db.prepare('DELETE FROM embeddings WHERE model <> ?').run(model);
    db.prepare('DELETE FROM embedders WHERE model <> ?').run(model);
    setState(db, 'dense_model', model);
    touchVectors(db);
  })();
}

export function clearDenseModel(db: DB): void {
  db.transaction(() => {
    db.prepare('DELETE FROM embeddings').run();
    db.prepare('DELETE FROM embedders').run();
    setState(db, 'dense_model', null);
    touchVectors(db);
  })();
}
