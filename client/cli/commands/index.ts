import type { Command } from 'commander';
import { EMBED_CHOICES, ModelError, type EmbedChoice } from '../../../indexer/embed/types.ts';
import type { IndexSummary } from '../../../indexer/types.ts';
import { plainTextLine } from '../plain-text.ts';
import { resolveDb, resolveRepo, UsageError } from '../repo.ts';
import { cacheLine } from './status.ts';

/** The summary printed after `allot index`. */
export function formatSummary(s: IndexSummary, repo: string): string {
  const lines: string[] = [];
  const langs = Object.entries(s.filesByLanguage).map(([l, n]) => `${l} ${n}`).join(', ');
  lines.push(`indexed ${repo} in ${s.seconds.toFixed(2)} s`);
  lines.push(`  files       ${s.files} (${langs || 'none'}); parsed ${s.parsed}, restored ${s.restored}, unchanged ${s.unchanged}, removed ${s.removed}`);
  lines.push(`  plain text  ${plainTextLine(s.textByExtension)}`);
  lines.push(`  objects     ${s.objects}`);
  lines.push(`  views       ${s.views}`);
  lines.push(`  references  ${s.references} (${s.resolvedReferences} resolved)`);
  lines.push(`  cache       ${cacheLine(s.cache)}`);
  const skipped = Object.entries(s.skipped).map(([r, n]) => `${r} ${n}`).join(', ');
  lines.push(`  skipped     ${skipped || 'none'}${s.skippedPaths.length ? ' (paths: --json)' : ''}`);
  const limited = Object.entries(s.limited ?? {}).map(([r, n]) => `${r} ${n}`).join(', ');
  if (limited) lines.push(`  limited     ${limited} (paths: --json)`);
  if (s.problems.length) {
    lines.push(`  problems    ${s.problems.length}:`);
    for (const p of s.problems.slice(0, 20)) lines.push(`    ${p.path}: ${p.message}`);
    if (s.problems.length > 20) lines.push(`    ... ${s.problems.length - 20} more (see --json)`);
  }
  return lines.join('\n');
}

/** The embedding pass after indexing, with progress on stderr. */
async function embed(dbFile: string, choice: EmbedChoice, opts: { model?: string; retrain?: boolean }, shouldStop: () => boolean) {
  const [{ closeStore, openStore }, { runEmbedding }] = await Promise.all([import('../../../indexer/store/open.ts'), import('../../../indexer/embed/run.ts')]);
  const db = openStore(dbFile);
  let last = 0;
  const started = performance.now();
  let finished = false;
  try {
    const summary = await runEmbedding(db, choice, {
      modelDir: opts.model,
      retrain: opts.retrain,
      shouldStop,
      onTraining: (phase, s) => process.stderr.write(phase === 'start' ? 'allot: training the repository embedder\n' : `allot: trained in ${s.toFixed(1)} s\n`),
      onProgress: (p) => {
        const now = performance.now();
        if (p.phase !== 'embed' || (now - last < 2000 && p.done !== p.total)) return;
        last = now;
        const rate = p.done / Math.max(0.001, (now - started) / 1000);
        process.stderr.write(`allot: embedded ${p.done}/${p.total} objects (${rate.toFixed(0)}/s)\n`);
      },
    });
    finished = true;
    return summary;
  } catch (err) {
    if (err instanceof ModelError) throw new UsageError(err.message);
    throw err;
  } finally {
    closeStore(db, { clean: finished });
  }
}

interface IndexFlags { workers?: number; maxFileBytes: number; cacheMb?: number; json?: boolean; embed?: string; model?: string; retrain?: boolean; check?: boolean; rebuild?: boolean }

/** `allot index --check`: the full integrity check, read-only. */
async function checkIndex(dbFile: string, json?: boolean): Promise<void> {
  const [{ checkIntegrity, checkWholeStore, openStore }, { storeCounts }] = await Promise.all([import('../../../indexer/store/open.ts'), import('../../../indexer/store/read.ts')]);
  const db = openStore(dbFile, { readonly: true });
  // CPU seconds of each check: what every writable open pays (quick) and what --check adds (full)
  const cpu = (fn: () => void) => {
    const t0 = process.cpuUsage();
    fn();
    const t = process.cpuUsage(t0);
    return (t.user + t.system) / 1e6;
  };
  try {
    const quickSeconds = cpu(() => checkIntegrity(db, dbFile));
    const fullSeconds = cpu(() => checkWholeStore(db, dbFile));
    const counts = storeCounts(db);
    process.stdout.write(json
      ? JSON.stringify({ db: dbFile, ok: true, quickCheckCpuSeconds: quickSeconds, integrityCheckCpuSeconds: fullSeconds, files: counts.files, objects: counts.objects }) + '\n'
      : `the index ${dbFile} is sound (quick check ${quickSeconds.toFixed(2)} CPU-s, integrity and foreign keys ${fullSeconds.toFixed(2)} CPU-s; ${counts.files} files, ${counts.objects} objects)\n`);
  } finally {
    db.close();
  }
}

