/**
 * `allot eval prose`: questions in plain words. Each SWE-bench-format issue is a `context` query twice: its whole
 * text as the reporter wrote it, and its title alone (short prose, as people type a question). Gold is the merged
 * fix: the files it modifies and the lines it edits on the old side (`goldEdits`). Metrics: a gold file shown, an
 * edited line shown, every hunk shown, tokens; every retriever's allocation and chunk BM25 side by side.
 */
import path from 'node:path';
import { forEachIssueTree } from './issue-trees.ts';
import { proseMetrics } from './metrics.ts';
import { methodEnv, timed, type Method } from './methods.ts';
import { writeOutputs, type Written } from './outputs.ts';
import { goldEdits } from './patch.ts';
import { ensureEmbedded } from './repo-index.ts';
import { readResults, type ResultRow } from './results.ts';
import { startRun, type RunOptions } from './run-start.ts';
import type { RunOutcome } from './run-crossfile.ts';
import { summarize, type Cell, type MetricSpec, type Summary } from './summary.ts';
import { readProseTasks, type ProseTask } from './tasks.ts';

export const DEFAULT_PROSE_BUDGETS = [4096, 8192];
/** The methods by default: every retriever's allocation and the chunk baseline. */
export const DEFAULT_PROSE_METHODS = ['allocation', 'structural', 'hybrid', 'dense', 'hybrid-dense', 'chunk-bm25'];

/** The two forms of an issue as a query. */
export const PROSE_FORMS = ['text', 'title'] as const;
export type ProseForm = (typeof PROSE_FORMS)[number];

/** The title of an issue: its first non-blank line (SWE-bench statements start with it). */
export function issueTitle(statement: string): string {
  return statement.split('\n').map((l) => l.trim()).find((l) => l !== '') ?? '';
}

export const queryOf = (t: ProseTask, form: ProseForm): string => (form === 'title' ? issueTitle(t.problem_statement) : t.problem_statement);

export const PROSE_METRICS: readonly MetricSpec[] = [
  { key: 'editedLineShown', label: 'edited line shown', type: 'rate', paired: true, headline: true },
  { key: 'allHunksShown', label: 'every hunk shown', type: 'rate', paired: true },
  { key: 'goldFileShown', label: 'gold file shown', type: 'rate', paired: true },
  { key: 'hunkRecall', label: 'hunks shown', type: 'rate' },
  { key: 'tokens', label: 'tokens', type: 'count' },
  { key: 'latencyMs', label: 'latency', type: 'ms' },
];

export const PROSE_DEFINITIONS = [
  'Task: a real issue (SWE-bench format). The query is, in one form, the issue\'s whole text; in the other, its title alone (its first line). Gold is the merged fix, never shown to a method.',
  'Edited lines: the old-side lines the gold patch deletes or replaces; for an insertion, the old lines just before and after it. A line is shown when a block of its file spans it and the block\'s text holds it verbatim.',
  'edited line shown: some edited line is shown; every hunk shown: each hunk of the fix has an edited line shown; gold file shown: some block lies in a file the fix modifies; hunks shown: the share of hunks with an edited line shown.',
  'Each repository is indexed at each issue\'s base commit (one work tree per repository, moved commit to commit; the index follows incrementally).',
];

export interface ProseRunOptions extends RunOptions {
  mirrors: string;
  worktrees: string;
  indexDir: string;
  methods: Method[];
  budgets: number[];
  forms: readonly ProseForm[];
  /** The method paired comparisons are made against (default: BM25 allocation, `allocation`, when run). */
  reference?: string;
}

export interface ProseOutcome extends RunOutcome {
  /** Per form: its summary and the files written (`<out>/<form>/`). */
  forms: { form: ProseForm; summary: Summary; written: Written }[];
}

const taskKey = (id: string, form: ProseForm) => `${id}@${form}`;

export async function runProse(o: ProseRunOptions): Promise<ProseOutcome> {
  const { tasks, resultsFile, writer, tokenizer } = await startRun(o, readProseTasks);
  const cells: Cell[] = o.methods.flatMap((m) => o.budgets.map((b) => ({ method: m.name, budget: b })));
  const needs = (t: ProseTask) => o.forms.some((f) => cells.some((c) => !writer.has(taskKey(t.instance_id, f), c.method, c.budget)));

  let computed = 0;
  const stopped = await forEachIssueTree(tasks, o, needs, async (t, { db, tree, repoText }) => {
    const edits = goldEdits(t.patch);
    const embedder = o.methods.some((m) => m.dense) ? await ensureEmbedded(db, o.progress, t.repo) : null;
    const env = methodEnv(db, tokenizer, tree, embedder);
    const rows: ResultRow[] = [];
    for (const form of o.forms) {
      const key = taskKey(t.instance_id, form);
      const query = queryOf(t, form);
      for (const m of o.methods) {
        const todo = o.budgets.filter((b) => !writer.has(key, m.name, b));
        if (!todo.length) continue;
        const prepared = timed(env, m, query, null);
        for (const b of todo) {
          const { ctx, ms } = prepared.render(b);
          rows.push({
            kind: 'prose', task: key, issue: t.instance_id, form, repo: t.repo, method: m.name, budget: b,
            ...proseMetrics(ctx.blocks, t.gold_files, edits, repoText),
            blocks: ctx.blocks.length, files: new Set(ctx.blocks.map((x) => x.path)).size,
            tokens: ctx.totalTokens, latencyMs: Math.round(ms * 100) / 100,
          });
        }
      }
    }
    writer.append(rows);
    computed += rows.length;
  });

  const names = o.methods.map((m) => m.name);
  const reference = o.reference ?? (names.includes('allocation') ? 'allocation' : names[0]);
  const rows = readResults(resultsFile);
  const forms = o.forms.map((form) => {
    const summary = summarize({
      kind: 'prose', taskIds: tasks.map((t) => taskKey(t.instance_id, form)), rows, cells, metrics: PROSE_METRICS, reference,
    });
    const written = writeOutputs(path.join(o.out, form), summary, {
      title: `allot eval prose: issues as questions (${form === 'title' ? 'the title alone' : 'the whole issue text'})`,
      command: o.command,
      definitions: PROSE_DEFINITIONS,
      methods: Object.fromEntries(o.methods.map((m) => [m.name, m.description])),
    }, `Edited line shown by token budget (${form === 'title' ? 'titles' : 'issue texts'})`);
    return { form, summary, written };
  });
  return { summary: forms[0].summary, written: forms[0].written, stopped, computed, forms };
}
