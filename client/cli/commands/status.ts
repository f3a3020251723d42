import type { Command } from 'commander';
import type { DaemonStatus } from '../../../daemon/types.ts';
import { plainTextLine } from '../plain-text.ts';
import { resolveRepo } from '../repo.ts';

function duration(seconds: number): string {
  const s = Math.floor(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
}

function denseLine(d: DaemonStatus['dense']): string {
  if (d.state === 'off') return `off: ${d.reason}`;
  const counts = `${d.embedded}/${d.objects} objects embedded`;
  if (d.state === 'failed') return `failed (${d.reason}); ${counts} with ${d.model}`;
  return `${d.state}: ${d.model}, ${counts}${d.rate ? ` (${d.rate.toFixed(0)}/s)` : ''}`;
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

/** The extraction cache in one line: `1204 extraction(s), 9.8 MB of 256.0 MB`, or off. */
export function cacheLine(c: { entries: number; bytes: number; maxBytes: number }): string {
  return c.maxBytes > 0 ? `${c.entries} extraction(s), ${mb(c.bytes)} of ${mb(c.maxBytes)}` : 'off (--cache-mb 0)';
}

/** `allot status` for a person. */
export function formatStatus(s: DaemonStatus, address: string): string {
  const i = s.index;
  const langs = Object.entries(i.filesByLanguage).map(([l, n]) => `${l} ${n}`).join(', ');
  const ix = s.indexing;
  const progress = ix.progress ? `: ${ix.progress.phase}${ix.progress.total ? ` ${ix.progress.done}/${ix.progress.total} files` : ''}` : '';
  const last = ix.lastBatch
    ? `; last batch ${ix.lastBatch.full ? 'full run' : `${ix.lastBatch.paths} path(s)`}, ${ix.lastBatch.parsed} parsed, ${ix.lastBatch.restored ?? 0} restored, ${ix.lastBatch.removed} removed, ${ix.lastBatch.seconds.toFixed(2)} s${ix.lastBatch.error ? ` (failed: ${ix.lastBatch.error})` : ''}`
    : '';
  const q = s.queries;
  return [
    `allot daemon ${s.version} for ${s.repo}`,
    `  pid         ${s.pid}, up ${duration(s.uptimeSeconds)}, on ${address}`,
    `  index       ${i.files} files (${langs || 'none'}), ${i.objects} objects, ${i.views} views, ${i.references} references (${i.resolvedReferences} resolved)`,
    `  plain text  ${plainTextLine(i.textByExtension)}`,
    `  complete    ${ix.complete === false ? `no: the first full build is running${ix.build?.total ? ` (${ix.build.done}/${ix.build.total} files)` : ''}; answers cover only the files indexed so far` : 'yes'}`,
    `  indexing    ${ix.state}${progress}${ix.catchingUp ? ' (still catching up: results may be incomplete)' : ''}; ${ix.batches} batch(es)${last}`,
    `  cache       ${s.cache ? cacheLine(s.cache) : 'unknown'}`,
    `  pending     ${s.pending.paths} path(s)${s.pending.full ? ' + a full run' : ''}`,
    `  watcher     ${s.watcher.state}${s.watcher.error ? ` (${s.watcher.error})` : ''}, ${s.watcher.events} change event(s)`,
    `  queries     ${q.served} served (search ${q.search}, context ${q.context}, objects ${q.objects}, files ${q.files}), ${q.errors} error(s)`,
    `  dense       ${denseLine(s.dense)}`,
    `  health      ${s.health?.state === 'failed' ? `FAILED: ${s.health.reason}` : 'ok'}`,
    `  last error  ${s.lastError ? `${s.lastError.message} (${s.lastError.at})` : 'none'}`,
    ...(s.idleExit ? [`  idle exit   after ${s.idleExit.minutes} minute(s) without a request (at ${s.idleExit.exitsAt} if none comes)`] : []),
  ].join('\n');
}

export function registerStatus(program: Command): void {
  program
    .command('status [repo]')
    .description("the repository's daemon: pid, uptime, index state, pending work, queries served (exit 1 when none runs)")
    .option('--json', 'print GET /v1/status as JSON')
    .action(async (repoArg: string | undefined, flags: { json?: boolean }, cmd: Command) => {
      const global = cmd.optsWithGlobals() as { repo?: string };
      const repo = resolveRepo(repoArg ?? global.repo);
      const [{ describeAddress }, { findDaemon }] = await Promise.all([import('../../../daemon/config.ts'), import('../../lib/daemon-process.ts')]);
      const found = await findDaemon(repo);
      if (found.state === 'running') {
        process.stdout.write((flags.json ? JSON.stringify(found.status, null, 2) : formatStatus(found.status, describeAddress(found.info))) + '\n');
        return;
      }
      const why =
        found.state === 'starting' ? `pid ${found.pid} holds the lock but does not answer (starting, or hung)` :
        found.state === 'stale' ? `not running (stale pid file of pid ${found.pid}; \`allot start\` or \`allot stop\` cleans it up)` : 'not running';
      if (flags.json) process.stdout.write(JSON.stringify({ running: false, state: found.state, repo }, null, 2) + '\n');
      else process.stdout.write(`allot daemon for ${repo}: ${why}\n`);
      process.exitCode = 1;
    });
}
