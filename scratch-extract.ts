import path from 'node:path';
import { extractFile } from './indexer/extract/extract-file.ts';
import { getTokenizer } from './indexer/tokenizer.ts';
const file = path.resolve(process.argv[2]);
const out = await extractFile(path.dirname(file), path.basename(file), getTokenizer(), { maxFileBytes: 1 << 20 });
if (out.status !== 'extracted') { console.log(out); process.exit(1); }
const f = out.file;
console.log('parseErrors', f.parseErrors, f.warnings);
f.objects.forEach((o, i) => console.log(`${i} ${o.kind} ${o.qualifiedName} ${o.startLine}-${o.endLine} p=${o.parent} sig=${JSON.stringify(o.signature)}${o.docstring ? ' doc=' + JSON.stringify(o.docstring) : ''}`));
if (process.argv.includes('-v')) f.views.forEach((v) => console.log(`  view ${v.object} ${v.kind} ${v.startLine}-${v.endLine}`));
for (const r of f.references) console.log(`  ref ${r.source} ${r.kind} ${r.name} q=${r.qualifier} m=${r.module} a=${r.alias} L${r.line}`);
