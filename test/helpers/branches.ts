// Trees that branch: a Python package whose modules import, re-export and call each other, and the edits that
// make one branch of it from another (what a checkout then rewrites, creates, deletes or moves).
import fs from 'node:fs';
import path from 'node:path';
import { git, writeTree } from './repo.ts';

export type Tree = Record<string, string>;

const WORDS = ['parse', 'config', 'token', 'render', 'cache', 'price', 'cart', 'node', 'tree', 'walk', 'load', 'save', 'user', 'page'];
const pick = <T>(rand: () => number, xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];

/** Names a module defines at top level (functions and classes), read back from its text. */
function definedNames(text: string): string[] {
  return [...text.matchAll(/^(?:def|class) (\w+)/gm)].map((m) => m[1]);
}

function moduleText(rand: () => number, m: number, deps: { module: string; name: string }[]): string {
  const word = () => pick(rand, WORDS);
  const lines = [`"""Module ${m}: ${word()} and ${word()}."""`];
  for (const [i, d] of deps.entries()) {
    // Plain imports, aliases and imports of a module, as people write them.
    if (i % 3 === 1) lines.push(`from ${d.module} import ${d.name} as ${d.name}_alias`);
    else lines.push(`from ${d.module} import ${d.name}`);
  }
  lines.push('', '');
  const cls = `${word()[0].toUpperCase()}${word()}${m}`;
  lines.push(`class ${cls}:`, `    """A ${word()} of ${word()}."""`, '');
  lines.push(`    def ${word()}_step(self, value):`, `        return self.finish(value) + ${m}`, '');
  lines.push(`    def finish(self, value):`, `        return value`, '');
  // Some names repeat across modules (resolved by import), some are unique (resolved by name).
  const fns = Array.from({ length: 2 + Math.floor(rand() * 3) }, (_, i) => (i === 0 ? `${word()}_${word()}` : `${word()}_${m}_${i}`));
  for (const fn of fns) {
    const d = deps.length ? pick(rand, deps.map((x, i) => (i % 3 === 1 ? `${x.name}_alias` : x.name))) : null;
    lines.push('', `def ${fn}(${word()}, ${word()}):`, `    """${word()} the ${word()}."""`);
    lines.push(d ? `    return ${d}(${m}, ${cls}().finish(1))` : `    return ${cls}().finish(${m})`);
  }
  return lines.join('\n') + '\n';
}

/** A package of `modules` modules (`pkg/mod<i>.py`), a re-exporting `__init__`, tests and a README. */
export function branchingPackage(rand: () => number, modules: number): Tree {
  const tree: Tree = {};
  for (let m = 0; m < modules; m++) {
    const deps = m === 0 ? [] : Array.from({ length: 1 + Math.floor(rand() * 3) }, () => {
      const dep = Math.floor(rand() * m);
      return { module: `.mod${dep}`, name: pick(rand, definedNames(tree[`pkg/mod${dep}.py`])) };
    });
    tree[`pkg/mod${m}.py`] = moduleText(rand, m, deps);
  }
  tree['pkg/__init__.py'] = `from .mod0 import *\nfrom .mod1 import ${definedNames(tree['pkg/mod1.py'])[1] ?? 'x'} as exported\n`;
  tree['tests/test_pkg.py'] = `from pkg import exported\nfrom pkg.mod2 import ${definedNames(tree['pkg/mod2.py'])[1]}\n\n\ndef test_it():\n    assert exported(1, 2)\n    assert ${definedNames(tree['pkg/mod2.py'])[1]}(1, 2)\n`;
  tree['README.md'] = `# pkg\n\n${Array.from({ length: 40 }, () => pick(rand, WORDS)).join(' ')}\n`;
  return tree;
}

/** An edit inside bodies and docstrings of one module: no name comes or goes. */
export function editBody(tree: Tree, file: string, rand: () => number): string {
  tree[file] = tree[file].replace(/return value( \* \d+)?\n/, `return value * ${1 + Math.floor(rand() * 100)}\n`).replace(/"""Module (\d+)/, `"""Module $1 (${pick(rand, WORDS)})`);
  return `edited ${file}`;
}

/** One edit that makes a branch: rename or delete a definition, edit a body, add, delete or move a module, change the re-export. */
export function branchEdit(tree: Tree, rand: () => number): string {
  const modules = Object.keys(tree).filter((p) => /^pkg\/.*mod\d+\.py$/.test(p)).sort();
  const file = pick(rand, modules);
  const op = rand();
  if (op < 0.2) {
    const name = pick(rand, definedNames(tree[file]));
    const to = `${name}_v${Math.floor(rand() * 1000)}`;
    tree[file] = tree[file].replace(new RegExp(`\\b${name}\\b`, 'g'), to);
    return `renamed ${name} to ${to} in ${file}`;
  }
  if (op < 0.4) return editBody(tree, file, rand);
  if (op < 0.55) {
    const fns = [...tree[file].matchAll(/\n\ndef (\w+)\(.*\n.*\n.*\n/g)];
    if (fns.length > 1) {
      tree[file] = tree[file].replace(fns.at(-1)![0], '\n');
      return `deleted ${fns.at(-1)![1]} from ${file}`;
    }
  }
  if (op < 0.7) {
    const n = modules.length + Math.floor(rand() * 1000);
    const dep = pick(rand, modules);
    tree[`pkg/mod${n}.py`] = moduleText(rand, n, [{ module: `.${path.basename(dep, '.py')}`, name: pick(rand, definedNames(tree[dep])) }]);
    return `added pkg/mod${n}.py`;
  }
  if (op < 0.8 && modules.length > 4) {
    delete tree[file];
    return `deleted ${file}`;
  }
  if (op < 0.9) {
    // A move keeps the content: what imported the old path no longer finds it.
    const to = `pkg/moved/${path.basename(file)}`;
    if (!tree[to]) {
      tree[to] = tree[file];
      delete tree[file];
      return `moved ${file} to ${to}`;
    }
  }
  const source = pick(rand, modules);
  tree['pkg/__init__.py'] = `from .mod0 import *\nfrom .${path.basename(source, '.py')} import ${pick(rand, definedNames(tree[source]))} as exported\n`;
  return `re-exported from ${source}`;
}

/** Commits `tree` as the whole content of a new branch `name` (made from the current one). */
export function commitBranch(repo: string, name: string, tree: Tree): void {
  git(repo, 'checkout', '-q', '-B', name);
  for (const entry of fs.readdirSync(repo)) if (entry !== '.git' && entry !== '.allot') fs.rmSync(path.join(repo, entry), { recursive: true, force: true });
  writeTree(repo, tree);
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '--allow-empty', '-m', name);
}

/** Branch `b` rewrites every module of `pkg/` (one line appended to each, committed); `a` is checked out again. */
export function rewriteEveryModule(repo: string): void {
  git(repo, 'checkout', '-q', 'b');
  for (const f of fs.readdirSync(path.join(repo, 'pkg'))) fs.appendFileSync(path.join(repo, 'pkg', f), '\n# on b\n');
  git(repo, 'commit', '-q', '-am', 'b rewrites');
  git(repo, 'checkout', '-q', 'a');
}
