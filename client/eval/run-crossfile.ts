/**
 * `allot eval crossfile`: every task of a cross-file task file through every
 * method at every budget. Each repository is indexed once (incrementally when
 * its index exists); rows go to `results.jsonl` as tasks finish, then the
 * summary, chart and report are written from all rows of the run's tasks.
 */
import fs from 'node:fs';
import path from 'node:path';
import { openStore } from '../../indexer/store/open.ts';
import type { TokenizerName } from '../../indexer/tokenizer.ts';
import { linesOf, recallAtK, verbatimLines } from './metrics.ts';
import { methodEnv, timed, type Method } from './methods.ts';
import { writeOutputs, type Written } from './outputs.ts';
import type { Progress } from './progress.ts';
import { ensureEmbedded, ensureIndexed, evalDbPath, type IndexPlace } from './repo-index.ts';
import { readResults, type ResultRow } from './results.ts';
import { startRun, type RunOptions } from './run-start.ts';
import { CROSSFILE_METRICS, summarize, type Summary } from './summary.ts';
import { readCrossfileTasks, type CrossfileTask } from './tasks.ts';

export const DEFAULT_BUDGETS = [1024, 2048, 4096, 8192];

export interface CrossfileRunOptions extends IndexPlace, RunOptions {
  root: string;
  methods: Method[];
  budgets: number[];
}

export interface RunOutcome {
  summary: Summary;
  written: Written;
  stopped: boolean;
  /** Rows computed by this run (not resumed ones). */
  computed: number;
}

export const CROSSFILE_DEFINITIONS = [
  'Task (RepoBench setting): a position whose next line uses, for the first time, a name the file imports from another file of the same repository. Query: the file\'s imports and up to 30 lines before the position. Gold: the imported definition\'s header and up to its first 15 lines.',
  'Recall@K: the gold object is among the allocated objects (a block in the gold file whose allocated span, an object, chunk or file, overlaps the gold span; a descriptor-only block counts).',
  'Recall@B: every non-blank gold line appears verbatim among the lines of the rendered context (trailing whitespace and CR stripped); the query itself is not part of the context.',
  'ΔRecall = Recall@K − Recall@B, in percentage points: what rendering within the budget lost.',
  'retrieved: the gold object is among what retrieval handed to the budget step (the objects of the retrieved views: 50, or one per 64 budget tokens when that is more; the ranked chunks; the 64 ranked files): the ceiling of Recall@K.',
  'tokens: the rendered context\'s exact token count (cl100k_base); latency: retrieval plus allocation and rendering for that budget, in-process, warm index.',
  'No leak from the task\'s own file: no object of that file is retrieved and no view whose text lies in it at or after the position; its import lines (part of the query) may still lead to the objects they import. The chunk and file baselines skip the file altogether.',
];

export async function runCrossfile(o: CrossfileRunOptions): Promise<RunOutcome> {
  const { tasks, resultsFile, writer, tokenizer } = await startRun(o, readCrossfileTasks);
  const byRepo = new Map<string, CrossfileTask[]>();
  for (const t of tasks) {
    const list = byRepo.get(t.repo);
    if (list) list.push(t);
    else byRepo.set(t.repo, [t]);
  }
  const needs = (t: CrossfileTask) => o.methods.some((m) => o.budgets.some((b) => !writer.has(t.id, m.name, b)));
  const total = tasks.length;
  let done = tasks.filter((t) => !needs(t)).length;
  let computed = 0;
  let stopped = false;

  for (const [repo, repoTasks] of byRepo) {
    if (!repoTasks.some(needs)) continue;
    if (o.shouldStop?.()) { stopped = true; break; }
    const dir = path.resolve(o.root, repo);
    if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new Error(`repository folder not found: ${dir} (task repo ${JSON.stringify(repo)} under --root ${o.root})`);
    const dbFile = evalDbPath(dir, o);
    o.progress.log(`indexing ${repo || dir} -> ${dbFile}`);
    await ensureIndexed(dir, dbFile, o.progress, repo || path.basename(dir), o.workers);
    const db = openStore(dbFile);
    try {
      const embedder = o.methods.some((m) => m.dense) ? await ensureEmbedded(db, o.progress, repo || path.basename(dir)) : null;
      const env = methodEnv(db, tokenizer, null, embedder);
      const texts = new Map<string, string>();
      const goldLines = (t: CrossfileTask) => {
        let text = texts.get(t.gold.path);
        if (text === undefined) {
          const file = path.join(dir, t.gold.path);
          if (!fs.existsSync(file)) throw new Error(`task ${t.id}: gold file ${t.gold.path} not found in ${dir}`);
          text = fs.readFileSync(file, 'utf8');
          texts.set(t.gold.path, text);
        }
        return linesOf(text, t.gold.startLine, t.gold.endLine);
      };
      o.progress.start('crossfile tasks', total, done);
      for (const t of repoTasks) {
        if (!needs(t)) continue;
        if (o.shouldStop?.()) { stopped = true; break; }
        const gold = goldLines(t);
        const rows: ResultRow[] = [];
        const exclusion = { path: t.path, line: t.line };
        for (const m of o.methods) {
          const budgets = o.budgets.filter((b) => !writer.has(t.id, m.name, b));
          if (!budgets.length) continue;
          const prepared = timed(env, m, t.query, exclusion);
          for (const budget of budgets) {
            const { ctx, ms: latencyMs } = prepared.render(budget);
            const retrievedGold = recallAtK(prepared.retrieved(budget), t.gold);
            const k = recallAtK(ctx.blocks.map((b) => ({ path: b.path, ...(b.unit ?? b) })), t.gold);
            const v = verbatimLines(gold, ctx.text);
            rows.push({
              kind: 'crossfile', task: t.id, repo: t.repo, method: m.name, budget,
              recallAtK: k, recallAtB: v.all, deltaRecall: (k ? 1 : 0) - (v.all ? 1 : 0), retrievedGold,
              goldLinesFound: v.found, goldLinesRequired: v.required, blocks: ctx.blocks.length,
              tokens: ctx.totalTokens, latencyMs: Math.round(latencyMs * 100) / 100,
            });
          }
        }
        writer.append(rows);
        computed += rows.length;
        o.progress.update(++done, t.id);
      }
      o.progress.stop();
    } finally {
      db.close();
    }
    if (stopped) break;
  }

  const methodNames = o.methods.map((m) => m.name);
  const summary = summarize({
    kind: 'crossfile',
    taskIds: tasks.map((t) => t.id),
    rows: readResults(resultsFile),
    cells: methodNames.flatMap((method) => o.budgets.map((budget) => ({ method, budget }))),
    metrics: CROSSFILE_METRICS,
    reference: methodNames.includes('allocation') ? 'allocation' : methodNames[0],
  });
  const written = writeOutputs(o.out, summary, {
    title: 'allot eval: cross-file context (RepoBench setting)',
    command: o.command,
    definitions: CROSSFILE_DEFINITIONS,
    methods: Object.fromEntries(o.methods.map((m) => [m.name, m.description])),
  }, 'Recall@B by token budget (cross-file tasks)');
  return { summary, written, stopped, computed };
}
