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

/** Errors whose message is written for the user: printed as one line, exit 2. By name: a command loads the modules that define them only when it runs. */
const USER_ERRORS = new Set([
  'UsageError', 'StoreError', 'OwnFileError', 'ModelError', 'RetrievalError', 'QueryError', 'DaemonError', 'DaemonUnreachable', 'NoDaemon', 'DaemonProcessError',
  'DaemonRunning',
]);

/**
 * What the CLI prints for a failure and the exit code: one line, control characters escaped (a message may name
 * a file), exit 2 for user errors and faults of the environment (a full disk, a read-only or damaged index,
 * permissions), 130 for an interrupted run, 1 for anything else (a bug: ALLOT_DEBUG=1 prints its stack).
 */
async function failure(err: unknown): Promise<{ line: string; code: number }> {
  const { escapeControl } = await import('../../daemon/config.ts');
  const one = (message: string) => `allot: ${escapeControl(message.split('\n')[0])}\n`;
  const name = err instanceof Error ? err.name : '';
  if (name === 'IndexInterrupted') return { line: one((err as Error).message), code: 130 };
  if (USER_ERRORS.has(name)) return { line: one((err as Error).message), code: 2 };
  const code = String((err as { code?: unknown })?.code ?? '');
  const message = err instanceof Error ? err.message : String(err);
  // SQLite's faults reached us from below the commands: say what they mean for the index.
  if (code.startsWith('SQLITE_')) {
    const { storeFault } = await import('../../indexer/store/open.ts');
    return { line: one((storeFault(null, err) ?? (err as Error)).message), code: 2 };
  }
  if (code === 'ENOSPC' || code === 'EDQUOT') return { line: one(`the disk is full (${message}); free some space and run the command again`), code: 2 };
  // The file system's: the message names the file and the call.
  if (/^E[A-Z]+$/.test(code)) return { line: one(message), code: 2 };
  return { line: one(`unexpected error: ${message} (set ALLOT_DEBUG=1 for the stack trace)`), code: 1 };
}

async function main(argv: string[]): Promise<void> {
  // A reader that went away (`allot search ... | head`) is not an error worth a stack trace.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
  });
  try {
    await (await buildProgram(argv)).exitOverride().parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) process.exit(err.exitCode);
    const { line, code } = await failure(err);
    process.stderr.write(line);
    if (process.env.ALLOT_DEBUG) process.stderr.write(`${(err as Error)?.stack ?? err}\n`);
    process.exit(code);
  }
}

await main(process.argv);
