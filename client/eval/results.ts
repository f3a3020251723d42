/**
 * `results.jsonl`: one row per task, method and budget with every metric,
 * tokens and latency. Rows are appended as tasks finish, so an interrupted run
 * keeps its work and `--resume` skips what is there.
 */
import fs from 'node:fs';

/** A budget: tokens, or `own` (a selector's own per-issue budget) or `selector` (a baseline at that budget). */
export type BudgetKey = number | 'own' | 'selector';

export interface ResultRow {
  kind: 'crossfile' | 'issues' | 'prose';
  task: string;
  repo: string;
  method: string;
  budget: BudgetKey;
  tokens: number;
  latencyMs: number;
  [metric: string]: unknown;
}

export const rowKey = (task: string, method: string, budget: BudgetKey): string => `${task}\u0000${method}\u0000${budget}`;

/** The rows of a results file (none when it does not exist); a torn last line (killed mid-write) is ignored. */
export function readResults(file: string): ResultRow[] {
  if (!fs.existsSync(file)) return [];
  const rows: ResultRow[] = [];
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    try {
      rows.push(JSON.parse(line) as ResultRow);
    } catch (err) {
      if (i < lines.length - 1 && lines.slice(i + 1).some((l) => l.trim())) throw new Error(`${file}:${i + 1}: not JSON (${(err as Error).message})`);
    }
  });
  return rows;
}

/** Appends rows to the results file. */
export class ResultsWriter {
  private readonly done = new Set<string>();
  constructor(readonly file: string, resume: boolean) {
    if (resume) {
      const rows = readResults(file);
      for (const r of rows) this.done.add(rowKey(r.task, r.method, r.budget));
      // Rewrite without a torn last line, so appends start on a fresh line.
      fs.writeFileSync(file, rows.map((r) => JSON.stringify(r) + '\n').join(''));
    } else fs.writeFileSync(file, '');
  }

  has(task: string, method: string, budget: BudgetKey): boolean {
    return this.done.has(rowKey(task, method, budget));
  }

  append(rows: readonly ResultRow[]): void {
    if (!rows.length) return;
    fs.appendFileSync(this.file, rows.map((r) => JSON.stringify(r) + '\n').join(''));
    for (const r of rows) this.done.add(rowKey(r.task, r.method, r.budget));
  }
}
