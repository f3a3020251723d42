// Benchmark of allot at scale (not a test): the curve from about 30 MB to 1 GB of source.
//
//   npm run bench:scale [-- --sizes 30,150,1000] [--dir DIR] [--queries 100]
//
// Each corpus is assembled from Debian packages (`apt-get download` + `dpkg -x`: Python) and npm packages
// (`npm pack`: TypeScript and JavaScript), taken in a fixed order that alternates the two, their code files
// (.py .pyi .ts .tsx .mts .cts .js .mjs .cjs, not minified, at most 1 MB) copied until the corpus holds SIZE MB:
// each corpus is the start of the next. Downloads are kept in DIR/packages for the next run; corpora and
// indexes go to DIR/corpus-SIZE (default DIR: <tmp>/allot-scale, never inside the project).
// For each size: a cold `allot index` into a fresh database (wall, CPU seconds, peak RSS of all threads, under
// GNU time), the database size, a no-change re-run, then a daemon (`allot serve`) on it and `context` latency,
// B = 4096, default retriever, each query new: prose queries (names, docstring first lines) and code queries (a
// file's imports and the 30 lines before a position), one client; with the daemon's RSS and CPU per query.
// Last, cold CPU seconds per MB at each size against the smallest's: linear within 20% means 0.8 to 1.2.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ignore from 'ignore';
import { generateCrossfileTasks } from '../../client/eval/generate-crossfile.ts';
import { DEFAULT_IGNORES } from '../../indexer/discover.ts';
import { MAX_QUERY_CHARS } from '../../daemon/requests.ts';
import { openStore } from '../../indexer/store/open.ts';
import { BIN, cpuSeconds, flag, idle, machine, printGoals, rssMb, serveDaemon, warmUp } from './daemon-run.ts';
import { measure, percentile } from './measure.ts';
import { drawQueries } from './queries.ts';

/** Debian's Python packages and npm's TypeScript and JavaScript packages (pinned), largely in order of size. */
const DEBS = [
  'python3-django', 'python3-networkx', 'python3-sympy', 'python3-scipy', 'python3-astropy', 'python3-pandas', 'python3-matplotlib',
  'python3-numpy', 'python3-statsmodels', 'python3-mypy', 'python3-skimage', 'python3-twisted', 'python3-sklearn', 'python3-numba', 'python3-sage',
  // Past about 340 MB (1 GB needs these): the largest Python code bases Debian ships, the generated Azure SDK last.
  'ansible', 'python3-plotly', 'python3-cinder', 'python3-nova', 'calibre', 'python3-neutron', 'python3-ironic', 'python3-heat',
  'python3-biopython', 'python3-yt', 'python3-kivy', 'python3-sunpy', 'python3-notebook', 'python3-azure',
];
const NPMS = [
  'rxjs@7.8.2', 'typescript@5.9.3', 'three@0.160.0', '@angular/core@18.2.0', 'date-fns@3.6.0', 'echarts@5.5.1', 'pdfjs-dist@4.6.82',
  'monaco-editor@0.52.0', 'aws-sdk@2.1692.0', 'googleapis@144.0.0',
  '@angular/common@18.2.0', '@angular/compiler@18.2.0', '@angular/material@18.2.0', '@fluentui/react@8.120.0', '@aws-sdk/client-ec2@3.650.0',
  '@mui/icons-material@6.0.2', '@mui/material@6.0.2', 'antd@5.20.6', 'webpack@5.94.0', 'eslint@9.9.1', '@angular/forms@18.2.0',
  '@angular/router@18.2.0', 'core-js@3.38.1', 'lodash-es@4.17.21',
];
/** The packages corpora are made of, in order: one of each kind in turn, so every size holds both languages. */
const PACKAGES: { kind: 'deb' | 'npm'; name: string }[] = Array.from({ length: Math.max(DEBS.length, NPMS.length) }, (_, i) => [
  ...(DEBS[i] ? [{ kind: 'deb' as const, name: DEBS[i] }] : []),
  ...(NPMS[i] ? [{ kind: 'npm' as const, name: NPMS[i] }] : []),
]).flat();
const CODE = /\.(py|pyi|ts|tsx|mts|cts|js|mjs|cjs)$/;
const MAX_FILE = 1024 * 1024;
const MB = 1024 * 1024;

const run = (cmd: string, args: string[], cwd: string) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** The unpacked package (downloaded once into `store`), and the version it is. */
function unpacked(pkg: (typeof PACKAGES)[number], store: string): { dir: string; version: string } {
  const safe = pkg.name.replace(/[@/]/g, '_');
  const dir = path.join(store, safe);
  const stamp = path.join(dir, '.version');
  if (fs.existsSync(stamp)) return { dir, version: fs.readFileSync(stamp, 'utf8') };
  const tmp = fs.mkdtempSync(path.join(store, `.${safe}-`));
  let version: string;
  if (pkg.kind === 'deb') {
    run('apt-get', ['download', pkg.name], tmp);
    const deb = fs.readdirSync(tmp).find((f) => f.endsWith('.deb'))!;
    run('dpkg', ['-x', deb, 'tree'], tmp);
    version = run('dpkg-deb', ['-f', deb, 'Version'], tmp).trim();
  } else {
    const tgz = run('npm', ['pack', pkg.name, '--silent'], tmp).trim().split('\n').at(-1)!;
    fs.mkdirSync(path.join(tmp, 'tree'));
    run('tar', ['xzf', tgz, '-C', 'tree'], tmp);
    version = JSON.parse(fs.readFileSync(path.join(tmp, 'tree/package/package.json'), 'utf8')).version;
  }
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(path.join(tmp, 'tree'), dir);
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.writeFileSync(stamp, version);
  return { dir, version };
}

