/**
 * `allot eval issues`: the SWE-bench setting used by CQ2-CARE. For each issue,
 * the repository's work tree is moved to the issue's base commit (tasks in
 * file order, one tree per repository), the index follows incrementally, and
 * the selectors and baselines build contexts from the issue text. Metrics:
 * gold files shown whole, all/none of them, the share of context lines in gold
 * files and verbatim from the repository, tokens; baselines also at each
 * issue's selector budget.
 */
import os from 'node:os';
import path from 'node:path';
import { issueMetrics, type ContextBlock } from './metrics.ts';
import { methodEnv, timed, type EvalContext, type Method } from './methods.ts';
import { writeOutputs } from './outputs.ts';
import { forEachIssueTree } from './issue-trees.ts';
import { ensureEmbedded, type IndexPlace } from './repo-index.ts';
import { readResults, type BudgetKey, type ResultRow } from './results.ts';
import { startRun, type RunOptions } from './run-start.ts';
import type { RunOutcome } from './run-crossfile.ts';
import type { IssueSelector, SelectorResult } from './selectors.ts';
import { ISSUE_METRICS, summarize, type Cell } from './summary.ts';
import { readIssueTasks, type IssueTask } from './tasks.ts';

export const DEFAULT_ISSUE_BUDGETS = [8192, 32768];
export const DEFAULT_WORKTREES = path.join(os.tmpdir(), 'allot-eval-trees');

export interface IssuesRunOptions extends IndexPlace, RunOptions {
  mirrors: string;
  worktrees: string;
  selectors: IssueSelector[];
  methods: Method[];
  budgets: number[];
}

export const ISSUE_DEFINITIONS = [
  'Task (SWE-bench setting): a real issue; the query is its text as the reporter wrote it; the gold files are those the merged fix modified, as they exist at the base commit (the fix itself is never shown to a method).',
  'gold-file recall: the share of gold files the context shows whole (every line of the file inside blocks of that path); all gold shown / no gold shown: every gold file shown whole / no block from any gold file.',
  'gold files touched: the share of gold files with at least one block, whole or not.',
  'lines in gold files: of the context\'s non-blank lines, the share that are verbatim lines of a gold file; verbatim lines: the share that are verbatim repository lines at the place their block claims (descriptors, headers and anything a method adds are not). Both are averaged over the issues whose context is not empty.',
  'Budgets: a selector uses its own (`selector\'s own`); baselines run at fixed budgets and at `at selector\'s`, the tokens the selector used on that same issue.',
  'The repository is indexed at each base commit (one work tree per repository, moved commit to commit; the index follows incrementally).',
];

const toBlocks = (c: EvalContext | SelectorResult): ContextBlock[] => c.blocks.map((b) => ({ path: b.path, startLine: b.startLine, endLine: b.endLine, text: b.text }));

export async function runIssues(o: IssuesRunOptions): Promise<RunOutcome> {
  const { tasks, resultsFile, writer, tokenizer } = await startRun(o, readIssueTasks);
  const hasSelector = o.selectors.length > 0;
  const cells: Cell[] = [
    ...o.selectors.map((s) => ({ method: s.name, budget: 'own' as BudgetKey })),
    ...o.methods.flatMap((m) => [...o.budgets.map((b) => ({ method: m.name, budget: b as BudgetKey })), ...(hasSelector ? [{ method: m.name, budget: 'selector' as BudgetKey }] : [])]),
  ];
  const needs = (t: IssueTask) => cells.some((c) => !writer.has(t.instance_id, c.method, c.budget));
  // Resumed selector budgets (tokens the selector used per issue).
  const selectorTokens = new Map<string, number>();
  if (hasSelector) for (const r of readResults(resultsFile)) if (r.method === o.selectors[0].name && r.budget === 'own') selectorTokens.set(r.task, r.tokens);

  let computed = 0;
  const stopped = await forEachIssueTree(tasks, o, needs, async (t, { db, tree, repoText }) => {
    const rows: ResultRow[] = [];
    const row = (method: string, budget: BudgetKey, ctx: EvalContext | SelectorResult, latencyMs: number, extra: Record<string, unknown> = {}): ResultRow => ({
      kind: 'issues', task: t.instance_id, repo: t.repo, method, budget,
      ...issueMetrics(toBlocks(ctx), t.gold_files, repoText, ctx.text),
      goldFiles: t.gold_files.length, blocks: ctx.blocks.length, files: new Set(ctx.blocks.map((b) => b.path)).size,
      tokens: ctx.totalTokens, latencyMs: Math.round(latencyMs * 100) / 100, ...extra,
    });
    for (const s of o.selectors) {
      if (writer.has(t.instance_id, s.name, 'own')) continue;
      const t0 = performance.now();
      const res = await s.select(t.problem_statement, { db, repo: tree, tokenizer });
      rows.push(row(s.name, 'own', res, performance.now() - t0));
      if (s === o.selectors[0]) selectorTokens.set(t.instance_id, res.totalTokens);
    }
    const embedder = o.methods.some((m) => m.dense) ? await ensureEmbedded(db, o.progress, t.repo) : null;
    const env = methodEnv(db, tokenizer, tree, embedder);
    for (const m of o.methods) {
      const budgets: { key: BudgetKey; tokens: number }[] = o.budgets.map((b) => ({ key: b, tokens: b }));
      if (hasSelector) budgets.push({ key: 'selector', tokens: selectorTokens.get(t.instance_id) ?? 0 });
      const todo = budgets.filter((b) => !writer.has(t.instance_id, m.name, b.key));
      if (!todo.length) continue;
      const prepared = timed(env, m, t.problem_statement, null);
      for (const b of todo) {
        const { ctx, ms } = prepared.render(b.tokens);
        rows.push(row(m.name, b.key, ctx, ms, b.key === 'selector' ? { budgetTokens: b.tokens } : {}));
      }
    }
    writer.append(rows);
    computed += rows.length;
  });

  const reference = hasSelector ? o.selectors[0].name : (o.methods.find((m) => m.name === 'file-bm25') ?? o.methods[0]).name;
  const summary = summarize({
    kind: 'issues',
    taskIds: tasks.map((t) => t.instance_id),
    rows: readResults(resultsFile),
    cells,
    metrics: ISSUE_METRICS,
    reference,
    referenceBudget: hasSelector ? () => 'own' : (c) => c.budget,
  });
  const written = writeOutputs(o.out, summary, {
    title: 'allot eval: context for issues (SWE-bench setting)',
    command: o.command,
    definitions: ISSUE_DEFINITIONS,
    methods: Object.fromEntries([...o.selectors, ...o.methods].map((m) => [m.name, m.description])),
  }, 'Gold-file recall by token budget (issues)');
  return { summary, written, stopped, computed };
}
