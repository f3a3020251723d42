// Benchmark of branch switches (not a test).
//
//   npm run bench:branches [-- REPO [COLD FAR [NEAR]]]
//
// REPO is any git repository with history (a clone, bare or not; default bench-data/sympy.git, made by
// `git clone --bare https://github.com/sympy/sympy bench-data/sympy.git`); COLD and FAR are two revisions far
// apart (default sympy-1.11 and sympy-1.13.0), NEAR one a few files from COLD (default: the nearest ancestor of
// COLD that differs from it in 2 to 10 files). On a clone of REPO in a temporary folder:
//   (a) `allot index` after each step: cold at COLD, `git checkout FAR`, back to COLD, then NEAR, each a real
//       process under GNU time (wall, CPU-seconds, peak RSS), with the files parsed and restored; at the end the
//       index is compared with a fresh index of the same tree (every row, and BM25's answers to 200 queries);
//   (b) a daemon (`allot serve`) on a second clone, cold at COLD, then the same switches: the time from the end of
//       each `git checkout` until the daemon is idle again, its CPU-seconds meanwhile, files parsed and restored.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { AllotClient } from '../../client/lib/index.ts';
import { openStore } from '../../indexer/store/open.ts';
import type { IndexSummary } from '../../indexer/types.ts';
import { bm25Fingerprint } from '../helpers/random-edits.ts';
import { dumpIndex } from '../helpers/repo.ts';
import { BIN, cpuSeconds, machine, PROJECT, printGoals, serveDaemon, sleep, until } from './daemon-run.ts';
import { measure } from './measure.ts';
import { drawQueries } from './queries.ts';

const DEFAULT_REPO = path.join(PROJECT, 'bench-data/sympy.git');
const s2 = (v: number) => `${v.toFixed(2)} s`;

function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout.trim();
}

const differing = (repo: string, from: string, to: string) => git(repo, 'diff', '--name-only', from, to).split('\n').filter(Boolean).length;
const treeSize = (repo: string, rev: string) => git(repo, 'ls-tree', '-r', '--name-only', rev).split('\n').filter(Boolean).length;

/** The nearest ancestor of `rev` (first parents) whose tree differs from it in 2 to 10 files. */
function nearRevision(repo: string, rev: string): string {
  for (const c of git(repo, 'rev-list', '--first-parent', '--max-count=400', `${rev}~1`).split('\n')) {
    const n = differing(repo, rev, c);
    if (n >= 2 && n <= 10) return c;
  }
  throw new Error(`no ancestor of ${rev} within 400 commits differs from it in 2 to 10 files: pass NEAR`);
}

interface Step {
  name: string;
  rev: string;
  /** Files that differ from the tree before the step (all of them for the cold index). */
  differ: number;
  files: number;
}

