import fs from 'node:fs';
import { loadLanguage } from './indexer/languages/registry.ts';
import type { CodeLanguage } from './indexer/types.ts';
import type { Node } from 'web-tree-sitter';
const [lang, file] = process.argv.slice(2);
const L = await loadLanguage('python');
const { Parser, Language } = await import('web-tree-sitter');
import path from 'node:path';
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const dir = path.join(path.dirname(require.resolve('@vscode/tree-sitter-wasm/package.json')), 'wasm');
const g = await Language.load(path.join(dir, `tree-sitter-${lang}.wasm`));
const p = new Parser(); p.setLanguage(g);
const t = p.parse(fs.readFileSync(file, 'utf8'))!;
function pr(n: Node, ind: string, field: string | null) {
  const f = field ? field + ': ' : '';
  const txt = n.childCount === 0 ? ' ' + JSON.stringify(n.text) : '';
  if (n.isNamed || field) console.log(`${ind}${f}${n.isNamed ? n.type : JSON.stringify(n.type)}${txt} [${n.startPosition.row + 1}]`);
  for (let i = 0; i < n.childCount; i++) pr(n.child(i)!, ind + '  ', n.fieldNameForChild(i));
}
pr(t.rootNode, '', null);
