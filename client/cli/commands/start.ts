import type { Command } from 'commander';
import { resolveDb, resolveRepo, UsageError } from '../repo.ts';
import { checkSocket, parseIdleExit, parsePort, parseThreads, type ListenFlags } from './serve.ts';

function parseSeconds(v: string): number {
  const n = Number(v);
  if (!(n > 0 && n <= 3600)) throw new UsageError(`--timeout must be a number of seconds in (0, 3600], got "${v}"`);
  return n;
}

/** `allot start` and `allot stop`: the daemon in the background. */
export function registerStartStop(program: Command): void {
  program
    .command('start [repo]')
    .description('start the daemon in the background (logs to <repo>/.allot/daemon.log); finds a running one instead of starting twice')
    .option('--socket <path>', 'listen on this Unix socket instead of a loopback TCP port (at most 107 bytes)')
    .option('--port <n>', 'loopback TCP port (default: a free one)', parsePort)
    .option('--query-threads <n>', 'threads answering queries (default: one per core, 2 to 4)', parseThreads)
    .option('--idle-exit <minutes>', 'stop once no request has arrived for this many minutes', parseIdleExit)
    .option('--json', 'print the daemon status as JSON')
    .action(async (repoArg: string | undefined, flags: ListenFlags & { json?: boolean }, cmd: Command) => {
      const global = cmd.optsWithGlobals() as { repo?: string; db?: string };
      const repo = resolveRepo(repoArg ?? global.repo);
      await checkSocket(flags.socket);
      const [{ describeAddress }, { startDaemonProcess }] = await Promise.all([import('../../../daemon/config.ts'), import('../../lib/daemon-process.ts')]);
      const { info, status, started } = await startDaemonProcess(repo, { db: resolveDb(repo, global.db), socket: flags.socket, port: flags.port, queryThreads: flags.queryThreads, idleExitMinutes: flags.idleExit });
      if (flags.json) {
        process.stdout.write(JSON.stringify({ started, ...status }, null, 2) + '\n');
        return;
      }
      const indexing = status.indexing.catchingUp ? `; indexing in the background (see \`allot status\`)` : '';
      process.stdout.write(`${started ? 'started' : 'already running:'} allot daemon for ${repo} (pid ${info.pid}, ${describeAddress(info)})${indexing}\n`);
    });

  program
    .command('stop [repo]')
    .description("stop the repository's daemon (it finishes the current transaction and closes the index)")
    .option('--timeout <seconds>', 'how long to wait for the daemon to prove itself and to stop', parseSeconds, 30)
    .action(async (repoArg: string | undefined, flags: { timeout: number }, cmd: Command) => {
      const global = cmd.optsWithGlobals() as { repo?: string };
      const repo = resolveRepo(repoArg ?? global.repo);
      const { stopDaemonProcess } = await import('../../lib/daemon-process.ts');
      const r = await stopDaemonProcess(repo, { timeoutMs: flags.timeout * 1000 });
      if (!r) process.stdout.write(`no allot daemon running for ${repo}\n`);
      else if (r.was === 'stale') process.stdout.write(`no allot daemon running for ${repo} (removed the stale pid file of pid ${r.pid})\n`);
      else process.stdout.write(`stopped allot daemon for ${repo} (pid ${r.pid})\n`);
    });
}
