// Quality of `allot files` on real issues with known fixes (not a test).
//
//   npx tsx test/bench/files-quality.ts --issues ISSUES.jsonl --trees DIR [--repos a/b,c/d] [--sample N]
//                                       [--budget 80000] [--llm] [--index] [--out results.json] [--verbose]
//                                       [--no-structural]
//
// ISSUES.jsonl holds one issue a line: {instance_id, repo, problem_statement, gold_files}
// (the SWE-bench fields; /work/shared/eval/issues-dev.jsonl). DIR holds one materialised
// tree per issue, DIR/<instance_id>, indexed (`allot index DIR/<id>`, or pass --index).
// Issues without a tree are left out and counted.
//
// For each issue the selector runs (offline localizer; --llm asks the model configured
// by ALLOT_LLM_URL/ALLOT_LLM_MODEL/ALLOT_LLM_API_KEY), then the file-bm25 and
// chunk-bm25 baselines run with the budget the selector itself used. --no-structural runs the offline
// localizer without its structural ranker (issue 10's ablation: lexical and title answers). Reported per
// method: gold-file recall (share of each issue's gold files shown whole, averaged),
// share of issues with every gold file shown whole, with none, the share of
// context lines that lie in gold files (over all context lines of all issues; the
// per-issue mean too), the share of context lines verbatim from the tree, tokens.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { llmConfigFromEnv } from '../../allocator/files/llm.ts';
import { offlineAnswerSource } from '../../allocator/files/offline.ts';
import { sliceLines } from '../../allocator/files/render.ts';
import { selectFiles } from '../../allocator/files/select.ts';
import type { FileSelection } from '../../allocator/files/types.ts';
import { countLines, storeFileSource } from '../../indexer/store/file-source.ts';
import { openStore } from '../../indexer/store/open.ts';

const BIN = fileURLToPath(new URL('../../client/bin/allot.js', import.meta.url));
const METHODS = ['selector', 'file-bm25', 'chunk-bm25'] as const;
type Method = (typeof METHODS)[number];

interface Issue {
  instance_id: string;
  repo: string;
  problem_statement: string;
  gold_files: string[];
}

interface IssueResult {
  id: string;
  repo: string;
  gold: string[];
  method: Method;
  tokens: number;
  budget: number;
  goldShown: number;
  lines: number;
  goldLines: number;
  verbatimLines: number;
  files: string[];
  ms: number;
}

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}
const has = (name: string) => process.argv.includes(`--${name}`);

