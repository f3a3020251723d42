import { Command, CommanderError } from 'commander';
import { registerArbitrate } from './commands/arbitrate.ts';
import { registerContext } from './commands/context.ts';
import { registerFiles } from './commands/files.ts';
import { registerIndex } from './commands/index.ts';
import { registerInventory } from './commands/inventory.ts';
import { registerMcp } from './commands/mcp.ts';
import { registerModel } from './commands/model.ts';
import { registerSearch } from './commands/search.ts';
import { registerServe } from './commands/serve.ts';
import { registerStartStop } from './commands/start.ts';
import { registerStatus } from './commands/status.ts';
import { VERSION } from './version.ts';

/**
 * The command `argv` runs (`help X` counts as X), skipping the global options and their values. Only `eval`
 * needs this: its subcommands' definitions read the evaluation modules, so they are loaded only to run it.
 */
function invokedCommand(argv: string[]): string | undefined {
  const args = argv.slice(2);
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--repo' || args[i] === '--db') i++;
    else if (!args[i].startsWith('-')) return args[i] === 'help' ? args[i + 1] : args[i];
  }
  return undefined;
}

/** The `allot` command line: each subcommand registers itself from `commands/`, and loads what it runs when it runs. */
export async function buildProgram(argv: string[] = process.argv): Promise<Command> {
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
  const evalCmd = program
    .command('eval')
    .description('measure what the context is worth: cross-file tasks (RepoBench setting) and issues (SWE-bench setting)');
  if (invokedCommand(argv) === 'eval') (await import('./commands/eval.ts')).registerEval(evalCmd);
  registerServe(program);
  registerStartStop(program);
  registerStatus(program);
  registerMcp(program);
  registerModel(program);
  return program;
}

/** Errors that are the user's to act on: their message on one line, exit code 2. */
const ONE_LINE_ERRORS = new Set([
  'UsageError', 'StoreError', 'ModelError', 'RetrievalError', 'DaemonError', 'DaemonUnreachable', 'NoDaemon', 'DaemonProcessError',
]);

async function main(argv: string[]): Promise<void> {
  try {
    await (await buildProgram(argv)).exitOverride().parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) process.exit(err.exitCode);
    // By name: commands load the modules that define these errors only when they run.
    const name = err instanceof Error ? err.name : '';
    if (name === 'IndexInterrupted') {
      process.stderr.write(`allot: ${(err as Error).message}\n`);
      process.exit(130);
    }
    if (ONE_LINE_ERRORS.has(name)) {
      process.stderr.write(`allot: ${(err as Error).message}\n`);
      process.exit(2);
    }
    throw err;
  }
}

await main(process.argv);
