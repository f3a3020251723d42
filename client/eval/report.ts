/**
 * `report.md`: the summary for a person. The headline metric per method and
 * budget first (with the chart), then every metric per budget with its 95%
 * bootstrap interval, paired comparisons against the reference method, and the
 * per-repository breakdown.
 */
import type { BudgetKey } from './results.ts';
import type { CellSummary, MetricSpec, Summary } from './summary.ts';

/** `1K`, `4K`, `1.5K`, `300`; `own` and `selector` as words. */
export function budgetLabel(b: BudgetKey): string {
  if (b === 'own') return "selector's own";
  if (b === 'selector') return "at selector's";
  if (b >= 1024 && b % 512 === 0) return `${b / 1024}K`;
  return String(b);
}

const pct = (v: number) => (Number.isNaN(v) ? '–' : `${(v * 100).toFixed(1)}%`);
const num1 = (v: number) => (Number.isNaN(v) ? '–' : (v * 100).toFixed(1));
const pts = (v: number) => (Number.isNaN(v) ? '–' : (v * 100).toFixed(2));
const int = (v: number) => (Number.isNaN(v) ? '–' : Math.round(v).toLocaleString('en-US'));
const ms = (v: number) => (Number.isNaN(v) ? '–' : v < 10 ? v.toFixed(1) : Math.round(v).toLocaleString('en-US'));

/** One metric of one cell, as a table entry: mean [low–high]. */
export function formatMetric(spec: MetricSpec, m: CellSummary['metrics'][string] | undefined, withInterval = true): string {
  if (!m) return '–';
  if (spec.type === 'ms') return `${ms(m.p50)} / ${ms(m.p95)}`;
  if (spec.type === 'count') return withInterval ? `${int(m.mean)} (${int(m.low)}–${int(m.high)})` : int(m.mean);
  if (spec.key === 'deltaRecall') return withInterval ? `${pts(m.mean)} (${pts(m.low)}–${pts(m.high)})` : pts(m.mean);
  return withInterval ? `${num1(m.mean)} (${num1(m.low)}–${num1(m.high)})` : pct(m.mean);
}

/** p-values for people: three significant digits, `<0.001` below that. */
export function formatP(p: number): string {
  if (p < 0.001) return '<0.001';
  return p >= 0.1 ? p.toFixed(2) : p.toFixed(3);
}

/** Column headers name the unit, so entries stay short: `63.7 (58.1–69.0)`. */
export function columnLabel(m: MetricSpec): string {
  if (m.type === 'ms') return `${m.label} ms p50 / p95`;
  if (m.type === 'count') return `${m.label}, mean (95% CI)`;
  if (m.key === 'deltaRecall') return `${m.label} pt (95% CI)`;
  return `${m.label} % (95% CI)`;
}

/** A table header; the first `textColumns` columns are left-aligned, the rest (figures) right-aligned. */
const headerRow = (cols: string[], textColumns = 1) => `| ${cols.join(' | ')} |\n|${cols.map((_, i) => (i < textColumns ? '---' : '---:')).join('|')}|`;

export interface ReportOptions {
  title: string;
  /** The command that produced the run, shown verbatim. */
  command: string;
  /** Chart file names relative to the report (SVG, and PNG when rendered). */
  chart?: { svg: string; png?: string | null };
  /** Bullet lines explaining the metrics and the setting. */
  definitions: string[];
  /** Descriptions of the methods by name. */
  methods: Record<string, string>;
}

