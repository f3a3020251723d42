import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { openStore } from '../../../indexer/store/open.ts';
import { TOKENIZER_NAMES, type TokenizerName } from '../../../indexer/tokenizer.ts';
import { DEFAULT_MAX_TASKS, DEFAULT_SEED, GOLD_CONVENTIONS, generateCrossfileTasks, type GoldConvention } from '../../eval/generate-crossfile.ts';
import { METHODS, pickMethods, STOP_METHODS } from '../../eval/methods.ts';
import { progressBar } from '../../eval/progress.ts';
import { DEFAULT_INDEX_DIR, ensureIndexed, evalDbPath } from '../../eval/repo-index.ts';
import { DEFAULT_BUDGETS, runCrossfile, type RunOutcome } from '../../eval/run-crossfile.ts';
import { DEFAULT_ISSUE_BUDGETS, DEFAULT_WORKTREES, runIssues } from '../../eval/run-issues.ts';
import { DEFAULT_PROSE_BUDGETS, DEFAULT_PROSE_METHODS, PROSE_FORMS, runProse, type ProseForm } from '../../eval/run-prose.ts';
import type { RunOptions } from '../../eval/run-start.ts';
import { SELECTOR_BASELINES, SELECTORS } from '../../eval/selectors.ts';
import { writeJsonl } from '../../eval/tasks.ts';
import { UsageError } from '../repo.ts';

const int = (name: string, min: number) => (v: string): number => {
  if (!/^\s*\d+\s*$/.test(v) || Number(v) < min) throw new UsageError(`${name} must be an integer >= ${min}, got "${v}"`);
  return Number(v);
};

function budgetsOf(spec: string): number[] {
  const out = spec.split(',').map((s) => s.trim()).filter(Boolean).map((s) => {
    const m = /^(\d+)([kK]?)$/.exec(s);
    if (!m || Number(m[1]) <= 0) throw new UsageError(`--budgets takes positive token counts like 1024,2048 or 1K,2K; got "${s}"`);
    return Number(m[1]) * (m[2] ? 1024 : 1);
  });
  if (!out.length) throw new UsageError('--budgets names no budget');
  return [...new Set(out)];
}

function goldOf(name: string): GoldConvention {
  if (!(GOLD_CONVENTIONS as readonly string[]).includes(name)) throw new UsageError(`unknown gold convention "${name}" (known: ${GOLD_CONVENTIONS.join(', ')})`);
  return name as GoldConvention;
}

function tokenizerOf(name: string): TokenizerName {
  if (!(TOKENIZER_NAMES as readonly string[]).includes(name)) throw new UsageError(`unknown tokenizer "${name}" (known: ${TOKENIZER_NAMES.join(', ')})`);
  return name as TokenizerName;
}

/** Runtime errors of a run (bad task file, missing repository) are the user's to fix: one line, exit 2. */
async function asUsage<T>(f: () => Promise<T> | T): Promise<T> {
  try {
    return await f();
  } catch (err) {
    if (err instanceof UsageError) throw err;
    const e = err as Error;
    if (e.name === 'StoreError' || e.name === 'IndexInterrupted') throw err;
    if (/^(cannot read|repository folder|commit |git archive|task |method |unknown method|--methods|.*\.jsonl?:\d+)/.test(e.message)) throw new UsageError(e.message);
    throw err;
  }
}

/** Ctrl-C: finish the current task, write the report of what is done, exit 130. */
function stopOnSigint(): { shouldStop: () => boolean; release: () => void } {
  let stop = false;
  const on = () => {
    if (stop) process.exit(130);
    stop = true;
    process.stderr.write('\nallot: stopping after the current task (Ctrl-C again to quit now); --resume continues\n');
  };
  process.on('SIGINT', on);
  return { shouldStop: () => stop, release: () => process.off('SIGINT', on) };
}

