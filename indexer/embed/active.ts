/**
 * The embedder behind the index's dense vectors, for embedding queries: the
 * repository-trained model kept in the store, or the transformers.js folder
 * the vectors were made with. Loaded once per process and model.
 */
import fs from 'node:fs';
import type { DB } from '../store/open.ts';
import { activeDenseModel, loadEmbedderRow } from '../store/embeddings.ts';
import type { QueryEmbedder } from '../retrieve/dense.ts';
import { loadRepositoryEmbedder } from './repo-embedder.ts';
import { loadTransformersEmbedder } from './transformers.ts';
import { modelKey } from './types.ts';

export type DenseState = { on: true; embedder: QueryEmbedder; model: string } | { on: false; reason: string };

/** What to tell a person when dense retrieval is off and they did not ask for it. */
export const DENSE_OFF_HINT = '`allot index --embed repo` trains a model on this repository; `allot model fetch` gets a pretrained one';

const loaded = new Map<string, Promise<QueryEmbedder>>();

/** @example const d = await activeEmbedder(db); if (d.on) denseRetriever(db, d.embedder) */
export async function activeEmbedder(db: DB): Promise<DenseState> {
  const model = activeDenseModel(db);
  if (!model) return { on: false, reason: `dense retrieval is off: the index holds no vectors (${DENSE_OFF_HINT})` };
  // Every query asks; the embedder's row (a repository model is megabytes) is read only to load it.
  let pending = loaded.get(model);
  let folder: string | null = null;
  if (!pending) {
    const row = loadEmbedderRow(db, model);
    if (!row) return { on: false, reason: `dense retrieval is off: the embedder of ${model} is not in the index; re-run \`allot index --embed\`` };
    folder = row.kind === 'transformers' ? row.data.toString('utf8') : null;
    pending = folder === null ? Promise.resolve(loadRepositoryEmbedder(row.data)) : loadTransformersEmbedder(folder);
    loaded.set(model, pending);
    pending.catch(() => loaded.delete(model));
  }
  try {
    const embedder = await pending;
    if (modelKey(embedder) !== model) {
      loaded.delete(model);
      return { on: false, reason: `dense retrieval is off: the model folder ${folder} changed since the index was embedded with it; re-run \`allot index --embed\`` };
    }
    return { on: true, embedder, model };
  } catch (err) {
    const gone = folder !== null && !fs.existsSync(folder);
    return { on: false, reason: `dense retrieval is off: ${gone ? `the model folder ${folder} is gone` : (err as Error).message}` };
  }
}