async function main(): Promise<void> {
  const [repoArg, coldArg, farArg, nearArg] = process.argv.slice(2);
  const source = path.resolve(repoArg ?? DEFAULT_REPO);
  if (!fs.existsSync(source)) {
    console.error(`no repository at ${source}: clone one with history first (git clone --bare https://github.com/sympy/sympy ${DEFAULT_REPO}), or pass REPO COLD FAR`);
    process.exit(2);
  }
  if (repoArg && !(coldArg && farArg)) {
    console.error('usage: npm run bench:branches -- REPO COLD FAR [NEAR]');
    process.exit(2);
  }
  const cold = coldArg ?? 'sympy-1.11';
  const far = farArg ?? 'sympy-1.13.0';
  const near = nearArg ?? nearRevision(source, cold);
  console.log(machine('allot branch-switch benchmark'));
  const steps: Step[] = [
    { name: 'cold index', rev: cold, differ: treeSize(source, cold), files: treeSize(source, cold) },
    { name: 'to a far tree', rev: far, differ: differing(source, cold, far), files: treeSize(source, far) },
    { name: 'back to the first', rev: cold, differ: differing(source, far, cold), files: treeSize(source, cold) },
    { name: 'to a near tree', rev: near, differ: differing(source, cold, near), files: treeSize(source, near) },
  ];
  console.log(`repository ${source}: ${cold} (${steps[0].files} files), ${far} (${steps[1].differ} files differ), near ${near.slice(0, 12)} (${steps[3].differ} files differ)`);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'allot-bench-branches-'));
  const clone = (name: string) => {
    const dir = path.join(tmp, name);
    git(tmp, 'clone', '-q', '--shared', '--no-checkout', source, dir);
    git(dir, 'checkout', '-q', cold);
    return dir;
  };

  console.log(`\n(a) allot index after each checkout (a real process; CPU = user + system of all its threads)`);
  const tree = clone('cli');
  const db = path.join(tmp, 'cli.db');
  const cli: { step: Step; seconds: number; cpu: number; rss: number; s: IndexSummary }[] = [];
  for (const step of steps) {
    if (step !== steps[0]) git(tree, 'checkout', '-q', step.rev);
    const m = await measure(process.execPath, [BIN, 'index', tree, '--db', db, '--json']);
    if (m.code !== 0) throw new Error(`allot index failed (${m.code}): ${m.stderr.slice(-2000)}`);
    const s = JSON.parse(m.stdout) as IndexSummary;
    cli.push({ step, seconds: m.seconds, cpu: m.cpuSeconds, rss: m.peakRssMb, s });
    const res = s.resolution ? `${s.resolution.mode}, ${s.resolution.visited} of ${s.references} references` : 'none';
    console.log(
      `  ${step.name.padEnd(18)} ${String(step.differ).padStart(5)} files differ: wall ${s2(m.seconds)}, CPU ${s2(m.cpuSeconds)}, peak RSS ${m.peakRssMb.toFixed(0)} MB; ` +
        `parsed ${s.parsed}, restored ${s.restored}, removed ${s.removed}; resolution ${res}; cache ${s.cache.entries} rows, ${(s.cache.bytes / 2 ** 20).toFixed(1)} MB; ` +
        `wall by phase ${Object.entries(s.phases).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ')}`,
    );
  }
  // After the sequence the index must be the one a fresh run builds.
  const freshDb = path.join(tmp, 'fresh.db');
  const f = await measure(process.execPath, [BIN, 'index', tree, '--db', freshDb, '--json']);
  if (f.code !== 0) throw new Error(`fresh index failed: ${f.stderr.slice(-2000)}`);
  const a = openStore(db, { readonly: true });
  const b = openStore(freshDb, { readonly: true });
  const queries = drawQueries(b, 200);
  const sameRows = isDeepStrictEqual(dumpIndex(a), dumpIndex(b));
  const sameBm25 = isDeepStrictEqual(bm25Fingerprint(a, queries, 100_000), bm25Fingerprint(b, queries, 100_000));
  a.close();
  b.close();
  console.log(`  after the sequence, equal to a fresh index of the same tree: rows ${sameRows ? 'yes' : 'NO'}, BM25 answers to ${queries.length} queries ${sameBm25 ? 'yes' : 'NO'} (fresh: wall ${s2(f.seconds)}, CPU ${s2(f.cpuSeconds)})`);

  console.log(`\n(b) the daemon (allot serve): from the end of each git checkout until it is idle again`);
  const dtree = clone('daemon');
  const ddb = path.join(tmp, 'daemon.db');
  const started = performance.now();
  const d = await serveDaemon(dtree, ['--db', ddb]);
  const { pid, client } = d;
  const daemon: { step: Step; checkout: number; idle: number; cpu: number; parsed: number; restored: number; batches: number }[] = [];
  try {
    // Idle after the batch numbered past `after`: a switch is done only once its batches ran.
    const idle = async (c: AllotClient, after: number) =>
      until('the daemon to be idle', async () => {
        const s = await c.status();
        return !s.indexing.catchingUp && s.indexing.state === 'idle' && s.pending.paths === 0 && !s.pending.full && s.indexing.batches > after ? s : null;
      }, 1_800_000, 10);
    const batchesIn = (text: string) => [...text.matchAll(/indexed .*?: (\d+) parsed, (\d+) restored/g)].map((m) => [Number(m[1]), Number(m[2])]);
    let status = await idle(client, 0);
    daemon.push({ step: steps[0], checkout: 0, idle: (performance.now() - started) / 1000, cpu: cpuSeconds(pid), parsed: status.indexing.lastBatch?.parsed ?? 0, restored: status.indexing.lastBatch?.restored ?? 0, batches: 1 });
    for (const step of steps.slice(1)) {
      // Let the watcher settle (a recycled writer thread, the idle collection) before the next switch.
      await sleep(3000);
      const mark = d.log().length;
      const cpu0 = cpuSeconds(pid);
      const before = status.indexing.batches;
      const t0 = performance.now();
      git(dtree, 'checkout', '-q', step.rev);
      const t1 = performance.now();
      status = await idle(client, before);
      const t2 = performance.now();
      const batches = batchesIn(d.log().slice(mark));
      daemon.push({
        step, checkout: (t1 - t0) / 1000, idle: (t2 - t1) / 1000, cpu: cpuSeconds(pid) - cpu0,
        parsed: batches.reduce((n, b) => n + b[0], 0), restored: batches.reduce((n, b) => n + b[1], 0), batches: status.indexing.batches - before,
      });
    }
  } finally {
    await d.stop();
  }
  for (const d of daemon) {
    console.log(
      `  ${d.step.name.padEnd(18)} ${String(d.step.differ).padStart(5)} files differ: ${d.step === steps[0] ? 'start-up run' : `checkout ${s2(d.checkout)}, then`} ${s2(d.idle)} to idle, daemon CPU ${s2(d.cpu)}; ` +
        `parsed ${d.parsed}, restored ${d.restored} in ${d.batches} batch(es)`,
    );
  }

  const [c0, c1, c2] = cli;
  const share = steps[1].differ / steps[1].files;
  const goals: [string, boolean][] = [
    [`back to a tree seen before: wall ${s2(c2.seconds)} <= 0.15 x cold ${s2(c0.seconds)} (${(c2.seconds / c0.seconds).toFixed(2)}x)`, c2.seconds <= 0.15 * c0.seconds],
    [`back to a tree seen before: parses nothing (${c2.s.parsed})`, c2.s.parsed === 0],
    [`to a new tree: CPU ${s2(c1.cpu)} <= 1.2 x cold CPU ${s2(c0.cpu)} x ${(share * 100).toFixed(0)}% of files differing = ${s2(1.2 * c0.cpu * share)}`, c1.cpu <= 1.2 * c0.cpu * share],
    [`a near switch (${steps[3].differ} files): daemon idle ${s2(daemon[3].idle)} after the checkout <= 1 s`, daemon[3].idle <= 1],
    [`after the switches the index equals a fresh index (rows and BM25)`, sameRows && sameBm25],
  ];
  printGoals('goals (issue 21; wall times under load are upper bounds: CPU-seconds and files parsed are what count on a shared machine)', goals);
  fs.rmSync(tmp, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