/** Gold files whose every line some block shows, the context's lines, those in gold files, those verbatim. */
export function measure(sel: FileSelection, gold: readonly string[], root: string): Omit<IssueResult, 'id' | 'repo' | 'gold' | 'method' | 'ms'> {
  const goldSet = new Set(gold);
  const covered = new Map<string, Set<number>>();
  let lines = 0;
  let goldLines = 0;
  let verbatimLines = 0;
  const disk = new Map<string, string | null>();
  for (const b of sel.blocks) {
    const n = b.endLine - b.startLine + 1;
    lines += n;
    if (goldSet.has(b.path)) goldLines += n;
    const set = covered.get(b.path) ?? new Set<number>();
    for (let l = b.startLine; l <= b.endLine; l++) set.add(l);
    covered.set(b.path, set);
    if (!disk.has(b.path)) {
      try {
        disk.set(b.path, fs.readFileSync(path.join(root, b.path), 'utf8'));
      } catch {
        disk.set(b.path, null);
      }
    }
    const text = disk.get(b.path);
    if (text !== null && text !== undefined && sliceLines(text, b.startLine, b.endLine) === b.text) verbatimLines += n;
  }
  let goldShown = 0;
  for (const g of gold) {
    const text = disk.get(g) ?? (fs.existsSync(path.join(root, g)) ? fs.readFileSync(path.join(root, g), 'utf8') : null);
    const set = covered.get(g);
    if (text === null || !set) continue;
    const total = countLines(text);
    let all = true;
    for (let l = 1; l <= total && all; l++) all = set.has(l);
    if (all) goldShown++;
  }
  return { tokens: sel.totalTokens, budget: sel.budget, goldShown, lines, goldLines, verbatimLines, files: [...new Set(sel.blocks.filter((b) => b.role === 'file').map((b) => b.path))] };
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

export function summarise(results: IssueResult[]): string {
  const rows: string[] = [
    '| method | issues | gold-file recall | all gold shown | no gold shown | context lines in gold files | (per-issue mean) | verbatim lines | mean tokens | mean files shown whole |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const m of METHODS) {
    const rs = results.filter((r) => r.method === m);
    if (!rs.length) continue;
    const n = rs.length;
    const recall = rs.reduce((s, r) => s + r.goldShown / r.gold.length, 0) / n;
    const all = rs.filter((r) => r.goldShown === r.gold.length).length / n;
    const none = rs.filter((r) => r.goldShown === 0).length / n;
    const lines = rs.reduce((s, r) => s + r.lines, 0);
    const goldLines = rs.reduce((s, r) => s + r.goldLines, 0);
    const withLines = rs.filter((r) => r.lines > 0);
    const perIssue = withLines.reduce((s, r) => s + r.goldLines / r.lines, 0) / Math.max(1, withLines.length);
    const verbatim = rs.reduce((s, r) => s + r.verbatimLines, 0) / Math.max(1, lines);
    const tokens = rs.reduce((s, r) => s + r.tokens, 0) / n;
    const files = rs.reduce((s, r) => s + r.files.length, 0) / n;
    rows.push(`| ${m} | ${n} | ${pct(recall)} | ${pct(all)} | ${pct(none)} | ${pct(goldLines / Math.max(1, lines))} | ${pct(perIssue)} | ${pct(verbatim)} | ${Math.round(tokens)} | ${files.toFixed(2)} |`);
  }
  return rows.join('\n');
}

async function main() {
  const issuesFile = flag('issues');
  const treesDir = flag('trees');
  if (!issuesFile || !treesDir) {
    process.stderr.write('usage: tsx test/bench/files-quality.ts --issues ISSUES.jsonl --trees DIR [--repos a/b,c/d] [--sample N] [--budget 80000] [--llm] [--index] [--out FILE] [--verbose]\n');
    process.exit(2);
  }
  const repos = flag('repos')?.split(',').map((s) => s.trim()).filter(Boolean);
  const budget = Number(flag('budget') ?? 80_000);
  const llm = has('llm') ? llmConfigFromEnv() : null;
  if (has('llm') && !llm) throw new Error('--llm needs ALLOT_LLM_URL and ALLOT_LLM_MODEL');
  let issues = fs.readFileSync(issuesFile, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as Issue);
  if (repos) issues = issues.filter((i) => repos.includes(i.repo));
  const sample = flag('sample');
  if (sample) {
    // Deterministic sample: every k-th issue of the (repo, id)-sorted list.
    const k = Math.max(1, Math.floor(issues.length / Number(sample)));
    issues = [...issues].sort((a, b) => (a.instance_id < b.instance_id ? -1 : 1)).filter((_, i) => i % k === 0).slice(0, Number(sample));
  }

  const results: IssueResult[] = [];
  let missing = 0;
  for (const issue of issues) {
    const root = path.join(treesDir, issue.instance_id);
    if (!fs.existsSync(root)) {
      missing++;
      continue;
    }
    const dbFile = path.join(root, '.allot', 'index.db');
    if (!fs.existsSync(dbFile)) {
      if (!has('index')) {
        missing++;
        continue;
      }
      const r = spawnSync(process.execPath, [BIN, 'index', root, '--workers', '1'], { stdio: 'ignore' });
      if (r.status !== 0) {
        missing++;
        continue;
      }
    }
    const db = openStore(dbFile, { readonly: true });
    try {
      const files = storeFileSource(db, root);
      let t = performance.now();
      const own = await selectFiles(issue.problem_statement, files, {
        budget, llm, ...(has('no-structural') ? { answerSource: offlineAnswerSource(files, { structural: false }) } : {}),
      });
      const base = { id: issue.instance_id, repo: issue.repo, gold: issue.gold_files };
      results.push({ ...base, method: 'selector', ...measure(own, issue.gold_files, root), ms: performance.now() - t });
      for (const m of ['file-bm25', 'chunk-bm25'] as const) {
        t = performance.now();
        const sel = await selectFiles(issue.problem_statement, files, { budget: own.totalTokens, baseline: m });
        results.push({ ...base, method: m, ...measure(sel, issue.gold_files, root), ms: performance.now() - t });
      }
      const done = results.length / METHODS.length;
      if (!has('verbose') && done % 20 === 0) process.stderr.write(`${done} issues...\n`);
      if (has('verbose')) {
        const r = results.at(-3)!;
        process.stderr.write(`${issue.instance_id}: gold ${issue.gold_files.join(',')} | shown ${r.files.join(',') || '-'} | ${r.goldShown}/${r.gold.length} | ${r.tokens} tokens\n`);
      }
    } finally {
      db.close();
    }
  }
  const out = flag('out');
  if (out) fs.writeFileSync(out, JSON.stringify(results, null, 1));
  const byRepo = [...new Set(results.map((r) => r.repo))].sort();
  process.stdout.write(`${results.length / METHODS.length} issues (${missing} without an indexed tree), budget ${budget}, localizer ${llm ? `model ${llm.model}` : has('no-structural') ? 'offline without its structural ranker' : 'offline'}\n\n`);
  process.stdout.write(summarise(results) + '\n');
  if (byRepo.length > 1 && has('per-repo')) {
    for (const repo of byRepo) process.stdout.write(`\n${repo}\n${summarise(results.filter((r) => r.repo === repo))}\n`);
  }
  const ms = results.filter((r) => r.method === 'selector').map((r) => r.ms).sort((a, b) => a - b);
  if (ms.length) process.stdout.write(`\nselector time per issue: median ${Math.round(ms[Math.floor(ms.length / 2)])} ms, max ${Math.round(ms.at(-1)!)} ms\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await main();
