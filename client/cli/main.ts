import { Command, CommanderError } from 'commander';
import { IndexInterrupted } from '../../indexer/index-repository.ts';
import { StoreError, storeFault } from '../../indexer/store/open.ts';
import { OwnFileError } from '../../indexer/store/own-files.ts';
import { escapeControl } from '../../daemon/config.ts';
import { DaemonRunning } from '../../daemon/service.ts';
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

/** Errors whose message is written for the user: printed as one line, exit 2. */
const USER_ERRORS = [UsageError, StoreError, OwnFileError, ModelError, RetrievalError, QueryError, DaemonError, DaemonUnreachable, NoDaemon, DaemonProcessError, DaemonRunning];

/**
 * What the CLI prints for a failure and the exit code: one line, control characters escaped (a message may name
 * a file), exit 2 for user errors and faults of the environment (a full disk, a read-only or damaged index,
 * permissions), 130 for an interrupted run, 1 for anything else (a bug: ALLOT_DEBUG=1 prints its stack).
 */
function failure(err: unknown): { line: string; code: number } {
  const one = (message: string) => `allot: ${escapeControl(message.split('\n')[0])}\n`;
  if (err instanceof IndexInterrupted) return { line: one(err.message), code: 130 };
  if (USER_ERRORS.some((E) => err instanceof E)) return { line: one((err as Error).message), code: 2 };
  const code = String((err as { code?: unknown })?.code ?? '');
  const message = err instanceof Error ? err.message : String(err);
  // SQLite's faults reached us from below the commands: say what they mean for the index.
  if (code.startsWith('SQLITE_')) return { line: one((storeFault(null, err) ?? err as Error).message), code: 2 };
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
    await buildProgram().exitOverride().parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) process.exit(err.exitCode);
    const { line, code } = failure(err);
    process.stderr.write(line);
    if (process.env.ALLOT_DEBUG) process.stderr.write(`${(err as Error)?.stack ?? err}\n`);
    process.exit(code);
  }
}

await main(process.argv);
