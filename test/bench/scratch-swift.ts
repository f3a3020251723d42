import fs from 'node:fs';
import path from 'node:path';
import { Language, Parser, Query } from 'web-tree-sitter';
import { extractCode } from '../../indexer/extract/extract-code.ts';
import { sourceLines } from '../../indexer/extract/source.ts';
import { loadLanguage, querySource, LANGUAGE_SPECS } from '../../indexer/languages/registry.ts';
const wasmFile = process.argv[2];
const dir = process.argv[3];
await Parser.init();
const spec = LANGUAGE_SPECS.swift;
const g = await Language.load(wasmFile);
const parser = new Parser(); parser.setLanguage(g);
const q = `${querySource('swift.scm')}\n[${spec.leading.map((t) => `(${t})`).join(' ')}] @leading`;
const wasm = { spec, backend: 'wasm' as const, parser, query: new Query(g, q) };
const native = await loadLanguage('swift', 'native');
const files: string[] = [];
(function walk(d: string) { for (const e of fs.readdirSync(d, { withFileTypes: true })) { const p = path.join(d, e.name); if (e.isDirectory()) walk(p); else if (p.endsWith('.swift')) files.push(p); } })(dir);
let differ = 0, objs = 0;
for (const f of files) {
  const src = sourceLines(fs.readFileSync(f, 'utf8'));
  const a = extractCode(f, src, wasm), b = extractCode(f, src, native);
  objs += a?.objects.length ?? 0;
  if (JSON.stringify(a) !== JSON.stringify(b)) { differ++; console.log('DIFF', f, a?.parseErrors, b?.parseErrors, a?.objects.length, b?.objects.length); }
}
console.log(files.length, 'files', differ, 'differ', objs, 'objects');
