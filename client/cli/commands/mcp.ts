import path from 'node:path';
import { BIN } from '../../../daemon/package.ts';
import type { Command } from 'commander';
import { hostConfig, MCP_HOSTS, type McpHost } from '../../mcp/host-config.ts';
import { resolveDb, resolveRepo, UsageError } from '../repo.ts';
import { DEFAULT_INDEX_WAIT_MS, MAX_INDEX_WAIT_S } from '../../mcp/index-wait.ts';
import { parseIdleExit } from './serve.ts';

function parseIndexWait(v: string): number {
  const n = Number(v);
  if (!/^\s*\d+(\.\d+)?\s*$/.test(v) || n > MAX_INDEX_WAIT_S) throw new UsageError(`--index-wait must be a number of seconds from 0 to ${MAX_INDEX_WAIT_S}, got "${v}"`);
  return n;
}

/** `allot mcp`: the MCP server on stdio, or the configuration snippet for a host. */
export function registerMcp(program: Command): void {
  program
    .command('mcp [repo]')
    .description('run an MCP server on stdin/stdout for coding agents (attaches to the repository\'s daemon, starting it if needed)')
    .option('--print-config <host>', `print the configuration for an MCP host: ${MCP_HOSTS.join(', ')}`)
    .option('--no-daemon', 'answer in-process: never start or use a daemon (the index is brought up to date once, in the background)')
    .option('--idle-exit <minutes>', 'a daemon this server starts stops after this many minutes without a request', parseIdleExit)
    .option('--index-wait <seconds>', `while the first index is built, how long a tool call waits for it before answering from what is indexed (0-${MAX_INDEX_WAIT_S}, default ${DEFAULT_INDEX_WAIT_MS / 1000})`, parseIndexWait)
    .action(async (repoArg: string | undefined, flags: { printConfig?: string; daemon: boolean; idleExit?: number; indexWait?: number }, cmd: Command) => {
      const global = cmd.optsWithGlobals() as { repo?: string; db?: string };
      const repo = resolveRepo(repoArg ?? global.repo);
      if (flags.printConfig !== undefined) {
        const host = flags.printConfig.toLowerCase();
        if (!(MCP_HOSTS as readonly string[]).includes(host)) throw new UsageError(`unknown MCP host "${flags.printConfig}" (known: ${MCP_HOSTS.join(', ')})`);
        const args = [BIN, ...(global.db ? ['--db', path.resolve(global.db)] : []), 'mcp', repo];
        const c = hostConfig(host as McpHost, { command: process.execPath, args });
        process.stdout.write(`${c.snippet}\n`);
        process.stderr.write(`allot: put this in ${c.where}${c.oneLiner ? `, or run:\n  ${c.oneLiner}` : ''}\n`);
        return;
      }
      // stdout is the protocol: everything a person may read goes to stderr.
      const [{ escapeControl }, { openBackend }, { serveStdio }] = await Promise.all([
        import('../../../daemon/config.ts'), import('../../mcp/backend.ts'), import('../../mcp/server.ts'),
      ]);
      // (escaped: lines may quote what the host sent)
      const log = (line: string) => process.stderr.write(`allot mcp: ${escapeControl(line)}\n`);
      const backend = await openBackend(repo, resolveDb(repo, global.db), log, { noDaemon: !flags.daemon, idleExitMinutes: flags.idleExit });
      await serveStdio(backend, log, { indexWaitMs: flags.indexWait === undefined ? undefined : flags.indexWait * 1000 });
      process.exit(0);
    });
}