/** The code files of a tree that allot indexes (not in folders it never indexes), sorted so a corpus is the same every time. */
function codeFiles(dir: string): string[] {
  const out: string[] = [];
  const skip = ignore().add(DEFAULT_IGNORES);
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = path.join(d, e.name);
      const rel = path.relative(dir, p);
      if (e.isDirectory()) {
        if (!skip.ignores(`${rel}/`)) walk(p);
      } else if (e.isFile() && CODE.test(e.name) && !skip.ignores(rel) && fs.statSync(p).size <= MAX_FILE) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/** Copies packages' code files into `dest` until it holds `bytes`; returns what it took. */
function assemble(dest: string, bytes: number, store: string): { packages: string[]; files: number; bytes: number } {
  const taken: string[] = [];
  let total = 0;
  let files = 0;
  for (const pkg of PACKAGES) {
    if (total >= bytes) break;
    const { dir, version } = unpacked(pkg, store);
    const label = `${pkg.kind === 'deb' ? pkg.name : pkg.name.replace(/@[^@]+$/, '')} ${version}`;
    const prefix = path.join(dest, pkg.name.replace(/@[^@]+$/, '').replace(/[@/]/g, '_'));
    let n = 0;
    for (const file of codeFiles(dir)) {
      if (total >= bytes) break;
      const to = path.join(prefix, path.relative(dir, file));
      fs.mkdirSync(path.dirname(to), { recursive: true });
      fs.copyFileSync(file, to);
      total += fs.statSync(file).size;
      files++;
      n++;
    }
    taken.push(`${label} (${n} files)`);
  }
  if (total < bytes) throw new Error(`the package list holds only ${(total / MB).toFixed(0)} MB of code, less than ${(bytes / MB).toFixed(0)} MB`);
  return { packages: taken, files, bytes: total };
}

const cpuOf = (stderr: string) => {
  const user = Number(/User time \(seconds\): ([\d.]+)/.exec(stderr)?.[1] ?? NaN);
  const sys = Number(/System time \(seconds\): ([\d.]+)/.exec(stderr)?.[1] ?? NaN);
  return user + sys;
};
const sizeOf = (file: string) => ['', '-wal', '-shm'].reduce((s, x) => s + (fs.existsSync(file + x) ? fs.statSync(file + x).size : 0), 0);

/** Passes on the index's progress lines at most once per `ms`, stamped with the time: a 1 GB run under load takes an hour. */
function progressEvery(ms: number): (chunk: string) => void {
  let last = 0;
  return (chunk) => {
    const lines = chunk.split('\n').filter((l) => /^(indexing|resolving)/.test(l));
    const now = Date.now();
    if (!lines.length || (now - last < ms && !lines.some((l) => l.startsWith('resolving')))) return;
    last = now;
    console.log(`  ${new Date(now).toISOString().slice(11, 19)} ${lines.at(-1)}`);
  };
}

interface Row {
  mb: number;
  files: number;
  coldSeconds: number;
  coldCpu: number;
  peakMb: number;
  dbMb: number;
  rerunSeconds: number;
  rerunCpu: number;
  prose: number[];
  code: number[];
  daemonRss: number;
  cpuPerQuery: number;
}

async function main(): Promise<void> {
  const sizes = (flag('sizes') ?? '30,150,1000').split(',').map(Number).sort((a, b) => a - b);
  const dir = path.resolve(flag('dir') ?? path.join(os.tmpdir(), 'allot-scale'));
  const nQueries = Number(flag('queries') ?? 100);
  const store = path.join(dir, 'packages');
  fs.mkdirSync(store, { recursive: true });
  console.log(machine('allot scale benchmark'));
  const rows: Row[] = [];
  for (const size of sizes) {
    const repo = path.join(dir, `corpus-${size}`);
    fs.rmSync(repo, { recursive: true, force: true });
    const made = assemble(repo, size * MB, store);
    console.log(`\n${size} MB: ${made.files} files, ${(made.bytes / MB).toFixed(1)} MB from ${made.packages.join(', ')}`);
    const db = path.join(repo, '.allot/index.db');
    const cold = await measure(process.execPath, [BIN, 'index', repo, '--json'], process.env, progressEvery(60_000));
    if (cold.code !== 0) throw new Error(`allot index failed: ${cold.stderr.slice(-2000)}`);
    const rerun = await measure(process.execPath, [BIN, 'index', repo, '--json']);
    const summary = JSON.parse(cold.stdout) as { objects: number; views: number; files: number; parsed: number; restored: number };
    const dbMb = sizeOf(db) / MB;
    console.log(`  cold index ${cold.seconds.toFixed(1)} s, ${cpuOf(cold.stderr).toFixed(1)} CPU-s, peak RSS ${cold.peakRssMb.toFixed(0)} MB; ${summary.files} files (${summary.parsed} parsed, ${summary.restored} restored: content seen under another path), ${summary.objects} objects, ${summary.views} views; database ${dbMb.toFixed(0)} MB (${(dbMb / (made.bytes / MB)).toFixed(2)}x the source)`);
    console.log(`  no-change re-run ${rerun.seconds.toFixed(2)} s, ${cpuOf(rerun.stderr).toFixed(2)} CPU-s`);

    const reader = openStore(db, { readonly: true });
    const prose = drawQueries(reader, nQueries);
    // A query over the documented maximum is refused with 400 by design: such tasks are left out and counted (as bench:load does).
    const drawn = generateCrossfileTasks(reader, { repo: '.', max: nQueries, seed: 7 }).map((t) => t.query);
    const code = drawn.filter((q) => q.length <= MAX_QUERY_CHARS);
    if (code.length < drawn.length) console.log(`  ${drawn.length - code.length} code queries over ${MAX_QUERY_CHARS} characters left out`);
    reader.close();
    const daemon = await serveDaemon(repo);
    const times: Record<'prose' | 'code', number[]> = { prose: [], code: [] };
    let cpuPerQuery = NaN;
    let daemonRss = NaN;
    try {
      await idle(daemon.client);
      // The query threads build their structures after the start-up run: the daemon is warm once a few queries ran.
      await warmUp(daemon.client, [...prose.slice(0, 5), ...code.slice(0, 5)].map((q) => `${q} `));
      const cpu0 = cpuSeconds(daemon.pid);
      for (const [kind, qs] of [['prose', prose], ['code', code]] as const) {
        for (const q of qs) {
          const t0 = performance.now();
          await daemon.client.context({ query: q });
          times[kind].push(performance.now() - t0);
        }
      }
      cpuPerQuery = ((cpuSeconds(daemon.pid) - cpu0) * 1000) / (prose.length + code.length);
      daemonRss = rssMb(daemon.pid);
    } finally {
      await daemon.stop();
    }
    const line = (t: number[]) => `p50 ${percentile(t, 50).toFixed(1)} ms, p99 ${percentile(t, 99).toFixed(1)} ms`;
    console.log(`  context (daemon, each query new): prose ${line(times.prose)} (${prose.length}); code ${line(times.code)} (${code.length}); daemon CPU ${cpuPerQuery.toFixed(1)} ms per query, RSS ${daemonRss.toFixed(0)} MB`);
    rows.push({
      mb: made.bytes / MB, files: summary.files, coldSeconds: cold.seconds, coldCpu: cpuOf(cold.stderr), peakMb: cold.peakRssMb, dbMb,
      rerunSeconds: rerun.seconds, rerunCpu: cpuOf(rerun.stderr), prose: times.prose, code: times.code, daemonRss, cpuPerQuery,
    });
  }

  console.log('\n| source | files | cold s | cold CPU-s | CPU-s per MB (vs smallest) | peak RSS | database | no-change re-run | context prose p50 / p99 | code p50 / p99 | daemon RSS |');
  console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  const base = rows[0].coldCpu / rows[0].mb;
  for (const r of rows) {
    const perMb = r.coldCpu / r.mb;
    console.log(`| ${r.mb.toFixed(0)} MB | ${r.files} | ${r.coldSeconds.toFixed(1)} | ${r.coldCpu.toFixed(1)} | ${perMb.toFixed(2)} (${(perMb / base).toFixed(2)}x) | ${r.peakMb.toFixed(0)} MB | ${r.dbMb.toFixed(0)} MB | ${r.rerunSeconds.toFixed(2)} s | ${percentile(r.prose, 50).toFixed(1)} / ${percentile(r.prose, 99).toFixed(1)} ms | ${percentile(r.code, 50).toFixed(1)} / ${percentile(r.code, 99).toFixed(1)} ms | ${r.daemonRss.toFixed(0)} MB |`);
  }
  const largest = rows.at(-1)!;
  if (largest.mb >= 900) {
    const ratio = largest.coldCpu / largest.mb / base;
    const p50 = percentile([...largest.prose, ...largest.code], 50);
    printGoals('goals at 1 GB (issue 19):', [
      [`cold CPU linear in size within 20% (${ratio.toFixed(2)}x the smallest corpus's per MB)`, ratio >= 0.8 && ratio <= 1.2],
      [`peak RSS <= 1 GB (${largest.peakMb.toFixed(0)} MB)`, largest.peakMb <= 1024],
      [`context p50 <= 30 ms (${p50.toFixed(1)} ms)`, p50 <= 30],
    ]);
  }
}

await main();