export function renderReport(s: Summary, opts: ReportOptions): string {
  const out: string[] = [];
  const cell = (method: string, budget: BudgetKey) => s.cells.find((c) => c.method === method && c.budget === budget);
  const headline = s.metrics.find((m) => m.headline) ?? s.metrics[0];
  const repos = Object.entries(s.repos).map(([r, n]) => `${r || '.'} (${n})`).join(', ');
  out.push(`# ${opts.title}`, '');
  out.push(`${s.tasks} tasks${repos ? ` from ${repos}` : ''}; methods compared on the same tasks at every budget.`);
  if (s.incomplete) out.push(`${s.incomplete} tasks of the task file are not in the tables: the run has not finished them (resume it with \`--resume\`).`);
  out.push('', '```sh', opts.command, '```', '');
  out.push(`Intervals are 95% percentile-bootstrap intervals over tasks (${s.bootstrap.resamples} resamples, seed ${s.bootstrap.seed}); paired comparisons are against \`${s.reference}\` with the exact McNemar test (two-sided binomial on the discordant tasks).`, '');

  // At a glance: the headline metric per method and budget.
  out.push(`## At a glance: ${headline.label}`, '');
  if (opts.chart) out.push(`![${headline.label} by budget and method](${opts.chart.png ?? opts.chart.svg})`, '');
  out.push(headerRow(['method', ...s.budgets.map(budgetLabel)]));
  for (const m of s.methods) {
    out.push(`| ${m} | ${s.budgets.map((b) => formatMetric(headline, cell(m, b)?.metrics[headline.key], false)).join(' | ')} |`);
  }
  out.push('');

  // Every metric per budget.
  out.push('## Every metric, by budget', '');
  for (const b of s.budgets) {
    const cells = s.methods.map((m) => cell(m, b)).filter((c): c is CellSummary => c !== undefined);
    if (!cells.length) continue;
    out.push(`### ${budgetLabel(b)}${typeof b === 'number' ? ` (B = ${b} tokens)` : ''}`, '');
    out.push(headerRow(['method', ...s.metrics.map(columnLabel)]));
    for (const c of cells) out.push(`| ${c.method} | ${s.metrics.map((m) => formatMetric(m, c.metrics[m.key])).join(' | ')} |`);
    out.push('');
  }

  // Paired comparisons.
  const paired = s.metrics.filter((m) => m.paired);
  if (s.comparisons.length) {
    out.push(`## Paired comparisons with \`${s.reference}\``, '');
    out.push('Wins: tasks the method gets right and the reference does not; losses: the reverse; p: exact McNemar.', '');
    for (const m of paired) {
      out.push(`### ${m.label}${m.lowerIsBetter ? ' (lower is better: a win is a task where the method avoids it and the reference does not)' : ''}`, '');
      out.push(headerRow(['method', ...s.budgets.map(budgetLabel)]));
      for (const method of s.methods.filter((x) => x !== s.reference)) {
        const entries = s.budgets.map((b) => {
          const c = s.comparisons.find((x) => x.method === method && x.budget === b && x.metric === m.key);
          return c ? `+${c.wins} / −${c.losses}, p ${formatP(c.p)}` : '–';
        });
        if (entries.some((e) => e !== '–')) out.push(`| ${method} | ${entries.join(' | ')} |`);
      }
      out.push('');
    }
  }

  // Per repository.
  if (Object.keys(s.repos).length > 1) {
    out.push(`## By repository: ${headline.label}`, '');
    out.push(headerRow(['repository', 'method', ...s.budgets.map(budgetLabel)], 2));
    for (const repo of Object.keys(s.repos).sort()) {
      for (const m of s.methods) {
        const vals = s.budgets.map((b) => {
          const r = s.byRepo.find((x) => x.repo === repo && x.method === m && x.budget === b);
          return r ? pct(r.metrics[headline.key]) : '–';
        });
        out.push(`| ${repo} (${s.repos[repo]}) | ${m} | ${vals.join(' | ')} |`);
      }
    }
    out.push('');
  }

  out.push('## Methods', '');
  for (const m of s.methods) out.push(`- \`${m}\`: ${opts.methods[m] ?? ''}`);
  out.push('', '## Definitions', '');
  for (const d of opts.definitions) out.push(`- ${d}`);
  out.push('');
  return out.join('\n');
}
