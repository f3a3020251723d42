// Instructions per MB of one language's extraction, or of its grammar's parse alone, counted by callgrind (not a test):
// repeatable on a loaded machine, where CPU-seconds are not.
//
//   valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file=/tmp/x.out \
//     node --import tsx test/bench/extract-instructions.ts LANGUAGE MB DIR... [--parse]
//
// Takes the language's files of DIR... (each at most 100 KB, so one generated file does not decide the figure) up
// to MB megabytes, extracts them once untimed (the grammar's and the code's first use), then switches callgrind's
// counting on (`callgrind_control -i on`) for one more pass and off after it; valgrind's `I refs` line is the count.
// `--parse` counts the grammar's parse of the same texts (repaired as extraction repairs them) instead.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { discoverFiles } from '../../indexer/discover.ts';
import { DEFAULT_MAX_FILE_BYTES, extractFile } from '../../indexer/extract/extract-file.ts';
import { languageOf, loadLanguage } from '../../indexer/languages/registry.ts';
import { CODE_LANGUAGES, type CodeLanguage } from '../../indexer/types.ts';

const args = process.argv.slice(2);
const parseOnly = args.includes('--parse');
const [language, maxMb, ...dirs] = args.filter((a) => a !== '--parse');
if (!CODE_LANGUAGES.includes(language as CodeLanguage) || !(Number(maxMb) > 0) || dirs.length === 0) {
  console.error('usage: extract-instructions.ts LANGUAGE MB DIR... [--parse]');
  process.exit(2);
}
// Under valgrind a parse runs some 50x slower: the parse budget's wall-clock backstop could end a heavy parse early
// and count less work than a real extraction does. Time stands still for this process.
performance.now = () => 0;

const lang = await loadLanguage(language as CodeLanguage);
const files: { root: string; rel: string; text: string }[] = [];
let bytes = 0;
for (const dir of dirs) {
  const root = path.resolve(dir);
  for (const rel of discoverFiles(root, { maxFileBytes: DEFAULT_MAX_FILE_BYTES }).files) {
    if (bytes >= Number(maxMb) * 1e6) break;
    const text = fs.readFileSync(path.join(root, rel), 'utf8');
    if (text.length > 100_000 || languageOf(rel, text) !== language) continue;
    files.push({ root, rel, text });
    bytes += Buffer.byteLength(text);
  }
}

async function pass(): Promise<void> {
  for (const f of files) {
    if (!parseOnly) await extractFile(f.root, f.rel, { maxFileBytes: DEFAULT_MAX_FILE_BYTES });
    else {
      lang.parser.reset();
      lang.parser.parse(lang.spec.repair?.(f.text) ?? f.text)?.delete();
    }
  }
}

await pass();
execFileSync('callgrind_control', ['-i', 'on', String(process.pid)], { stdio: 'ignore' });
await pass();
execFileSync('callgrind_control', ['-i', 'off', String(process.pid)], { stdio: 'ignore' });
console.log(`${language} ${parseOnly ? 'parse' : 'extraction'}: ${files.length} files, ${bytes} bytes (instructions: valgrind's "I refs" below)`);