/** `allot index --rebuild`: the old index moves aside (renamed, never deleted; links refused) unless a daemon has it open. */
async function moveAside(repo: string, dbFile: string): Promise<void> {
  const [{ findDaemon }, { moveDatabaseAside }] = await Promise.all([import('../../lib/daemon-process.ts'), import('../../../indexer/store/own-files.ts')]);
  const found = await findDaemon(repo);
  if (found.state === 'running' && found.info.db === dbFile) {
    throw new UsageError(`the daemon (pid ${found.info.pid}) has ${dbFile} open: \`allot stop\` first, then \`allot index --rebuild\``);
  }
  if (found.state === 'starting') throw new UsageError(`a daemon (pid ${found.pid}) is starting for ${repo}: \`allot stop\` first, then \`allot index --rebuild\``);
  const aside = moveDatabaseAside(dbFile);
  if (aside) process.stderr.write(`allot: moved the old index aside to ${aside} (delete it once you no longer need it)\n`);
}

export function registerIndex(program: Command): void {
  program
    .command('index [repo]')
    .description('build or update the index of a repository (only changed files are re-parsed)')
    .option('--workers <n>', 'parser threads (0 = in-process)', (v) => Number.parseInt(v, 10))
    .option('--max-file-bytes <n>', 'skip files larger than this', (v) => Number.parseInt(v, 10), 1024 * 1024)
    .option('--cache-mb <n>', 'bound of the extraction cache in MB, kept in the index for later runs and the daemon (default 256; 0 turns it off)', Number)
    .option('--json', 'print the summary as JSON')
    .option('--embed <embedder>', `then embed objects for dense retrieval: ${EMBED_CHOICES.join(', ')} (repo: a model trained on this repository; model: a transformers.js model folder; none: drop vectors)`)
    .option('--model <dir>', 'with --embed model: the model folder (default: ALLOT_MODEL_DIR, else `allot model fetch`\'s)')
    .option('--retrain', 'with --embed repo: train the repository model anew instead of reusing the one the index keeps')
    .option('--check', 'check the whole index (integrity and foreign keys) without changing it: exit 0 when sound, 2 with what is damaged')
    .option('--rebuild', 'start over: move the index and its -wal/-shm aside (<db>.bad-<time>), then index anew')
    .action(async (repoArg: string | undefined, opts: IndexFlags, cmd: Command) => {
      const global = cmd.optsWithGlobals() as { repo?: string; db?: string };
      const repo = resolveRepo(repoArg ?? global.repo);
      if (opts.check && opts.rebuild) throw new UsageError('--check and --rebuild do not go together');
      if (opts.check) return checkIndex(resolveDb(repo, global.db), opts.json);
      if (opts.rebuild) await moveAside(repo, resolveDb(repo, global.db));
      if (opts.workers !== undefined && !(opts.workers >= 0)) throw new UsageError('--workers must be a number >= 0');
      if (!(opts.maxFileBytes > 0)) throw new UsageError('--max-file-bytes must be a positive number');
      if (opts.cacheMb !== undefined && !(opts.cacheMb >= 0 && opts.cacheMb <= 1 << 20)) throw new UsageError('--cache-mb must be a number of MB from 0 to 1048576');
      if (opts.embed !== undefined && !(EMBED_CHOICES as readonly string[]).includes(opts.embed)) {
        throw new UsageError(`--embed must be one of ${EMBED_CHOICES.join(', ')}, got "${opts.embed}"`);
      }
      const [{ indexRepository }, { storeFault }, { progressReporter }] = await Promise.all([
        import('../../../indexer/index-repository.ts'), import('../../../indexer/store/open.ts'), import('../progress.ts'),
      ]);
      const progress = progressReporter();
      let stopRequested = false;
      const onSigint = () => {
        if (stopRequested) process.exit(130);
        stopRequested = true;
        process.stderr.write('\nallot: stopping after the current batch (Ctrl-C again to quit now)\n');
      };
      process.on('SIGINT', onSigint);
      const dbFile = resolveDb(repo, global.db);
      try {
        const summary = await indexRepository({
          repo,
          db: dbFile,
          workers: opts.workers,
          maxFileBytes: opts.maxFileBytes,
          cacheMaxBytes: opts.cacheMb === undefined ? undefined : Math.round(opts.cacheMb * 2 ** 20),
          onProgress: (p) => progress.update(p),
          shouldStop: () => stopRequested,
        });
        progress.stop();
        const embedding = opts.embed && !stopRequested ? await embed(resolveDb(repo, global.db), opts.embed as EmbedChoice, opts, () => stopRequested) : null;
        process.stdout.write(opts.json ? JSON.stringify(embedding ? { ...summary, embedding } : summary, null, 2) + '\n' : formatSummary(summary, repo) + '\n');
        if (embedding && !opts.json) {
          process.stdout.write(`  embedding   ${embedding.model}: ${embedding.embedded} embedded, ${embedding.cached} cached, ${embedding.pruned} pruned in ${embedding.seconds.toFixed(2)} s\n`);
        }
      } catch (err) {
        // A full disk, a read-only or damaged index met half-way through: the index's words, not SQLite's.
        throw storeFault(dbFile, err) ?? err;
      } finally {
        progress.stop();
        process.off('SIGINT', onSigint);
      }
    });
}
