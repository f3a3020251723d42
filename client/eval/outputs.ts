/** Writes a run's `summary.json`, chart (SVG, PNG when a renderer exists) and `report.md` into the output folder. */
import fs from 'node:fs';
import path from 'node:path';
import { lineChartSvg, svgToPng } from './chart.ts';
import { budgetLabel, renderReport, type ReportOptions } from './report.ts';
import type { Summary } from './summary.ts';

const BASELINE = /bm25|baseline/;

export interface Written {
  summary: string;
  report: string;
  svg: string | null;
  png: string | null;
}

export function writeOutputs(out: string, s: Summary, opts: Omit<ReportOptions, 'chart'>, chartTitle: string): Written {
  fs.mkdirSync(out, { recursive: true });
  const summaryFile = path.join(out, 'summary.json');
  fs.writeFileSync(summaryFile, JSON.stringify(s, null, 2) + '\n');
  const headline = s.metrics.find((m) => m.headline) ?? s.metrics[0];
  const budgets = s.budgets.filter((b) => typeof b === 'number');
  let svg: string | null = null;
  let png: string | null = null;
  if (budgets.length > 0 && s.tasks > 0) {
    svg = path.join(out, 'chart.svg');
    fs.writeFileSync(svg, lineChartSvg({
      title: chartTitle,
      xLabel: 'token budget B',
      yLabel: headline.label,
      x: budgets.map(budgetLabel),
      series: s.methods.map((m) => ({
        name: m,
        dashed: BASELINE.test(m),
        points: budgets.map((b) => {
          const v = s.cells.find((c) => c.method === m && c.budget === b)?.metrics[headline.key];
          return v && !Number.isNaN(v.mean) ? { y: v.mean, low: v.low, high: v.high } : null;
        }),
      })).filter((x) => x.points.some((p) => p !== null)),
    }));
    png = path.join(out, 'chart.png');
    if (!svgToPng(svg, png)) png = null;
  }
  const report = path.join(out, 'report.md');
  const chart = svg ? { svg: path.basename(svg), png: png ? path.basename(png) : null } : undefined;
  fs.writeFileSync(report, renderReport(s, { ...opts, chart }));
  return { summary: summaryFile, report, svg, png };
}