/** Runs an evaluation with the options every run shares; Ctrl-C stops it after the current task. */
async function runEval<T>(
  tasksFile: string,
  flags: { out: string; limit?: number; resume?: boolean; tokenizer: string; workers?: number },
  run: (common: RunOptions) => Promise<T>,
): Promise<T> {
  const tokenizer = tokenizerOf(flags.tokenizer);
  const stop = stopOnSigint();
  try {
    return await asUsage(() => run({
      tasksFile, out: path.resolve(flags.out), limit: flags.limit, resume: !!flags.resume, tokenizer, workers: flags.workers,
      progress: progressBar(), command: `allot eval ${process.argv.slice(process.argv.indexOf('eval') + 1).join(' ')}`, shouldStop: stop.shouldStop,
    }));
  } finally {
    stop.release();
  }
}

/** Where the SWE-bench-setting runs find mirrors and keep trees and indexes. */
function treesOf(flags: { mirrors: string; worktrees?: string; indexDir?: string }): { mirrors: string; worktrees: string; indexDir: string } {
  return { mirrors: mirrorsOf(flags.mirrors), worktrees: path.resolve(flags.worktrees ?? DEFAULT_WORKTREES), indexDir: path.resolve(flags.indexDir ?? DEFAULT_INDEX_DIR) };
}

function finish(outcome: RunOutcome, json: boolean | undefined, parts?: { label: string; written: RunOutcome['written'] }[], results?: string): void {
  const { summary, written } = outcome;
  if (json) process.stdout.write(JSON.stringify(summary, null, 2) + '\n');
  else {
    process.stdout.write(`${summary.tasks} tasks, ${outcome.computed} new rows\n`);
    process.stdout.write(`  results  ${results ?? path.join(path.dirname(written.summary), 'results.jsonl')}\n`);
    for (const { label, written: w } of parts ?? [{ label: '', written }]) {
      const tag = label ? ` (${label})` : '';
      process.stdout.write(`  summary  ${w.summary}${tag}\n  report   ${w.report}${tag}\n`);
      if (w.svg) process.stdout.write(`  chart    ${w.svg}${w.png ? `, ${w.png}` : ' (no PNG: no SVG renderer found)'}${tag}\n`);
    }
  }
  if (outcome.stopped) {
    process.stderr.write('allot: evaluation interrupted; run the same command with --resume to finish\n');
    process.exitCode = 130;
  }
}

interface IndexFlags {
  indexDir?: string;
  indexInRepo?: boolean;
  workers?: number;
}

const indexPlace = (f: IndexFlags) => ({ indexDir: f.indexInRepo ? ('repo' as const) : path.resolve(f.indexDir ?? DEFAULT_INDEX_DIR) });

/** The options of the SWE-bench-setting runs (`issues`, `prose`): where the mirrors are, the trees, the indexes. */
function withIssueTrees(cmd: Command): Command {
  return cmd
    .requiredOption('--mirrors <dir>', 'folder of git directories, <dir>/<owner>+<name>/repo (as the search tool\'s fetch leaves them)')
    .option('--worktrees <dir>', `one work tree per repository is kept here (default ${DEFAULT_WORKTREES})`)
    .option('--limit <n>', 'only the first N issues (a quick run)', int('--limit', 1))
    .option('--resume', 'keep results.jsonl and skip what it already has')
    .option('--tokenizer <name>', 'cl100k_base or o200k_base', 'cl100k_base')
    .option('--index-dir <dir>', `where evaluation indexes live (default ${DEFAULT_INDEX_DIR})`)
    .option('--workers <n>', 'parser threads', int('--workers', 0));
}

/** The mirrors folder, checked. */
function mirrorsOf(dir: string): string {
  const mirrors = path.resolve(dir);
  if (!fs.existsSync(mirrors) || !fs.statSync(mirrors).isDirectory()) throw new UsageError(`not a directory: ${dir}`);
  return mirrors;
}

