/**
 * Public shapes of local dense embeddings. An embedder turns texts into unit
 * vectors, locally; the store keeps each vector with the model that made it
 * (`id@version`) and the hash of the text, so vectors of two models are never
 * mixed and unchanged text is never embedded twice.
 */

export interface Embedder {
  /** What made the vectors, e.g. `Xenova/all-MiniLM-L6-v2` or `allot/repo-ppmi`. */
  readonly id: string;
  /** Changes whenever the same text could embed differently (other weights, another training corpus). */
  readonly version: string;
  readonly dimension: number;
  /** Unit-length vectors, one per text, in order. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}

/** What `--embed` chooses: a model trained on the repository, a transformers.js model folder, or no vectors. */
export const EMBED_CHOICES = ['repo', 'model', 'none'] as const;
export type EmbedChoice = (typeof EMBED_CHOICES)[number];

/** The store's stamp for an embedder's vectors. */
export function modelKey(e: Pick<Embedder, 'id' | 'version'>): string {
  return `${e.id}@${e.version}`;
}

/** A model folder that cannot be used, with what is wrong in words a person can act on. */
export class ModelError extends Error {
  override name = 'ModelError';
}
