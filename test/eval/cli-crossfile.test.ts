import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allot } from '../helpers/cli.ts';
import { FIXTURES, tempDir } from '../helpers/repo.ts';

let root: string;
beforeAll(() => {
  root = tempDir('allot-eval-cli-');
  fs.cpSync(path.join(FIXTURES, 'eval-crossfile'), path.join(root, 'repos/evc'), { recursive: true });
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const rows = (file: string) => fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));

describe('allot eval crossfile (real process)', () => {
  it('generates tasks with repo paths relative to --root', () => {
    const r = allot(['eval', 'gen-crossfile', 'repos/evc', '--root', '.', '--out', 'tasks.jsonl', '--index-dir', 'idx'], { cwd: root });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^5 cross-file tasks \(gold: head\) from 2 files of repos\/evc -> tasks\.jsonl/);
    const tasks = rows(path.join(root, 'tasks.jsonl'));
    expect(tasks).toHaveLength(5);
    expect(Object.keys(tasks[0])).toEqual(['id', 'repo', 'path', 'line', 'query', 'gold']);
    expect(tasks[0]).toMatchObject({ id: 'repos/evc:pkg/render.py:18', repo: 'repos/evc', path: 'pkg/render.py', line: 18 });
    expect(Object.keys(tasks[0].gold)).toEqual(['path', 'name', 'startLine', 'endLine']);
    // the same seed gives the same file
    const again = allot(['eval', 'gen-crossfile', 'repos/evc', '--out', 'tasks2.jsonl', '--max', '3', '--seed', '4', '--index-dir', 'idx'], { cwd: root });
    expect(again.status).toBe(0);
    const third = allot(['eval', 'gen-crossfile', 'repos/evc', '--out', 'tasks3.jsonl', '--max', '3', '--seed', '4', '--index-dir', 'idx'], { cwd: root });
    expect(fs.readFileSync(path.join(root, 'tasks3.jsonl'), 'utf8')).toBe(fs.readFileSync(path.join(root, 'tasks2.jsonl'), 'utf8'));
    expect(third.status).toBe(0);
  });

  it('runs every task through the methods and budgets and writes results, summary, report and chart', () => {
    const r = allot(['eval', 'crossfile', 'tasks.jsonl', '--root', '.', '--out', 'out', '--index-dir', 'idx',
      '--methods', 'allocation,chunk-bm25,file-bm25', '--budgets', '1K,4096'], { cwd: root });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^5 tasks, 30 new rows/);
    const out = path.join(root, 'out');
    const res = rows(path.join(out, 'results.jsonl'));
    expect(res).toHaveLength(30);
    for (const row of res) {
      expect(row).toMatchObject({ kind: 'crossfile', repo: 'repos/evc' });
      expect(['allocation', 'chunk-bm25', 'file-bm25']).toContain(row.method);
      expect([1024, 4096]).toContain(row.budget);
      expect(typeof row.recallAtK).toBe('boolean');
      expect(typeof row.recallAtB).toBe('boolean');
      expect(row.deltaRecall).toBe(Number(row.recallAtK) - Number(row.recallAtB));
      expect(row.tokens).toBeLessThanOrEqual(row.budget);
      expect(row.latencyMs).toBeGreaterThan(0);
    }
    // a five-file repository: whole files fit in 4K, so every gold definition is shown verbatim
    expect(res.filter((x) => x.method === 'file-bm25' && x.budget === 4096).every((x) => x.recallAtB)).toBe(true);
    const summary = JSON.parse(fs.readFileSync(path.join(out, 'summary.json'), 'utf8'));
    expect(summary).toMatchObject({ kind: 'crossfile', tasks: 5, incomplete: 0, reference: 'allocation', budgets: [1024, 4096], methods: ['allocation', 'chunk-bm25', 'file-bm25'] });
    const cell = summary.cells.find((c: { method: string; budget: number }) => c.method === 'file-bm25' && c.budget === 4096);
    expect(cell.metrics.recallAtB).toMatchObject({ mean: 1, low: 1, high: 1 });
    expect(summary.comparisons.filter((c: { metric: string }) => c.metric === 'recallAtB')).toHaveLength(4);
    const report = fs.readFileSync(path.join(out, 'report.md'), 'utf8');
    expect(report).toMatch(/^# allot eval: cross-file context/);
    expect(report).toMatch(/!\[Recall@B by budget and method\]\(chart\.(svg|png)\)/);
    expect(report).toMatch(/\| method \| 1K \| 4K \|/);
    expect(report).toMatch(/## Paired comparisons with `allocation`/);
    const svg = fs.readFileSync(path.join(out, 'chart.svg'), 'utf8');
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(svg.trim().endsWith('</svg>')).toBe(true);
    for (const m of ['allocation', 'chunk-bm25', 'file-bm25']) expect(svg).toContain(`>${m}</text>`);
  });

  it('resumes: rows already there are kept, missing ones computed', () => {
    const file = path.join(root, 'out/results.jsonl');
    const before = rows(file);
    // drop the last task's rows and tear the last line, as a killed run would
    const lastTask = before.at(-1).task;
    const kept = before.filter((x) => x.task !== lastTask);
    fs.writeFileSync(file, kept.map((x) => JSON.stringify(x)).join('\n') + '\n{"kind":"crossf');
    const r = allot(['eval', 'crossfile', 'tasks.jsonl', '--root', '.', '--out', 'out', '--index-dir', 'idx',
      '--methods', 'allocation,chunk-bm25,file-bm25', '--budgets', '1024,4096', '--resume'], { cwd: root });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^5 tasks, 6 new rows/);
    const after = rows(file);
    expect(after).toHaveLength(30);
    expect(after.slice(0, kept.length)).toEqual(kept);
    const again = allot(['eval', 'crossfile', 'tasks.jsonl', '--root', '.', '--out', 'out', '--index-dir', 'idx',
      '--methods', 'allocation,chunk-bm25,file-bm25', '--budgets', '1024,4096', '--resume'], { cwd: root });
    expect(again.stdout).toMatch(/^5 tasks, 0 new rows/);
  });

  it('runs every method by default; --limit takes the first tasks', () => {
    const r = allot(['eval', 'crossfile', 'tasks.jsonl', '--root', '.', '--out', 'all', '--index-dir', 'idx', '--limit', '2', '--budgets', '2048', '--json'], { cwd: root });
    expect(r.status).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary.tasks).toBe(2);
    expect(summary.methods).toEqual(['allocation', 'no-quotient', 'no-render', 'slots-5+0', 'slots-4+1', 'slots-3+2', 'structural', 'hybrid', 'fill-all', 'no-fill', 'dense', 'bm25-dense', 'hybrid-dense', 'chunk-bm25', 'file-bm25']);
    expect(rows(path.join(root, 'all/results.jsonl'))).toHaveLength(30);
    // The dense methods ran on vectors of the repository-trained model, made in the evaluation's own index.
    expect(r.stderr).toMatch(/embedded \d+ object\(s\) of .* with allot\/repo-ppmi@/);
  });

  it('gives clear errors with exit code 2', () => {
    const u = allot(['eval', 'crossfile', 'tasks.jsonl', '--methods', 'bogus'], { cwd: root });
    expect(u.status).toBe(2);
    expect(u.stderr).toMatch(/unknown method "bogus"/);
    fs.writeFileSync(path.join(root, 'bad.jsonl'), '{"id": "x"}\n');
    const b = allot(['eval', 'crossfile', 'bad.jsonl', '--out', 'y'], { cwd: root });
    expect(b.status).toBe(2);
    expect(b.stderr).toMatch(/bad\.jsonl:1: not a task of this kind/);
    const root2 = allot(['eval', 'crossfile', 'tasks.jsonl', '--root', 'nowhere', '--out', 'z', '--index-dir', 'idx'], { cwd: root });
    expect(root2.status).toBe(2);
    expect(root2.stderr).toMatch(/repository folder not found/);
  });
});
