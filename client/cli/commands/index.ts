import type { Command } from 'commander';
import { indexRepository } from '../../../indexer/index-repository.ts';
import type { IndexSummary } from '../../../indexer/types.ts';
import { progressReporter } from '../progress.ts';
import { resolveDb, resolveRepo, UsageError } from '../repo.ts';

/** The summary printed after `allot index`. */
export function formatSummary(s: IndexSummary, repo: string): string {
  const lines: string[] = [];
  const langs = Object.entries(s.filesByLanguage).map(([l, n]) => `${l} ${n}`).join(', ');
  lines.push(`indexed ${repo} in ${s.seconds.toFixed(2)} s`);
  lines.push(`  files       ${s.files} (${langs || 'none'}); parsed ${s.parsed}, unchanged ${s.unchanged}, removed ${s.removed}`);
  lines.push(`  objects     ${s.objects}`);
  lines.push(`  views       ${s.views}`);
  lines.push(`  references  ${s.references} (${s.resolvedReferences} resolved)`);
  const skipped = Object.entries(s.skipped).map(([r, n]) => `${r} ${n}`).join(', ');
  lines.push(`  skipped     ${skipped || 'none'}${s.skippedPaths.length ? ' (paths: --json)' : ''}`);
  if (s.problems.length) {
    lines.push(`  problems    ${s.problems.length}:`);
    for (const p of s.problems.slice(0, 20)) lines.push(`    ${p.path}: ${p.message}`);
    if (s.problems.length > 20) lines.push(`    ... ${s.problems.length - 20} more (see --json)`);
  }
  return lines.join('\n');
}

export function registerIndex(program: Command): void {
  program
    .command('index [repo]')
    .description('build or update the index of a repository (only changed files are re-parsed)')
    .option('--workers <n>', 'parser threads (0 = in-process)', (v) => Number.parseInt(v, 10))
    .option('--max-file-bytes <n>', 'skip files larger than this', (v) => Number.parseInt(v, 10), 1024 * 1024)
    .option('--json', 'print the summary as JSON')
    .action(async (repoArg: string | undefined, opts: { workers?: number; maxFileBytes: number; json?: boolean }, cmd: Command) => {
      const global = cmd.optsWithGlobals() as { repo?: string; db?: string };
      const repo = resolveRepo(repoArg ?? global.repo);
      if (opts.workers !== undefined && !(opts.workers >= 0)) throw new UsageError('--workers must be a number >= 0');
      if (!(opts.maxFileBytes > 0)) throw new UsageError('--max-file-bytes must be a positive number');
      const progress = progressReporter();
      let stopRequested = false;
      const onSigint = () => {
        if (stopRequested) process.exit(130);
        stopRequested = true;
        process.stderr.write('\nallot: stopping after the current batch (Ctrl-C again to quit now)\n');
      };
      process.on('SIGINT', onSigint);
      try {
        const summary = await indexRepository({
          repo,
          db: resolveDb(repo, global.db),
          workers: opts.workers,
          maxFileBytes: opts.maxFileBytes,
          onProgress: (p) => progress.update(p),
          shouldStop: () => stopRequested,
        });
        progress.stop();
        process.stdout.write(opts.json ? JSON.stringify(summary, null, 2) + '\n' : formatSummary(summary, repo) + '\n');
      } finally {
        progress.stop();
        process.off('SIGINT', onSigint);
      }
    });
}
