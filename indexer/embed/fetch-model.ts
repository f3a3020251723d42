/**
 * `allot model fetch`: the one command that downloads. It fetches a
 * transformers.js model folder from the Hugging Face hub into the per-user
 * cache, checks it loads and embeds, and only then moves it into place.
 */
import fs from 'node:fs';
import path from 'node:path';
import { cachedModelDir, DEFAULT_MODEL_ID } from './model-dir.ts';
import { loadTransformersEmbedder } from './transformers.ts';
import { ModelError } from './types.ts';

const HUB = 'https://huggingface.co';
/** What a feature-extraction model folder needs; the weights are the int8 ONNX export (small and fast on CPU). */
const FILES = [
  { file: 'config.json', required: true },
  { file: 'tokenizer.json', required: true },
  { file: 'tokenizer_config.json', required: false },
  { file: 'special_tokens_map.json', required: false },
  { file: 'onnx/model_quantized.onnx', required: true },
];

export interface FetchedModel {
  id: string;
  dir: string;
  bytes: number;
  dimension: number;
  version: string;
}

/** @example await fetchModel('Xenova/all-MiniLM-L6-v2', { onFile: (f, n) => console.error(f, n) }) */
export async function fetchModel(
  modelId = DEFAULT_MODEL_ID,
  opts: { dir?: string; fetch?: typeof fetch; hub?: string; onFile?: (file: string, bytes: number) => void } = {},
): Promise<FetchedModel> {
  if (!/^[\w.-]+\/[\w.-]+$/.test(modelId)) throw new ModelError(`"${modelId}" is not a model id like owner/name`);
  const dest = path.resolve(opts.dir ?? cachedModelDir(modelId));
  const staging = `${dest}.partial-${process.pid}`;
  fs.rmSync(staging, { recursive: true, force: true });
  const get = opts.fetch ?? fetch;
  let bytes = 0;
  try {
    for (const { file, required } of FILES) {
      const url = `${opts.hub ?? HUB}/${modelId}/resolve/main/${file}`;
      let res: Response;
      try {
        res = await get(url, { signal: AbortSignal.timeout(120_000), redirect: 'follow' });
      } catch (err) {
        throw new ModelError(
          `cannot download ${url} (${(err as Error).cause instanceof Error ? ((err as Error).cause as Error).message : (err as Error).message}): ` +
            'this machine cannot reach the model hub. Copy a model folder from a machine that can (allot model fetch there), then pass --model DIR or set ALLOT_MODEL_DIR',
        );
      }
      if (res.status === 404 && !required) continue;
      if (!res.ok) throw new ModelError(`cannot download ${url}: HTTP ${res.status}${res.status === 404 ? ` (is "${modelId}" a transformers.js model with ${file}?)` : ''}`);
      const body = Buffer.from(await res.arrayBuffer());
      if (!body.length) throw new ModelError(`${url} is empty`);
      fs.mkdirSync(path.dirname(path.join(staging, file)), { recursive: true });
      fs.writeFileSync(path.join(staging, file), body);
      bytes += body.length;
      opts.onFile?.(file, body.length);
    }
    // Verify: the folder must load and embed before it replaces anything.
    const embedder = await loadTransformersEmbedder(staging);
    const [v] = await embedder.embed(['verify the downloaded model']);
    if (!v || v.length !== embedder.dimension || !v.every(Number.isFinite)) throw new ModelError(`the model ${modelId} loaded but does not embed: not kept`);
    fs.rmSync(dest, { recursive: true, force: true });
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    fs.renameSync(staging, dest);
    return { id: modelId, dir: dest, bytes, dimension: embedder.dimension, version: embedder.version };
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}
