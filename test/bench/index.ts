// Benchmark of `allot index` against `ctags -R` and `repomix --compress` on the same trees (not a test).
//
//   npm run bench:index -- DIR [DIR...]      (corpora: bash test/bench/corpora.sh)
//
// For each tree: a cold run into a fresh database and a no-change re-run, each
// as a real `allot index` process under GNU time (CPU seconds and peak RSS cover the
// worker threads), then `ctags -R` and `repomix --compress` on the same tree as the
// peers, with the ratios of this run. repomix is `$REPOMIX` or `repomix` on PATH
// (install it outside the project, e.g. `npm install --prefix /tmp/peers repomix`).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCtags } from './ctags.ts';
import { measure, type Measured } from './measure.ts';

const BIN = fileURLToPath(new URL('../../client/bin/allot.js', import.meta.url));

interface Run {
  seconds: number;
  cpuSeconds: number;
  peakRssMb: number;
  files: number;
  parsed: number;
  objects: number;
  views: number;
  references: number;
  mb: number;
  dbMb: number;
  phases: Record<string, number>;
}

function dirBytes(files: string[], root: string): number {
  return files.reduce((n, f) => n + fs.statSync(path.join(root, f)).size, 0);
}

async function allotIndex(root: string, db: string): Promise<Run> {
  const m = await measure(process.execPath, [BIN, 'index', root, '--db', db, '--json']);
  if (m.code !== 0) throw new Error(`allot index failed (${m.code}):\n${m.stderr.slice(-2000)}`);
  const s = JSON.parse(m.stdout);
  const { default: Database } = await import('better-sqlite3');
  const conn = new Database(db, { readonly: true });
  const paths = (conn.prepare('SELECT path FROM files').all() as { path: string }[]).map((r) => r.path);
  conn.close();
  const dbBytes = ['', '-wal', '-shm'].reduce((n, ext) => n + (fs.existsSync(db + ext) ? fs.statSync(db + ext).size : 0), 0);
  return {
    seconds: m.seconds, cpuSeconds: m.cpuSeconds, peakRssMb: m.peakRssMb, files: s.files, parsed: s.parsed, objects: s.objects, views: s.views,
    references: s.references, mb: dirBytes(paths, root) / 1e6, dbMb: dbBytes / 1e6, phases: s.phases,
  };
}

function line(label: string, r: Run): string {
  return `  ${label.padEnd(10)} ${r.seconds.toFixed(2).padStart(7)} s  ${r.cpuSeconds.toFixed(2).padStart(7)} CPU-s  ${(r.files / r.seconds).toFixed(0).padStart(6)} files/s  ${(r.mb / r.seconds).toFixed(2).padStart(6)} MB/s  ${(r.objects / r.seconds).toFixed(0).padStart(7)} objects/s  peak RSS ${r.peakRssMb.toFixed(0)} MB  db ${r.dbMb.toFixed(1)} MB  (parsed ${r.parsed}/${r.files} files, ${r.objects} objects, ${r.views} views, ${r.references} refs; phases ${Object.entries(r.phases).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ')})`;
}

/** `repomix --compress` on a tree (the Node peer that parses every file with tree-sitter wasm and counts tokens). */
async function runRepomix(root: string, tmp: string): Promise<Measured> {
  const bin = process.env.REPOMIX ?? 'repomix';
  const m = await measure(bin, ['--compress', '--quiet', '-o', path.join(tmp, 'repomix.xml'), root]);
  if (m.code !== 0) throw new Error(`${bin} failed (${m.code}): ${m.stderr.split('\n').find((l) => l.trim()) ?? ''} (set REPOMIX to its path)`);
  return m;
}

async function main(dirs: string[]) {
  if (!dirs.length) {
    console.error('usage: npm run bench:index -- DIR [DIR...]   (get corpora with: bash test/bench/corpora.sh)');
    process.exit(2);
  }
  console.log(`allot index benchmark — ${os.cpus().length} cores (${os.cpus()[0]?.model}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, node ${process.version}`);
  for (const dir of dirs) {
    const root = path.resolve(dir);
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'allot-bench-'));
    const db = path.join(tmp, 'index.db');
    try {
      const cold = await allotIndex(root, db);
      const warm = await allotIndex(root, db);
      let ref = '';
      try {
        const c = await runCtags(root);
        ref = `  ${'ctags -R'.padEnd(10)} ${c.seconds.toFixed(2).padStart(7)} s  ${c.cpuSeconds.toFixed(2).padStart(7)} CPU-s  peak RSS ${c.peakRssMb.toFixed(0)} MB  ${c.tags} tags  (allot cold / ctags: ${(cold.cpuSeconds / c.cpuSeconds).toFixed(1)}x CPU, ${(cold.seconds / c.seconds).toFixed(1)}x time, ${(cold.objects / c.tags).toFixed(2)}x objects per tag)`;
      } catch (err) {
        ref = `  ctags -R   not measured: ${(err as Error).message}`;
      }
      let repomix = '';
      try {
        const r = await runRepomix(root, tmp);
        repomix = `  ${'repomix'.padEnd(10)} ${r.seconds.toFixed(2).padStart(7)} s  ${r.cpuSeconds.toFixed(2).padStart(7)} CPU-s  peak RSS ${r.peakRssMb.toFixed(0)} MB  (--compress; allot cold / repomix: ${(cold.cpuSeconds / r.cpuSeconds).toFixed(2)}x CPU, ${(cold.seconds / r.seconds).toFixed(2)}x time)`;
      } catch (err) {
        repomix = `  repomix    not measured: ${(err as Error).message}`;
      }
      console.log(`\n${root}  (${cold.files} files, ${cold.mb.toFixed(1)} MB indexed)`);
      console.log(line('cold', cold));
      console.log(line('no-change', warm));
      console.log(ref);
      console.log(repomix);
      console.log(`  database   ${(cold.dbMb / cold.mb).toFixed(2)}x the source (${cold.dbMb.toFixed(1)} MB for ${cold.mb.toFixed(1)} MB)`);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  }
}

await main(process.argv.slice(2));
