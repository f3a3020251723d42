// `npm run bench:backends -- DIR...`: for every file of a language with a native grammar (Swift, Scala) under the
// given folders, the extraction (objects, views, references, error count) with the wasm grammar and with the native
// one, compared field by field, and each backend's extraction CPU per MB (one untimed pass first, then the best of
// `--repeat N`, default 2). A difference is printed with its file and the first differing entry; the exit code is 1
// when any file differs, so the run doubles as the full equality check the backends promise.
import fs from 'node:fs';
import path from 'node:path';
import { extractCode, type CodeExtraction } from '../../indexer/extract/extract-code.ts';
import { sourceLines } from '../../indexer/extract/source.ts';
import { LANGUAGE_SPECS, languageOf, loadLanguage, type LoadedLanguage } from '../../indexer/languages/registry.ts';
import type { CodeLanguage, ParseBackend } from '../../indexer/types.ts';

const args = process.argv.slice(2);
const repeatAt = args.indexOf('--repeat');
const repeat = repeatAt >= 0 ? Number(args.splice(repeatAt, 2)[1]) : 2;
const dirs = args;
if (dirs.length === 0) {
  console.error('usage: npm run bench:backends -- DIR... [--repeat N]');
  process.exit(2);
}

const NATIVE = new Set(Object.values(LANGUAGE_SPECS).filter((s) => s.native).map((s) => s.language));

function walk(dir: string, out: string[]): string[] {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory() && e.name !== '.git' && e.name !== 'node_modules') walk(p, out);
    else if (e.isFile()) out.push(p);
  }
  return out;
}

interface FileRow {
  rel: string;
  language: CodeLanguage;
  text: string;
  bytes: number;
}

const files: FileRow[] = [];
for (const dir of dirs) {
  for (const file of walk(dir, [])) {
    const language = languageOf(file);
    if (language === 'text' || !NATIVE.has(language)) continue;
    const text = fs.readFileSync(file, 'utf8');
    files.push({ rel: path.relative(dir, file), language, text, bytes: Buffer.byteLength(text) });
  }
}

const grammars = new Map<string, LoadedLanguage>();
for (const language of NATIVE) {
  for (const backend of ['wasm', 'native'] as ParseBackend[]) {
    const lang = await loadLanguage(language, backend);
    if (lang.backend !== backend) throw new Error(`${language}: the ${backend} grammar did not load`);
    grammars.set(`${language}:${backend}`, lang);
  }
}

function extract(f: FileRow, backend: ParseBackend): CodeExtraction | null {
  return extractCode(f.rel, sourceLines(f.text), grammars.get(`${f.language}:${backend}`)!);
}

/** The first entry where two extractions differ, or null. */
function firstDifference(a: CodeExtraction | null, b: CodeExtraction | null): string | null {
  if (a === null || b === null) return a === b ? null : `abandoned by ${a === null ? 'wasm' : 'native'} only`;
  if (a.parseErrors !== b.parseErrors) return `parse errors ${a.parseErrors} vs ${b.parseErrors}`;
  for (const key of ['objects', 'views', 'references'] as const) {
    const n = Math.max(a[key].length, b[key].length);
    for (let i = 0; i < n; i++) {
      const x = JSON.stringify(a[key][i]);
      const y = JSON.stringify(b[key][i]);
      if (x !== y) return `${key}[${i}]: wasm ${x?.slice(0, 200)} vs native ${y?.slice(0, 200)}`;
    }
  }
  return null;
}

let differing = 0;
const counts = { objects: 0, views: 0, references: 0 };
for (const f of files) {
  const wasm = extract(f, 'wasm');
  const native = extract(f, 'native');
  const diff = firstDifference(wasm, native);
  if (diff) {
    differing++;
    console.log(`DIFF ${f.rel}: ${diff}`);
  }
  for (const key of ['objects', 'views', 'references'] as const) counts[key] += wasm?.[key].length ?? 0;
}
console.log(
  `${files.length} files, ${differing} differ; compared ${counts.objects} objects, ${counts.views} views, ${counts.references} references`,
);

/** Extraction CPU-ms per MB of one language with one backend: best of `repeat` passes. */
function cpuPerMb(language: CodeLanguage, backend: ParseBackend): number {
  const mine = files.filter((f) => f.language === language);
  const mb = mine.reduce((s, f) => s + f.bytes, 0) / 1e6;
  let best = Infinity;
  for (let r = 0; r < repeat; r++) {
    const from = process.cpuUsage();
    for (const f of mine) extract(f, backend);
    const used = process.cpuUsage(from);
    best = Math.min(best, (used.user + used.system) / 1000 / mb);
  }
  return best;
}

console.log('| language | files | MB | wasm CPU ms/MB | native CPU ms/MB | native / wasm |');
console.log('|---|---:|---:|---:|---:|---:|');
for (const language of NATIVE) {
  const mine = files.filter((f) => f.language === language);
  if (mine.length === 0) continue;
  const mb = mine.reduce((s, f) => s + f.bytes, 0) / 1e6;
  const wasm = cpuPerMb(language, 'wasm');
  const native = cpuPerMb(language, 'native');
  console.log(`| ${language} | ${mine.length} | ${mb.toFixed(2)} | ${wasm.toFixed(0)} | ${native.toFixed(0)} | ${(native / wasm).toFixed(2)} |`);
}
process.exit(differing > 0 ? 1 : 0);
