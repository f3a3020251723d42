import { Command, CommanderError } from 'commander';
import { IndexInterrupted } from '../../indexer/index-repository.ts';
import { StoreError } from '../../indexer/store/open.ts';
import { ModelError } from '../../indexer/embed/types.ts';
import { RetrievalError } from '../../indexer/retrieve/select.ts';
import { QueryError } from '../../daemon/queries.ts';
import { registerArbitrate } from './commands/arbitrate.ts';
import { registerContext } from './commands/context.ts';
import { registerEval } from './commands/eval.ts';
import { registerFiles } from './commands/files.ts';
import { registerIndex } from './commands/index.ts';
import { registerInventory } from './commands/inventory.ts';
import { registerMcp } from './commands/mcp.ts';
import { registerModel } from './commands/model.ts';
import { registerSearch } from './commands/search.ts';
import { registerServe } from './commands/serve.ts';
import { registerStartStop } from './commands/start.ts';
import { registerStatus } from './commands/status.ts';
import { DaemonError, DaemonProcessError, DaemonUnreachable, NoDaemon } from '../lib/index.ts';
import { UsageError } from './repo.ts';
import { VERSION } from './version.ts';

/** The `allot` command line: each subcommand registers itself from `commands/`. */
export function buildProgram(): Command {
  const program = new Command('allot')
    .description('A local context engine for coding agents: a code-object index and budgeted context.')
    .version(VERSION)
    .option('--repo <dir>', 'repository to work on (default: the one containing the current directory)')
    .option('--db <file>', 'index database (default: $ALLOT_DB or <repo>/.allot/index.db)')
    .showHelpAfterError();
  registerIndex(program);
  registerSearch(program);
  registerContext(program);
  registerArbitrate(program);
  registerFiles(program);
  registerInventory(program);
  registerEval(program);
  registerServe(program);
  registerStartStop(program);
  registerStatus(program);
  registerMcp(program);
  registerModel(program);
  return program;
}

async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().exitOverride().parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) process.exit(err.exitCode);
    if (err instanceof IndexInterrupted) {
      process.stderr.write(`allot: ${err.message}\n`);
      process.exit(130);
    }
    if (err instanceof UsageError || err instanceof StoreError || err instanceof ModelError || err instanceof RetrievalError || err instanceof QueryError || err instanceof DaemonError || err instanceof DaemonUnreachable || err instanceof NoDaemon || err instanceof DaemonProcessError) {
      process.stderr.write(`allot: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
}

await main(process.argv);
