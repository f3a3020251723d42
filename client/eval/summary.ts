/**
 * `summary.json`: the results of a run aggregated per method and budget, with
 * bootstrap intervals over tasks and paired comparisons against the reference
 * method. Only tasks that have a row for every (method, budget) cell of the run
 * count, so every comparison is paired on the same tasks.
 */
import type { BudgetKey, ResultRow } from './results.ts';
import { BOOTSTRAP_RESAMPLES, BOOTSTRAP_SEED, bootstrapMean, mean, pairedComparison, percentile, type Interval, type PairedComparison } from './stats.ts';

export interface MetricSpec {
  key: string;
  label: string;
  /** `rate`: a 0/1 or 0..1 value shown in per cent; `count`: tokens and the like; `ms`: latency. */
  type: 'rate' | 'count' | 'ms';
  /** Binary per task: compared pairwise (wins, losses, McNemar). */
  paired?: boolean;
  /** Lower is better (e.g. "no gold shown"): a task is a win when the method avoids what the reference does not. */
  lowerIsBetter?: boolean;
  /** The metric the chart plots and the at-a-glance table shows. */
  headline?: boolean;
}

export const CROSSFILE_METRICS: readonly MetricSpec[] = [
  { key: 'recallAtB', label: 'Recall@B', type: 'rate', paired: true, headline: true },
  { key: 'recallAtK', label: 'Recall@K', type: 'rate', paired: true },
  { key: 'deltaRecall', label: 'ΔRecall', type: 'rate' },
  { key: 'retrievedGold', label: 'retrieved', type: 'rate' },
  { key: 'tokens', label: 'tokens', type: 'count' },
  { key: 'latencyMs', label: 'latency', type: 'ms' },
];

export const ISSUE_METRICS: readonly MetricSpec[] = [
  { key: 'goldFileRecall', label: 'gold-file recall', type: 'rate', headline: true },
  { key: 'allGold', label: 'all gold shown', type: 'rate', paired: true },
  { key: 'noGold', label: 'no gold shown', type: 'rate', paired: true, lowerIsBetter: true },
  { key: 'goldFileTouched', label: 'gold files touched', type: 'rate' },
  { key: 'goldLineShare', label: 'lines in gold files', type: 'rate' },
  { key: 'verbatimShare', label: 'verbatim lines', type: 'rate' },
  { key: 'tokens', label: 'tokens', type: 'count' },
  { key: 'latencyMs', label: 'latency', type: 'ms' },
];

export interface Cell {
  method: string;
  budget: BudgetKey;
}

export interface MetricSummary extends Interval {
  p50: number;
  p95: number;
}

export interface CellSummary extends Cell {
  n: number;
  metrics: Record<string, MetricSummary>;
}

export interface Comparison extends Cell, PairedComparison {
  metric: string;
  reference: string;
  /** The reference's budget on the same tasks (a selector's `own` for baselines at `selector`). */
  referenceBudget: BudgetKey;
}

export interface RepoCell extends Cell {
  repo: string;
  n: number;
  /** Means only (per-repository sets are small). */
  metrics: Record<string, number>;
}

export interface Summary {
  kind: 'crossfile' | 'issues' | 'prose';
  tasks: number;
  /** Tasks of the task file left out because some cell has no row yet (an interrupted run). */
  incomplete: number;
  repos: Record<string, number>;
  methods: string[];
  budgets: BudgetKey[];
  reference: string;
  bootstrap: { resamples: number; seed: number; level: number; unit: 'task' };
  metrics: MetricSpec[];
  cells: CellSummary[];
  comparisons: Comparison[];
  byRepo: RepoCell[];
}

const num = (v: unknown): number => (typeof v === 'boolean' ? (v ? 1 : 0) : typeof v === 'number' ? v : NaN);

export function summarize(opts: {
  kind: 'crossfile' | 'issues' | 'prose';
  taskIds: readonly string[];
  rows: readonly ResultRow[];
  cells: readonly Cell[];
  metrics: readonly MetricSpec[];
  reference: string;
  /** The reference cell a cell is compared with (default: the reference method at the same budget). */
  referenceBudget?: (cell: Cell) => BudgetKey | null;
}): Summary {
  const index = new Map<string, ResultRow>();
  for (const r of opts.rows) index.set(`${r.task}\u0000${r.method}\u0000${r.budget}`, r);
  const get = (task: string, c: Cell) => index.get(`${task}\u0000${c.method}\u0000${c.budget}`);
  const complete = opts.taskIds.filter((t) => opts.cells.every((c) => get(t, c)));
  const repoOf = new Map<string, string>();
  for (const t of complete) repoOf.set(t, get(t, opts.cells[0])!.repo);
  const repos: Record<string, number> = {};
  for (const t of complete) repos[repoOf.get(t)!] = (repos[repoOf.get(t)!] ?? 0) + 1;

  const values = (tasks: readonly string[], c: Cell, key: string) => tasks.map((t) => num(get(t, c)![key]));
  const cells: CellSummary[] = opts.cells.map((c) => ({
    ...c,
    n: complete.length,
    metrics: Object.fromEntries(
      opts.metrics.map((m) => {
        const v = values(complete, c, m.key).filter((x) => !Number.isNaN(x));
        return [m.key, { ...bootstrapMean(v), p50: percentile(v, 50), p95: percentile(v, 95) }];
      }),
    ),
  }));

  const comparisons: Comparison[] = [];
  const refBudget = opts.referenceBudget ?? ((c: Cell) => c.budget);
  for (const c of opts.cells) {
    if (c.method === opts.reference) continue;
    const rb = refBudget(c);
    if (rb === null) continue;
    const ref = { method: opts.reference, budget: rb };
    if (!opts.cells.some((x) => x.method === ref.method && x.budget === ref.budget)) continue;
    for (const m of opts.metrics.filter((x) => x.paired)) {
      const good = (x: number) => (m.lowerIsBetter ? x === 0 : x === 1);
      const a = values(complete, c, m.key).map(good);
      const b = values(complete, ref, m.key).map(good);
      comparisons.push({ ...c, metric: m.key, reference: opts.reference, referenceBudget: rb, ...pairedComparison(a, b) });
    }
  }

  const byRepo: RepoCell[] = [];
  for (const repo of Object.keys(repos).sort()) {
    const tasks = complete.filter((t) => repoOf.get(t) === repo);
    for (const c of opts.cells) {
      byRepo.push({
        ...c, repo, n: tasks.length,
        metrics: Object.fromEntries(opts.metrics.map((m) => [m.key, mean(values(tasks, c, m.key).filter((x) => !Number.isNaN(x)))])),
      });
    }
  }

  return {
    kind: opts.kind,
    tasks: complete.length,
    incomplete: opts.taskIds.length - complete.length,
    repos,
    methods: [...new Set(opts.cells.map((c) => c.method))],
    budgets: [...new Set(opts.cells.map((c) => c.budget))],
    reference: opts.reference,
    bootstrap: { resamples: BOOTSTRAP_RESAMPLES, seed: BOOTSTRAP_SEED, level: 0.95, unit: 'task' },
    metrics: [...opts.metrics],
    cells,
    comparisons,
    byRepo,
  };
}
