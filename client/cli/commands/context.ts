import type { Command } from 'commander';
import { noteDenseOff, parseRetrievalFlags, withRetrievalFlags } from '../retrieval.ts';
import { resolveDb, resolveRepo, UsageError } from '../repo.ts';

interface ContextFlags {
  budget?: string;
  objectCap?: string;
  floor?: string;
  slots?: string;
  headLines?: string;
  fillRelevance?: string;
  tokenizer?: string;
  json?: boolean;
  explain?: boolean;
  quotient: boolean;
  render: boolean;
  fill: boolean;
  baseline?: string;
  daemon?: boolean;
  retriever?: string;
  path?: string;
  line?: string;
}

export function registerContext(program: Command): void {
  withRetrievalFlags(program.command('context <query>'))
    .description('budgeted context: retrieved views allocated by code object and rendered within an exact token budget')
    .option('--budget <tokens>', 'B: the whole context budget', '4096')
    .option('--object-cap <tokens>', 'b_obj: at most this many tokens per object', '1024')
    .option('--floor <tokens>', 'tokens reserved for each later object', '128')
    .option('--slots <core+companions>', 'K split into core objects and fiber companions', '4+1')
    .option('--head-lines <lines>', 'the size of the heads the fill lists for objects a code query imports, calls or names that do not fit whole, and of an outline\'s opening in the fill (0: no heads)', '15')
    .option('--no-fill', 'the paper\'s strict allocation: the K slots only, the budget they leave unused')
    .option('--fill-relevance <share>', 'the fill adds further objects only while their score is this share of the K-th ranked one\'s (0: no stop)', '0.4')
    .option('--tokenizer <name>', 'cl100k_base or o200k_base', 'cl100k_base')
    .option('--json', 'print {query, budget, tokenizer, totalTokens, text, blocks, trace}')
    .option('--explain', 'print the allocation trace for a person, then the context')
    .option('--no-quotient', 'ablation: views compete on their own (fragment-level allocation)')
    .option('--no-render', 'ablation: cut objects at the budget instead of allocating by the formula')
    .option('--baseline <name>', 'baseline instead of allocation: chunk-bm25 (20-line chunks packed in BM25 order)')
    .option('--daemon', "use the repository's daemon, starting it if none runs")
    .option('--no-daemon', 'answer in-process even when a daemon runs')
    .action(async (query: string, flags: ContextFlags, cmd: Command) => {
      const global = cmd.optsWithGlobals() as { repo?: string; db?: string };
      const { parseAllocateOptions } = await import('../../../allocator/options.ts');
      let options;
      try {
        options = parseAllocateOptions({
          budget: flags.budget, objectCap: flags.objectCap, floor: flags.floor, slots: flags.slots, headLines: flags.headLines, fillRelevance: flags.fillRelevance,
          tokenizer: flags.tokenizer as 'cl100k_base', noQuotient: !flags.quotient, noRender: !flags.render, noFill: !flags.fill,
        });
      } catch (err) {
        throw new UsageError((err as Error).message);
      }
      if (flags.baseline !== undefined && flags.baseline !== 'chunk-bm25') throw new UsageError(`unknown baseline "${flags.baseline}" (known: chunk-bm25)`);
      const repo = resolveRepo(global.repo);
      const retrieval = parseRetrievalFlags(flags, repo);
      const dbFile = resolveDb(repo, global.db);
      if (flags.baseline) {
        // The baseline is an experiment, not a service: always in-process.
        const [{ openStore }, { packChunks }, { chunkCandidates }] = await Promise.all([
          import('../../../indexer/store/open.ts'), import('../../../allocator/baseline.ts'), import('../../../indexer/retrieve/chunks.ts'),
        ]);
        const db = openStore(dbFile, { readonly: true });
        try {
          const packing = packChunks(chunkCandidates(db, query), options.budget, options.tokenizer);
          process.stdout.write(flags.json ? JSON.stringify({ query, ...packing }, null, 2) + '\n' : packing.text + '\n');
        } finally {
          db.close();
        }
        return;
      }
      const { openQueryRoute } = await import('../query-route.ts');
      const route = await openQueryRoute(repo, dbFile, flags.daemon);
      try {
        const allocation = await route.context(query, options, retrieval);
        // A budget too small for anything is a usage error; objects left out are worth a line on stderr.
        const nothing = !allocation.blocks.length && (await import('../../../allocator/shortfall.ts')).nothingFit(allocation);
        if (flags.json) process.stdout.write(JSON.stringify(allocation, null, 2) + '\n');
        else {
          await noteDenseOff(route, retrieval);
          if (flags.explain) process.stdout.write((await import('../../../allocator/explain.ts')).explain(allocation) + '\n\n');
          if (allocation.blocks.length) process.stdout.write(allocation.text + '\n');
          else if (!nothing) process.stderr.write(`no context for ${JSON.stringify(query)}: nothing in the index matches\n`);
        }
        const [warning] = allocation.warnings ?? [];
        if (nothing) throw new UsageError(warning ?? `nothing fit the budget of ${allocation.budget} tokens`);
        if (warning && !flags.json) process.stderr.write(`allot: ${warning}\n`);
      } finally {
        route.close();
      }
    });
}
