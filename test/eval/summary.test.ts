import { describe, expect, it } from 'vitest';
import { lineChartSvg } from '../../client/eval/chart.ts';
import { budgetLabel, formatP, renderReport } from '../../client/eval/report.ts';
import type { ResultRow } from '../../client/eval/results.ts';
import { mcnemarExact } from '../../client/eval/stats.ts';
import { ISSUE_METRICS, summarize } from '../../client/eval/summary.ts';

const row = (task: string, method: string, budget: ResultRow['budget'], m: Record<string, unknown>): ResultRow => ({
  kind: 'issues', task, repo: task.startsWith('a') ? 'acme/a' : 'acme/b', method, budget, tokens: 100, latencyMs: 5, ...m,
});

describe('summary', () => {
  // Four issues; the selector shows every gold file on 3, the baseline on 1; the selector shows none on 1, the baseline on 3.
  const rows: ResultRow[] = [
    row('a1', 'sel', 'own', { goldFileRecall: 1, allGold: true, noGold: false, verbatimShare: 1 }),
    row('a2', 'sel', 'own', { goldFileRecall: 1, allGold: true, noGold: false, verbatimShare: null }),
    row('b1', 'sel', 'own', { goldFileRecall: 1, allGold: true, noGold: false, verbatimShare: 0.5 }),
    row('b2', 'sel', 'own', { goldFileRecall: 0, allGold: false, noGold: true, verbatimShare: 1 }),
    row('a1', 'base', 'selector', { goldFileRecall: 0, allGold: false, noGold: true, verbatimShare: 1 }),
    row('a2', 'base', 'selector', { goldFileRecall: 0, allGold: false, noGold: true, verbatimShare: 1 }),
    row('b1', 'base', 'selector', { goldFileRecall: 0.5, allGold: false, noGold: false, verbatimShare: 1 }),
    row('b2', 'base', 'selector', { goldFileRecall: 1, allGold: true, noGold: true, verbatimShare: 1 }),
    // a task of another run's method is ignored; a task missing a cell is left out
    row('a1', 'other', 'own', { goldFileRecall: 1 }),
    row('c1', 'sel', 'own', { goldFileRecall: 1, allGold: true, noGold: false }),
  ];
  const s = summarize({
    kind: 'issues', taskIds: ['a1', 'a2', 'b1', 'b2', 'c1'], rows,
    cells: [{ method: 'sel', budget: 'own' }, { method: 'base', budget: 'selector' }],
    metrics: ISSUE_METRICS, reference: 'sel', referenceBudget: () => 'own',
  });

  it('keeps complete tasks, means per cell, nulls left out', () => {
    expect(s.tasks).toBe(4);
    expect(s.incomplete).toBe(1);
    expect(s.repos).toEqual({ 'acme/a': 2, 'acme/b': 2 });
    const sel = s.cells.find((c) => c.method === 'sel')!;
    expect(sel.metrics.goldFileRecall.mean).toBe(0.75);
    expect(sel.metrics.verbatimShare.mean).toBeCloseTo(2.5 / 3, 12);
    expect(s.byRepo.find((r) => r.repo === 'acme/b' && r.method === 'base')!.metrics.goldFileRecall).toBe(0.75);
  });

  it('pairs each baseline with the selector at its own budget; for "no gold shown" a win is avoiding it', () => {
    const all = s.comparisons.find((c) => c.metric === 'allGold')!;
    expect(all).toMatchObject({ method: 'base', budget: 'selector', referenceBudget: 'own', wins: 1, losses: 3, ties: 0, p: mcnemarExact(1, 3) });
    const none = s.comparisons.find((c) => c.metric === 'noGold')!;
    // the baseline avoids "no gold" only on b1 where the selector does too; it falls into it on a1, a2 where the selector does not
    expect(none).toMatchObject({ wins: 0, losses: 2, ties: 2 });
  });

  it('renders a report and a chart a person can read', () => {
    const md = renderReport(s, { title: 'T', command: 'allot eval issues x', definitions: ['d'], methods: { sel: 'the selector' } });
    expect(md).toContain('| method | selector\'s own | at selector\'s |');
    expect(md).toContain('| sel | 75.0% | – |');
    expect(md).toMatch(/\| base \| – \| \+1 \/ −3, p 0\.6[23] \|/);
    expect(md).toMatch(/no gold shown \(lower is better/);
    expect(budgetLabel(4096)).toBe('4K');
    expect(budgetLabel(1536)).toBe('1.5K');
    expect(budgetLabel(300)).toBe('300');
    expect(formatP(0.0004)).toBe('<0.001');
    expect(formatP(0.0123)).toBe('0.012');
    const svg = lineChartSvg({ title: 'R & D', xLabel: 'B', yLabel: 'r', x: ['1K', '2K'], series: [{ name: 'a<b', points: [{ y: 0.1, low: 0.05, high: 0.2 }, null] }] });
    expect(svg).toContain('R &amp; D');
    expect(svg).toContain('a&lt;b');
    expect(svg).toContain('>25%<');
  });
});
