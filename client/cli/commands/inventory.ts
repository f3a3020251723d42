import type { Command } from 'commander';
import { TOKENIZER_NAMES, type TokenizerName } from '../../../indexer/tokenizer.ts';
import { resolveDb, resolveRepo, UsageError } from '../repo.ts';
import { readIssue } from './files.ts';

export function registerInventory(program: Command): void {
  program
    .command('inventory [issue]')
    .description('the path inventory for an issue: indexed paths ranked by words shared with it, cut to half of min(all, 32K) tokens, alphabetical')
    .option('--issue <file>', 'read the issue from a file, or - for standard input, instead of the argument')
    .option('--tokenizer <name>', 'cl100k_base or o200k_base', 'cl100k_base')
    .option('--json', 'print {issue, tokenizer, tokens, fullTokens, limit, total, paths}')
    .action(async (text: string | undefined, flags: { issue?: string; tokenizer: string; json?: boolean }, cmd: Command) => {
      const global = cmd.optsWithGlobals() as { repo?: string; db?: string };
      if (text !== undefined && flags.issue !== undefined) throw new UsageError('give the issue as an argument or with --issue, not both');
      const issue = text ?? readIssue(flags.issue);
      if (!TOKENIZER_NAMES.includes(flags.tokenizer as TokenizerName)) throw new UsageError(`unknown tokenizer "${flags.tokenizer}" (known: ${TOKENIZER_NAMES.join(', ')})`);
      const repo = resolveRepo(global.repo);
      const [{ inventory }, { storeFileSource }, { openStore }] = await Promise.all([
        import('../../../allocator/files/select.ts'), import('../../../indexer/store/file-source.ts'), import('../../../indexer/store/open.ts'),
      ]);
      const db = openStore(resolveDb(repo, global.db), { readonly: true });
      try {
        const inv = inventory(issue, storeFileSource(db, repo), { tokenizer: flags.tokenizer as TokenizerName });
        if (flags.json) {
          const { text: _text, ...rest } = inv;
          process.stdout.write(JSON.stringify({ issue, tokenizer: flags.tokenizer, ...rest }, null, 2) + '\n');
        } else {
          if (inv.text) process.stdout.write(inv.text + '\n');
          process.stderr.write(`${inv.paths.length} of ${inv.total} paths, ${inv.tokens} tokens (limit ${inv.limit}: half of min(${inv.fullTokens}, 32000))\n`);
        }
      } finally {
        db.close();
      }
    });
}
