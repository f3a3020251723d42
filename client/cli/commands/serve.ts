import type { Command } from 'commander';
import { resolveDb, resolveRepo, UsageError } from '../repo.ts';

export interface ListenFlags {
  socket?: string;
  port?: number;
  queryThreads?: number;
  idleExit?: number;
}

/** The longest `--idle-exit` (a week, in minutes). */
const MAX_IDLE_EXIT_MINUTES = 7 * 24 * 60;

export function parseIdleExit(v: string): number {
  const n = Number(v);
  if (!/^\s*\d+(\.\d+)?\s*$/.test(v) || !(n > 0) || n > MAX_IDLE_EXIT_MINUTES) throw new UsageError(`--idle-exit must be a positive number of minutes, at most ${MAX_IDLE_EXIT_MINUTES}, got "${v}"`);
  return n;
}

export function parseThreads(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new UsageError(`--query-threads must be 1..64, got "${v}"`);
  return n;
}

/** `--socket`: refused before anything starts when the kernel would cut it (over 107 bytes). */
export async function checkSocket(socket: string | undefined): Promise<void> {
  if (socket === undefined) return;
  const { socketPathProblem } = await import('../../../daemon/lifecycle.ts');
  const problem = socketPathProblem(socket);
  if (problem) throw new UsageError(problem);
}

export function parsePort(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new UsageError(`--port must be 0..65535, got "${v}"`);
  return n;
}

/** `allot serve`: the daemon in the foreground (what `allot start` runs detached). */
export function registerServe(program: Command): void {
  program
    .command('serve [repo]')
    .description('run the daemon in the foreground: keep the index fresh and answer queries over HTTP on 127.0.0.1')
    .option('--socket <path>', 'listen on this Unix socket instead of a loopback TCP port (at most 107 bytes)')
    .option('--port <n>', 'loopback TCP port (default: a free one)', parsePort)
    .option('--query-threads <n>', 'threads answering queries (default: one per core, 2 to 4)', parseThreads)
    .option('--idle-exit <minutes>', 'stop once no request has arrived for this many minutes', parseIdleExit)
    .action(async (repoArg: string | undefined, flags: ListenFlags, cmd: Command) => {
      const global = cmd.optsWithGlobals() as { repo?: string; db?: string };
      const repo = resolveRepo(repoArg ?? global.repo);
      // Whoever read our output may be gone (a closed terminal or pipe): a
      // daemon must not die, or spin on errors, because its log cannot be written.
      for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});
      await checkSocket(flags.socket);
      const [{ DaemonRunning, startDaemon }, { chosenToken, logLine }] = await Promise.all([import('../../../daemon/service.ts'), import('../../../daemon/config.ts')]);
      let token: string | null;
      try {
        token = chosenToken(process.env.ALLOT_TOKEN);
      } catch (err) {
        throw new UsageError((err as Error).message);
      }
      let daemon;
      let onIdle = () => {};
      try {
        daemon = await startDaemon({
          repo, db: resolveDb(repo, global.db), port: flags.port, socket: flags.socket, queryThreads: flags.queryThreads, ...(token ? { token } : {}),
          ...(flags.idleExit ? { idleExitMs: flags.idleExit * 60_000, onIdleExit: () => onIdle() } : {}),
        });
      } catch (err) {
        if (err instanceof DaemonRunning) throw new UsageError(err.message);
        throw err;
      }
      const running = daemon;
      await new Promise<void>((resolve) => {
        const stop = (why: string, code: number) => {
          void running.stop(why).finally(() => {
            process.exitCode = code;
            resolve();
          });
        };
        process.once('SIGTERM', () => stop('SIGTERM', 0));
        process.once('SIGINT', () => stop('SIGINT', 0));
        process.once('SIGHUP', () => stop('SIGHUP', 0));
        onIdle = () => stop(`idle for ${flags.idleExit} minute(s)`, 0);
        // A bug must not leave a half-working daemon holding the lock: log it, shut down cleanly, exit non-zero.
        let fatal = false;
        process.on('uncaughtException', (err) => {
          if (fatal) return;
          fatal = true;
          process.stderr.write(logLine(`fatal: ${err.stack ?? err}`));
          stop('uncaught exception', 1);
        });
      });
      // Worker threads and sockets are closed; exit even if some library left a timer behind.
      process.exit(process.exitCode ?? 0);
    });
}