/** The subcommands of `allot eval` (`evalCmd`), which the command line registers only to run one. */
export function registerEval(evalCmd: Command): void {

  evalCmd
    .command('gen-crossfile <repo>')
    .description('build cross-file tasks from a repository: positions whose next line first uses a name imported from another file')
    .requiredOption('--out <file>', 'task file to write (JSON lines)')
    .option('--max <n>', 'at most this many tasks (a seeded uniform sample)', int('--max', 1), DEFAULT_MAX_TASKS)
    .option('--seed <n>', 'sampling seed', int('--seed', 0), DEFAULT_SEED)
    .option('--root <dir>', 'tasks name the repository relative to this folder', '.')
    .option('--gold <convention>', `what the gold evidence is: ${GOLD_CONVENTIONS.join('|')} (head: first 15 lines of the imported definition; whole: the whole definition, 16-60 lines; member: first 15 lines of the member the next line calls through a receiver; member-signature: that member's signature)`, goldOf, 'head' as GoldConvention)
    .option('--index-dir <dir>', `where evaluation indexes live (default ${DEFAULT_INDEX_DIR})`)
    .option('--index-in-repo', 'use <repo>/.allot/index.db')
    .option('--workers <n>', 'parser threads', int('--workers', 0))
    .action(async (repoArg: string, flags: IndexFlags & { out: string; max: number; seed: number; root: string; gold: GoldConvention }, cmd: Command) => {
      const global = cmd.optsWithGlobals() as { db?: string };
      const repo = path.resolve(repoArg);
      if (!fs.existsSync(repo) || !fs.statSync(repo).isDirectory()) throw new UsageError(`not a directory: ${repoArg}`);
      const rel = path.relative(path.resolve(flags.root), repo).split(path.sep).join('/');
      const dbFile = global.db ? path.resolve(global.db) : evalDbPath(repo, indexPlace(flags));
      const progress = progressBar();
      await ensureIndexed(repo, dbFile, progress, rel || path.basename(repo), flags.workers);
      const db = openStore(dbFile, { readonly: true });
      try {
        const tasks = generateCrossfileTasks(db, { repo: rel, max: flags.max, seed: flags.seed, gold: flags.gold });
        fs.mkdirSync(path.dirname(path.resolve(flags.out)), { recursive: true });
        writeJsonl(flags.out, tasks);
        const files = new Set(tasks.map((t) => t.path)).size;
        process.stdout.write(`${tasks.length} cross-file tasks (gold: ${flags.gold}) from ${files} files of ${rel || '.'} -> ${flags.out}\n`);
      } finally {
        db.close();
      }
    });

  evalCmd
    .command('crossfile <tasks>')
    .description('run cross-file tasks through every method at every budget: Recall@K, Recall@B, ΔRecall, tokens')
    .option('--root <dir>', 'folder the tasks\' repo fields are relative to', '.')
    .option('--out <dir>', 'results.jsonl, summary.json, report.md and the chart go here', 'allot-eval/crossfile')
    .option('--methods <list>', 'comma-separated methods (default: all that apply)')
    .option('--budgets <list>', 'token budgets', DEFAULT_BUDGETS.join(','))
    .option('--limit <n>', 'only the first N tasks (a quick run)', int('--limit', 1))
    .option('--resume', 'keep results.jsonl and skip what it already has')
    .option('--tokenizer <name>', 'cl100k_base or o200k_base', 'cl100k_base')
    .option('--index-dir <dir>', `where evaluation indexes live (default ${DEFAULT_INDEX_DIR})`)
    .option('--index-in-repo', 'use <repo>/.allot/index.db')
    .option('--workers <n>', 'parser threads', int('--workers', 0))
    .option('--json', 'print summary.json instead of the file list')
    .action(async (tasksFile: string, flags: IndexFlags & { root: string; out: string; methods?: string; budgets: string; limit?: number; resume?: boolean; tokenizer: string; json?: boolean }) => {
      const methods = await asUsage(() => pickMethods(flags.methods));
      const budgets = budgetsOf(flags.budgets);
      const outcome = await runEval(tasksFile, flags, (common) => runCrossfile({ ...common, root: path.resolve(flags.root), methods, budgets, ...indexPlace(flags) }));
      finish(outcome, flags.json);
    });

  withIssueTrees(evalCmd
    .command('issues <tasks>')
    .description('run issues (SWE-bench format) through the selectors and baselines at each base commit: gold files shown, line shares, tokens'))
    .option('--out <dir>', 'results.jsonl, summary.json, report.md and the chart go here', 'allot-eval/issues')
    .option('--methods <list>', `comma-separated selectors and baselines (default: all; selectors: ${SELECTORS.map((x) => x.name).join(', ') || 'none yet'})`)
    .option('--budgets <list>', 'fixed token budgets for the baselines', DEFAULT_ISSUE_BUDGETS.join(','))
    .option('--json', 'print summary.json instead of the file list')
    .action(async (tasksFile: string, flags: IndexFlags & { mirrors: string; worktrees?: string; out: string; methods?: string; budgets: string; limit?: number; resume?: boolean; tokenizer: string; json?: boolean }) => {
      const names = flags.methods?.split(',').map((x) => x.trim()).filter(Boolean);
      const selectors = SELECTORS.filter((x) => !names || names.includes(x.name));
      const rest = names?.filter((n) => !SELECTORS.some((x) => x.name === n));
      const methods = names && !rest!.length ? [] : await asUsage(() => pickMethods(rest?.join(','), [...METHODS, ...SELECTOR_BASELINES]));
      if (!selectors.length && !methods.length) throw new UsageError('--methods names no method');
      const budgets = budgetsOf(flags.budgets);
      const trees = treesOf(flags);
      const outcome = await runEval(tasksFile, flags, (common) => runIssues({ ...common, ...trees, selectors, methods, budgets }));
      finish(outcome, flags.json);
    });
  withIssueTrees(evalCmd
    .command('prose <tasks>')
    .description('issues (SWE-bench format, with the gold patch) as plain-word questions: the issue text and its title alone as the context query; edited lines shown, hunks, gold files, tokens'))
    .option('--out <dir>', 'results.jsonl, and per query form summary.json, report.md and the chart', 'allot-eval/prose')
    .option('--methods <list>', `comma-separated methods (default: ${DEFAULT_PROSE_METHODS.join(',')})`)
    .option('--budgets <list>', 'token budgets', DEFAULT_PROSE_BUDGETS.map((b) => `${b / 1024}K`).join(','))
    .option('--forms <list>', `query forms: ${PROSE_FORMS.join(', ')}`, PROSE_FORMS.join(','))
    .option('--json', 'print the first form\'s summary.json instead of the file list')
    .action(async (tasksFile: string, flags: IndexFlags & { mirrors: string; worktrees?: string; out: string; methods?: string; budgets: string; forms: string; limit?: number; resume?: boolean; tokenizer: string; json?: boolean }) => {
      const methods = await asUsage(() => pickMethods(flags.methods ?? DEFAULT_PROSE_METHODS.join(','), [...METHODS, ...STOP_METHODS]));
      const budgets = budgetsOf(flags.budgets);
      const forms = [...new Set(flags.forms.split(',').map((x) => x.trim()).filter(Boolean))];
      const bad = forms.find((f) => !(PROSE_FORMS as readonly string[]).includes(f));
      if (bad !== undefined || !forms.length) throw new UsageError(`--forms takes ${PROSE_FORMS.join(', ')}; got "${bad ?? flags.forms}"`);
      const trees = treesOf(flags);
      const outcome = await runEval(tasksFile, flags, (common) => runProse({ ...common, ...trees, methods, budgets, forms: forms as ProseForm[] }));
      finish(outcome, flags.json, outcome.forms.map((f) => ({ label: f.form, written: f.written })), path.join(path.resolve(flags.out), 'results.jsonl'));
    });
}
