import path from 'node:path';
import type { Command } from 'commander';
import { normalizePath } from '../../indexer/paths.ts';
import { DEFAULT_RETRIEVER, RETRIEVER_NAMES, type RetrieverName } from '../../indexer/retrieve/names.ts';
import type { RetrievalOptions } from '../../indexer/retrieve/select.ts';
import { UsageError } from './repo.ts';

/** Adds `--retriever` and `--path`, shared by the commands that retrieve. */
export function withRetrievalFlags(cmd: Command): Command {
  return cmd
    .option('--retriever <name>', `${RETRIEVER_NAMES.join(', ')} (hybrid = structural + BM25, + dense for prose queries when the index has vectors)`, DEFAULT_RETRIEVER)
    .option('--path <file>', 'the file the query comes from (resolves its relative imports; its own objects are left out)')
    .option('--line <n>', 'with --path: the cursor\'s line in that file; the names its lines above already use are not what the next lines are about to use')
    .option('--rrf-k <n>', 'hybrid: the reciprocal-rank fusion constant (default 10)');
}

/**
 * `--path` as the daemon takes it: repository-relative. An absolute path inside the repository (what a shell or an
 * editor completes) is made relative; one outside it is refused.
 */
export function repoRelativePath(repo: string, p: string): string {
  if (!path.isAbsolute(p)) return normalizePath(p);
  const rel = path.relative(repo, p);
  if (rel.startsWith('..') || path.isAbsolute(rel)) throw new UsageError(`--path ${p} is outside the repository ${repo}`);
  return normalizePath(rel);
}

export function parseRetrievalFlags(flags: { retriever?: string; path?: string; line?: string; rrfK?: string }, repo?: string): RetrievalOptions {
  const name = flags.retriever ?? DEFAULT_RETRIEVER;
  if (!(RETRIEVER_NAMES as readonly string[]).includes(name)) throw new UsageError(`unknown retriever "${name}" (known: ${RETRIEVER_NAMES.join(', ')})`);
  if (flags.rrfK !== undefined && !/^\s*\d+\s*$/.test(flags.rrfK)) throw new UsageError(`--rrf-k must be a positive integer, got "${flags.rrfK}"`);
  const rrfK = flags.rrfK === undefined ? undefined : Number(flags.rrfK);
  if (rrfK !== undefined && (rrfK < 1 || rrfK > 1000)) throw new UsageError('--rrf-k must be between 1 and 1000');
  const file = flags.path === undefined ? undefined : repo ? repoRelativePath(repo, flags.path) : flags.path;
  if (flags.line !== undefined && !/^\s*[1-9]\d*\s*$/.test(flags.line)) throw new UsageError(`--line must be a positive integer, got "${flags.line}"`);
  if (flags.line !== undefined && file === undefined) throw new UsageError('--line needs --path (the file the line is in)');
  const line = flags.line === undefined ? undefined : Number(flags.line);
  return { retriever: name as RetrieverName, path: file, ...(line !== undefined ? { line } : {}), ...(rrfK !== undefined ? { rrfK } : {}) };
}

/** In text mode, says once on stderr when the default hybrid retriever runs without its dense part. */
export async function noteDenseOff(route: { denseOff(): Promise<string | null> }, retrieval: RetrievalOptions): Promise<void> {
  if ((retrieval.retriever ?? DEFAULT_RETRIEVER) !== 'hybrid') return;
  const why = await route.denseOff();
  if (why) process.stderr.write(`allot: ${why}; hybrid is structural + BM25\n`);
}
