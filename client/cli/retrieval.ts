import type { Command } from 'commander';
import { DEFAULT_RETRIEVER, RETRIEVER_NAMES, type RetrievalOptions, type RetrieverName } from '../../indexer/retrieve/select.ts';
import { UsageError } from './repo.ts';

/** Adds `--retriever` and `--path`, shared by the commands that retrieve. */
export function withRetrievalFlags(cmd: Command): Command {
  return cmd
    .option('--retriever <name>', `${RETRIEVER_NAMES.join(', ')} (hybrid = structural + BM25, + dense when the index has vectors)`, DEFAULT_RETRIEVER)
    .option('--path <file>', 'the file the query comes from (resolves its relative imports; its own objects are left out)');
}

export function parseRetrievalFlags(flags: { retriever?: string; path?: string }): RetrievalOptions {
  const name = flags.retriever ?? DEFAULT_RETRIEVER;
  if (!(RETRIEVER_NAMES as readonly string[]).includes(name)) throw new UsageError(`unknown retriever "${name}" (known: ${RETRIEVER_NAMES.join(', ')})`);
  return { retriever: name as RetrieverName, path: flags.path };
}

/** In text mode, says once on stderr when the default hybrid retriever runs without its dense part. */
export async function noteDenseOff(route: { denseOff(): Promise<string | null> }, retrieval: RetrievalOptions): Promise<void> {
  if ((retrieval.retriever ?? DEFAULT_RETRIEVER) !== 'hybrid') return;
  const why = await route.denseOff();
  if (why) process.stderr.write(`allot: ${why}; hybrid is structural + BM25\n`);
}
