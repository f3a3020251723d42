/**
 * Dense embeddings from a local transformers.js model folder (feature
 * extraction, mean pooling, unit length). Remote models are off: nothing is
 * ever downloaded here (`allot model fetch` is the one command that downloads).
 */
import fs from 'node:fs';
import path from 'node:path';
import { contentHash } from '../extract/extract-file.ts';
import { ModelError, type Embedder } from './types.ts';

/** The files a model folder must hold (the ONNX weights are checked separately). */
const REQUIRED = ['config.json', 'tokenizer.json'];
/** Weights transformers.js can load, in the order we prefer them on CPU. */
const WEIGHTS: { file: string; dtype: 'q8' | 'fp32' }[] = [
  { file: 'onnx/model_quantized.onnx', dtype: 'q8' },
  { file: 'onnx/model.onnx', dtype: 'fp32' },
];

export interface ModelFolder {
  dir: string;
  /** The model's name: `_name_or_path` of its config, else the folder's name. */
  id: string;
  weights: { file: string; dtype: 'q8' | 'fp32' };
}

/** Checks a model folder without loading it; a ModelError says what is missing. */
export function inspectModelFolder(dir: string): ModelFolder {
  const abs = path.resolve(dir);
  if (!fs.existsSync(abs) || !fs.statSync(abs).isDirectory()) throw new ModelError(`no model folder at ${abs}`);
  for (const f of REQUIRED) {
    const p = path.join(abs, f);
    if (!fs.existsSync(p)) throw new ModelError(`${abs} is not a transformers.js model folder: ${f} is missing`);
    try {
      JSON.parse(fs.readFileSync(p, 'utf8'));
    } catch (err) {
      throw new ModelError(`${p} is not valid JSON (${(err as Error).message}): the model folder is damaged; fetch it again`);
    }
  }
  const weights = WEIGHTS.find((w) => fs.existsSync(path.join(abs, w.file)) && fs.statSync(path.join(abs, w.file)).size > 0);
  if (!weights) throw new ModelError(`${abs} holds no ONNX weights (${WEIGHTS.map((w) => w.file).join(' or ')})`);
  const config = JSON.parse(fs.readFileSync(path.join(abs, 'config.json'), 'utf8')) as { _name_or_path?: string };
  return { dir: abs, id: config._name_or_path || path.basename(abs), weights };
}

/** A digest of everything that decides the vectors: the weights, the tokenizer and the config, byte for byte. */
function folderVersion(folder: ModelFolder): string {
  return contentHash(Buffer.concat([folder.weights.file, 'tokenizer.json', 'config.json'].map((f) => fs.readFileSync(path.join(folder.dir, f))))).slice(0, 12);
}

/**
 * Loads a model folder through transformers.js (`@huggingface/transformers`, the maintained successor of
 * `@xenova/transformers`). The version stamps the weights and tokenizer: other files, other vectors.
 * @example const e = await loadTransformersEmbedder('/home/me/.cache/allot/models/Xenova--all-MiniLM-L6-v2'); await e.embed(['parse config'])
 */
export async function loadTransformersEmbedder(dir: string): Promise<Embedder> {
  const folder = inspectModelFolder(dir);
  // An optional dependency (its ONNX runtime alone is hundreds of MB): installs without optional packages lack it.
  const { env, pipeline } = await import('@huggingface/transformers').catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ERR_MODULE_NOT_FOUND') throw err;
    throw new ModelError('pretrained models need the optional package @huggingface/transformers, which is not installed: `npm install @huggingface/transformers`');
  });
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  let extract: Awaited<ReturnType<typeof pipeline<'feature-extraction'>>>;
  try {
    extract = await pipeline('feature-extraction', folder.dir, { dtype: folder.weights.dtype, local_files_only: true });
  } catch (err) {
    throw new ModelError(`cannot load the model in ${folder.dir}: ${(err as Error).message.split('\n')[0]}`);
  }
  const run = async (texts: readonly string[]): Promise<Float32Array[]> => {
    if (!texts.length) return [];
    const out = await extract([...texts], { pooling: 'mean', normalize: true });
    const [n, d] = out.dims as [number, number];
    const data = out.data as Float32Array;
    return Array.from({ length: n }, (_, i) => data.slice(i * d, (i + 1) * d));
  };
  const probe = await run(['x']);
  return { id: folder.id, version: folderVersion(folder), dimension: probe[0].length, embed: run };
}
