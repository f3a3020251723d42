/**
 * `allot index --embed`: choose the embedder, keep it in the store, and run the
 * embedding pass. `repo` trains a model on the repository itself (kept and
 * reused, so its vectors stay valid until `--retrain`); `model` uses a local
 * transformers.js folder (`--model DIR`, `ALLOT_MODEL_DIR`, or the cache of
 * `allot model fetch`); `none` drops every vector.
 */
import type { DB } from '../store/open.ts';
import { activeDenseModel, clearDenseModel, loadEmbedderRow, saveEmbedder } from '../store/embeddings.ts';
import { embedIndex, objectTexts, type EmbedOptions, type EmbedSummary } from './embed-index.ts';
import { resolveModelDir } from './model-dir.ts';
import { loadRepositoryEmbedder, REPO_EMBEDDER_ID, trainRepositoryEmbedder } from './repo-embedder.ts';
import { loadTransformersEmbedder } from './transformers.ts';
import { activeEmbedder } from './active.ts';
import { ModelError, modelKey, type EmbedChoice, type Embedder } from './types.ts';

export { EMBED_CHOICES, type EmbedChoice } from './types.ts';

export interface RunEmbeddingOptions extends EmbedOptions {
  /** For `model`: the model folder (else ALLOT_MODEL_DIR, else the fetched default). */
  modelDir?: string;
  /** For `repo`: train a new model even if the index keeps one. */
  retrain?: boolean;
  onTraining?: (phase: 'start' | 'done', seconds: number) => void;
}

/** The repository model the store keeps, unless a retrain is asked for. */
function keptRepositoryModel(db: DB): Embedder | null {
  const active = activeDenseModel(db);
  if (!active?.startsWith(`${REPO_EMBEDDER_ID}@`)) return null;
  const row = loadEmbedderRow(db, active);
  return row?.kind === 'repo' ? loadRepositoryEmbedder(row.data) : null;
}

/** @example await runEmbedding(db, 'repo', { onProgress: (p) => console.error(p) }) */
export async function runEmbedding(db: DB, choice: EmbedChoice, opts: RunEmbeddingOptions = {}): Promise<EmbedSummary | null> {
  if (choice === 'none') {
    clearDenseModel(db);
    return null;
  }
  let embedder: Embedder;
  if (choice === 'repo') {
    const kept = opts.retrain ? null : keptRepositoryModel(db);
    if (kept) embedder = kept;
    else {
      const t0 = performance.now();
      opts.onTraining?.('start', 0);
      const trained = trainRepositoryEmbedder(objectTexts(db));
      opts.onTraining?.('done', (performance.now() - t0) / 1000);
      saveEmbedder(db, modelKey(trained), 'repo', trained.toBuffer());
      embedder = trained;
    }
  } else {
    const dir = resolveModelDir(opts.modelDir);
    if (!dir) throw new ModelError('no embedding model: pass --model DIR, set ALLOT_MODEL_DIR, or run `allot model fetch` once');
    embedder = await loadTransformersEmbedder(dir);
    saveEmbedder(db, modelKey(embedder), 'transformers', Buffer.from(dir, 'utf8'));
  }
  return embedIndex(db, embedder, opts);
}

/**
 * Embeds what is new with the model the index already uses (the daemon's background pass after each batch);
 * null when the index has no dense model.
 */
export async function resumeEmbedding(db: DB, opts: EmbedOptions = {}): Promise<EmbedSummary | null> {
  if (!activeDenseModel(db)) return null;
  const dense = await activeEmbedder(db);
  if (!dense.on) throw new ModelError(dense.reason);
  return embedIndex(db, dense.embedder, opts);
}
