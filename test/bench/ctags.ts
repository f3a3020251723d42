// Reference measurement: run Universal Ctags over a corpus root and report how long it took,
// its peak memory, and how many tags it wrote.
//
//   ctags -R --fields=+n -f <tmpfile> <root>     run under /usr/bin/time -v
//
// Corpora and the tools (universal-ctags, GNU time) come from test/bench/corpora.sh.
// CLI: npx tsx test/bench/ctags.ts ROOT [ROOT...]   prints one JSON line per root.
import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { access, constants, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { cpuSecondsOf } from './measure.ts';

export interface CtagsResult {
  /** Wall-clock seconds around the spawn of `/usr/bin/time -v ctags ...`. */
  seconds: number;
  /** User plus system CPU seconds. */
  cpuSeconds: number;
  /** ctags' peak resident set size in MiB ("Maximum resident set size" / 1024). */
  peakRssMb: number;
  /** Tag lines in the tags file (lines not starting with the `!_` pseudo-tag prefix). */
  tags: number;
  /** Size of the tags file in bytes. */
  tagsFileBytes: number;
}

const TIME_BIN = '/usr/bin/time';
const CTAGS_BIN = 'ctags';
const INSTALL_CTAGS_HINT =
  'install universal-ctags: apt-get install universal-ctags, or run test/bench/corpora.sh';
const INSTALL_TIME_HINT =
  'install GNU time: apt-get install time, or run test/bench/corpora.sh';

interface ProcOutput {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function run(cmd: string, args: string[], cwd?: string): Promise<ProcOutput> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.once('error', reject);
    child.once('close', (code, signal) => resolvePromise({ code, signal, stdout, stderr }));
  });
}

/** Throws a clear Error unless `ctags` (Universal Ctags) and /usr/bin/time are usable. */
async function checkTools(): Promise<void> {
  let version: ProcOutput;
  try {
    version = await run(CTAGS_BIN, ['--version']);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new Error(`ctags is not installed; ${INSTALL_CTAGS_HINT}`);
    throw err;
  }
  if (version.code !== 0 || !version.stdout.includes('Universal Ctags')) {
    throw new Error(
      `\`ctags\` on PATH is not Universal Ctags (${version.stdout.split('\n')[0] || 'no version output'}); ${INSTALL_CTAGS_HINT}`,
    );
  }
  try {
    await access(TIME_BIN, constants.X_OK);
  } catch {
    throw new Error(`${TIME_BIN} is missing; ${INSTALL_TIME_HINT}`);
  }
}

/** Parses GNU time -v's "Maximum resident set size (kbytes): N" into KiB. */
function parseMaxRssKb(stderr: string): number {
  const m = /Maximum resident set size \(kbytes\):\s*(\d+)/.exec(stderr);
  if (!m) throw new Error(`could not find "Maximum resident set size" in ${TIME_BIN} -v output:\n${tail(stderr)}`);
  return Number(m[1]);
}

function tail(text: string, lines = 20): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

async function countTags(file: string): Promise<number> {
  const rl = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  let n = 0;
  for await (const line of rl) {
    if (line.length > 0 && !line.startsWith('!_')) n++;
  }
  return n;
}

/**
 * Runs `ctags -R --fields=+n -f <tmpfile> <root>` under `/usr/bin/time -v` and measures it.
 * The tags file is written to a fresh temp dir, which is removed afterwards.
 */
export async function runCtags(root: string): Promise<CtagsResult> {
  const absRoot = resolve(root);
  try {
    await stat(absRoot);
  } catch {
    throw new Error(`corpus root does not exist: ${absRoot} (run test/bench/corpora.sh)`);
  }
  await checkTools();

  const dir = await mkdtemp(join(tmpdir(), 'allot-ctags-'));
  const tagsFile = join(dir, 'tags');
  try {
    const t0 = performance.now();
    // cwd = the empty temp dir, so no project-local .ctags.d/ options are picked up.
    const out = await run(TIME_BIN, ['-v', CTAGS_BIN, '-R', '--fields=+n', '-f', tagsFile, absRoot], dir);
    const seconds = (performance.now() - t0) / 1000;
    if (out.code !== 0) {
      const how = out.signal ? `signal ${out.signal}` : `exit code ${out.code}`;
      if (out.code === 127) throw new Error(`ctags could not be run (${how}); ${INSTALL_CTAGS_HINT}\n${tail(out.stderr)}`);
      throw new Error(`ctags failed on ${absRoot} (${how}):\n${tail(out.stderr)}`);
    }
    const peakRssMb = parseMaxRssKb(out.stderr) / 1024;
    const tagsFileBytes = (await stat(tagsFile)).size;
    const tags = await countTags(tagsFile);
    return { seconds, cpuSeconds: cpuSecondsOf(out.stderr), peakRssMb, tags, tagsFileBytes };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const entry = process.argv[1];
if (entry && import.meta.url === pathToFileURL(resolve(entry)).href) {
  const roots = process.argv.slice(2);
  if (roots.length === 0) {
    console.error('usage: tsx test/bench/ctags.ts ROOT [ROOT...]');
    process.exit(2);
  }
  for (const root of roots) {
    const r = await runCtags(root);
    console.log(JSON.stringify({ root: resolve(root), ...r }));
  }
}
