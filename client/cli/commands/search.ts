import type { Command } from 'commander';
import { noteDenseOff, parseRetrievalFlags, withRetrievalFlags } from '../retrieval.ts';
import { resolveDb, resolveRepo, UsageError } from '../repo.ts';

export function registerSearch(program: Command): void {
  withRetrievalFlags(program.command('search <query>'))
    .description('ranked views (signature, body, docstring, call site, import, test reference) matching a query')
    .option('--k <n>', 'number of results', (v) => Number.parseInt(v, 10), 20)
    .option('--json', 'print an array of {path, object, kind, view, startLine, endLine, score}')
    .option('--daemon', "use the repository's daemon, starting it if none runs")
    .option('--no-daemon', 'answer in-process even when a daemon runs')
    .action(async (query: string, opts: { k: number; json?: boolean; daemon?: boolean; retriever?: string; path?: string; line?: string }, cmd: Command) => {
      const global = cmd.optsWithGlobals() as { repo?: string; db?: string };
      if (!(opts.k > 0)) throw new UsageError('--k must be a positive number');
      const repo = resolveRepo(global.repo);
      const retrieval = parseRetrievalFlags(opts, repo);
      const { openQueryRoute } = await import('../query-route.ts');
      const route = await openQueryRoute(repo, resolveDb(repo, global.db), opts.daemon);
      try {
        const hits = await route.search(query, opts.k, retrieval);
        if (opts.json) {
          process.stdout.write(JSON.stringify(hits, null, 2) + '\n');
          return;
        }
        await noteDenseOff(route, retrieval);
        if (!hits.length) process.stderr.write(`no match for ${JSON.stringify(query)}\n`);
        for (const h of hits) {
          process.stdout.write(`${h.score.toFixed(3).padStart(8)}  ${h.path}:${h.startLine}-${h.endLine}  ${h.object}  [${h.view}]\n`);
        }
      } finally {
        route.close();
      }
    });
}
