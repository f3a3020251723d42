import type { Command } from 'commander';
import { cachedModelDir, DEFAULT_MODEL_ID, resolveModelDir } from '../../../indexer/embed/model-dir.ts';
import { ModelError } from '../../../indexer/embed/types.ts';
import { UsageError } from '../repo.ts';

/** `allot model fetch|where`: the pretrained embedding model (the only download allot ever makes, and only here). */
export function registerModel(program: Command): void {
  const model = program.command('model').description('the local embedding model for dense retrieval');
  model
    .command('fetch [modelId]')
    .description(`download a transformers.js embedding model into the per-user cache (default ${DEFAULT_MODEL_ID}), verify it, print where it went`)
    .option('--dir <dir>', 'put it here instead of the cache')
    .action(async (modelId: string | undefined, flags: { dir?: string }) => {
      const id = modelId ?? DEFAULT_MODEL_ID;
      process.stderr.write(`allot: downloading ${id}\n`);
      const { fetchModel } = await import('../../../indexer/embed/fetch-model.ts');
      try {
        const m = await fetchModel(id, { dir: flags.dir, onFile: (f, n) => process.stderr.write(`  ${f} ${(n / 1e6).toFixed(1)} MB\n`) });
        process.stdout.write(`${m.dir}\n`);
        process.stderr.write(`allot: ${m.id} (${m.dimension} dimensions, ${(m.bytes / 1e6).toFixed(1)} MB) verified; \`allot index --embed model\` uses it\n`);
      } catch (err) {
        if (err instanceof ModelError) throw new UsageError(err.message);
        throw err;
      }
    });
  model
    .command('where')
    .description('the model folder dense retrieval would use (--model, ALLOT_MODEL_DIR, or the fetched default), checked')
    .option('--model <dir>', 'a model folder')
    .action(async (flags: { model?: string }) => {
      const dir = resolveModelDir(flags.model);
      if (!dir) throw new UsageError(`no embedding model: none at ${cachedModelDir(DEFAULT_MODEL_ID)}, no ALLOT_MODEL_DIR, no --model; run \`allot model fetch\``);
      const { inspectModelFolder } = await import('../../../indexer/embed/transformers.ts');
      try {
        const f = inspectModelFolder(dir);
        process.stdout.write(`${f.dir}\n`);
        process.stderr.write(`allot: ${f.id}, weights ${f.weights.file}\n`);
      } catch (err) {
        if (err instanceof ModelError) throw new UsageError(err.message);
        throw err;
      }
    });
}
