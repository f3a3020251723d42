// Measurement of the arbitration gate on pairs built from real code (not a test).
//
//   npm run bench:arbitrate -- DIR [--functions 300] [--seed 1] [--db FILE] [--verbose]
//
// DIR is a Python tree (the SymPy corpus: bench-data/sympy/usr/lib/python3/dist-packages/sympy,
// from test/bench/corpora.sh). It is indexed into --db (reused when the file exists) or a temporary
// database. Functions are drawn with a seeded shuffle; each is damaged in the ways that apply to it:
//   arity    a call to a repository function or class gets one argument too many or too few,
//            judged against the callee's indexed signature (callee: the indexer's resolved reference);
//   misspell a call's repository name (resolved by the indexer) is misspelled into a name bound nowhere;
//   import   a function-local import whose name the function uses (and nothing else binds) is removed;
//   syntax   a `:` or closing bracket is deleted (the result must have a parse error);
// and reformatted (spaces after commas and around keyword `=`, a blank line, a trailing comment).
// Each pair runs in both orders with the function's file and symbol as `at`. A damaged pair should
// keep the original whichever side it is on; a formatting pair should abstain in both orders.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { SyntaxNode as Node } from '../../indexer/types.ts';
import { PYTHON_BUILTINS } from '../../allocator/arbitrate/builtins/python.ts';
import { arbitrate } from '../../allocator/arbitrate/gate.ts';
import { dedent } from '../../allocator/arbitrate/program.ts';
import { Repo } from '../../allocator/arbitrate/scope.ts';
import { functionParams, interfaceReport } from '../../allocator/arbitrate/interface.ts';
import { namesReport } from '../../allocator/arbitrate/names.ts';
import { callMismatch, type Params } from '../../allocator/arbitrate/signature.ts';
import type { Arbitration, WitnessType } from '../../allocator/arbitrate/types.ts';
import { indexRepository } from '../../indexer/index-repository.ts';
import { loadLanguage } from '../../indexer/languages/registry.ts';
import { storeArbitrateIndex } from '../../indexer/store/arbitrate-source.ts';
import { openStore, type DB } from '../../indexer/store/open.ts';
import { getObjects } from '../../indexer/store/read.ts';
import type { CodeObject } from '../../indexer/types.ts';
import { seededRandom } from '../../indexer/random.ts';

type Damage = 'arity' | 'misspell' | 'import' | 'syntax';
const DAMAGES: Damage[] = ['arity', 'misspell', 'import', 'syntax'];

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}

function shuffle<T>(list: T[], random: () => number): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

function applyEdits(text: string, edits: Edit[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

function descendants(root: Node, types: string[]): Node[] {
  return root.descendantsOfType(types).filter((n): n is Node => n !== null);
}

interface Fn {
  id: string;
  path: string;
  qualifiedName: string;
  text: string;
}

/** Parameters of the object a call reaches, by the index's own resolution (null when not checkable). */
function paramsOf(target: CodeObject, repo: Repo): { params: Params; via: 'instance' | 'plain' | 'constructor' } | null {
  if (target.kind === 'function' || target.kind === 'method') {
    const p = functionParams(target.signature, target.name, 'python', repo.decorators(target), target.kind === 'method');
    return p ? { params: p, via: target.kind === 'method' ? 'instance' : 'plain' } : null;
  }
  if (target.kind === 'class') {
    const inits = repo.index.members(target.id).filter((m) => m.name === '__init__');
    const p = inits.length === 1 ? functionParams(inits[0].signature, inits[0].name, 'python', repo.decorators(inits[0]), true) : null;
    return p ? { params: p, via: 'constructor' } : null;
  }
  return null;
}

interface Generator {
  db: DB;
  repo: Repo;
  parse(text: string): { root: Node; done(): void };
}

function arityDamage(fn: Fn, root: Node, g: Generator, random: () => number): string | null {
  const refs = g.db
    .prepare("SELECT r.name, r.qualifier, t.id AS targetId FROM refs r JOIN objects t ON t.key = r.target WHERE r.source = (SELECT key FROM objects WHERE id = ?) AND r.kind = 'call'")
    .all(fn.id) as { name: string; qualifier: string | null; targetId: string }[];
  const targets = getObjects(g.db, refs.map((r) => r.targetId));
  // A name the function binds itself (a parameter, a local import) is not what the index resolved it to.
  const own = g.repo.analyze(fn.text, 'python').bindings;
  const options: Edit[] = [];
  for (const call of descendants(root, ['call'])) {
    const f = call.childForFieldName('function');
    const args = call.childForFieldName('arguments');
    if (!f || args?.type !== 'argument_list') continue;
    const name = f.type === 'identifier' ? f.text : f.type === 'attribute' ? f.childForFieldName('attribute')?.text : undefined;
    const qualifier = f.type === 'attribute' ? f.childForFieldName('object')?.text ?? null : null;
    // The indexer's last resort (a name unique in the repository) also takes builtins for repository objects.
    if (!name || (qualifier !== null && qualifier !== 'self') || (qualifier === null && (PYTHON_BUILTINS.has(name) || own.has(name)))) continue;
    const ref = refs.find((r) => r.name === name && r.qualifier === qualifier);
    const target = ref ? targets.get(ref.targetId) : undefined;
    if (!target) continue;
    const p = paramsOf(target, g.repo);
    if (!p || (qualifier === null && target.kind === 'method')) continue;
    const items = args.namedChildren.filter((a) => a.type !== 'comment' && a.type !== 'line_continuation');
    if (items.some((a) => a.type === 'list_splat' || a.type === 'dictionary_splat')) continue;
    const positional = items.filter((a) => a.type !== 'keyword_argument');
    const keywords = items.filter((a) => a.type === 'keyword_argument').map((a) => a.childForFieldName('name')?.text ?? '');
    const site = { line: 0, name, qualifier, positional: positional.length, keywords, spread: false, isNew: false, enclosingClass: null };
    if (callMismatch(p.params, site, p.via, 'python') !== null) continue; // already wrong: no ground truth
    const bound = p.params.positional;
    // One argument too many.
    if (!p.params.varPositional && positional.length + 1 > bound.length) {
      const last = positional.at(-1);
      options.push(
        last
          ? { start: last.endIndex, end: last.endIndex, text: ', None' }
          : { start: args.startIndex + 1, end: args.startIndex + 1, text: items.length ? 'None, ' : 'None' },
      );
    }
    // One too few: the last positional argument fills a required parameter nothing else fills.
    const k = positional.length - 1;
    if (k >= 0 && bound[k] && !bound[k].optional && !keywords.includes(bound[k].name)) {
      const i = items.indexOf(positional[k]);
      options.push(
        i > 0
          ? { start: items[i - 1].endIndex, end: items[i].endIndex, text: '' }
          : items.length > 1
            ? { start: items[0].startIndex, end: items[1].startIndex, text: '' }
            : { start: items[0].startIndex, end: items[0].endIndex, text: '' },
      );
    }
  }
  if (!options.length) return null;
  return applyEdits(fn.text, [options[Math.floor(random() * options.length)]]);
}

function misspellDamage(fn: Fn, root: Node, g: Generator, random: () => number, fileText: string): string | null {
  const resolved = new Set(
    (g.db.prepare("SELECT name FROM refs WHERE source = (SELECT key FROM objects WHERE id = ?) AND kind = 'call' AND qualifier IS NULL AND target IS NOT NULL").pluck().all(fn.id) as string[]),
  );
  const sites = descendants(root, ['call'])
    .map((c) => c.childForFieldName('function'))
    .filter((f): f is Node => f?.type === 'identifier' && resolved.has(f.text) && f.text.length >= 4);
  for (const site of shuffle(sites, random)) {
    const name = site.text;
    const i = 1 + Math.floor(random() * (name.length - 2));
    const variants = [name.slice(0, i) + name[i + 1] + name[i] + name.slice(i + 2), name.slice(0, i) + name.slice(i + 1), name.slice(0, i) + name[i] + name.slice(i)];
    for (const v of shuffle(variants, random)) {
      if (v === name || !/^[A-Za-z_]\w*$/.test(v) || PYTHON_BUILTINS.has(v)) continue;
      if (new RegExp(`\\b${v}\\b`).test(fileText) || g.repo.objectsNamed(v).length) continue;
      return applyEdits(fn.text, [{ start: site.startIndex, end: site.endIndex, text: v }]);
    }
  }
  return null;
}

function importDamage(fn: Fn, root: Node, g: Generator, random: () => number): string | null {
  const target = g.repo.target(fn.path, fn.qualifiedName);
  const original = g.repo.analyze(fn.text, 'python');
  const options: string[] = [];
  for (const imp of descendants(root, ['import_statement', 'import_from_statement'])) {
    if (imp.parent?.type !== 'block' || imp.parent.namedChildren.filter((c) => c.type !== 'comment').length < 2) continue;
    // The statement must be alone on its lines.
    const lineStart = fn.text.lastIndexOf('\n', imp.startIndex - 1) + 1;
    const lineEnd = fn.text.indexOf('\n', imp.endIndex);
    const end = lineEnd < 0 ? fn.text.length : lineEnd + 1;
    if (fn.text.slice(lineStart, imp.startIndex).trim() || fn.text.slice(imp.endIndex, end).trim().replace(/^#.*/, '')) continue;
    const damaged = applyEdits(fn.text, [{ start: lineStart, end, text: '' }]);
    const after = g.repo.analyze(damaged, 'python');
    const locals = original.imports.filter((r) => r.line === imp.startPosition.row + 1 && r.local).map((r) => r.local!);
    // The removal must unbind a name the function still reads, which neither the function nor its file binds otherwise.
    if (locals.some((l) => after.uses.has(l) && !after.bindings.has(l) && !target.facts.bindings.has(l) && !PYTHON_BUILTINS.has(l))) options.push(damaged);
  }
  return options.length ? options[Math.floor(random() * options.length)] : null;
}

const HEADER_PARENTS = new Set(['function_definition', 'if_statement', 'for_statement', 'while_statement', 'with_statement', 'try_statement', 'except_clause', 'elif_clause', 'else_clause', 'class_definition', 'finally_clause']);

function syntaxDamage(fn: Fn, root: Node, g: Generator, random: () => number): string | null {
  const tokens: Node[] = [];
  const walk = (n: Node) => {
    for (const c of n.children) {
      if (!c) continue;
      if (!c.isNamed && ((c.type === ':' && HEADER_PARENTS.has(n.type)) || ((c.type === ')' || c.type === ']' || c.type === '}') && n.type !== 'string'))) tokens.push(c);
      walk(c);
    }
  };
  walk(root);
  for (const t of shuffle(tokens, random).slice(0, 6)) {
    const damaged = applyEdits(fn.text, [{ start: t.startIndex, end: t.endIndex, text: '' }]);
    const parsed = g.parse(damaged);
    const broken = parsed.root.hasError;
    parsed.done();
    if (broken) return damaged;
  }
  return null;
}

function reformat(fn: Fn, root: Node): string | null {
  const edits: Edit[] = [];
  const walk = (n: Node) => {
    for (const c of n.children) {
      if (!c) continue;
      if (c.type === 'string' || c.type === 'comment') continue;
      if (!c.isNamed && c.type === ',') {
        const next = fn.text[c.endIndex];
        if (next === ' ') edits.push({ start: c.endIndex, end: c.endIndex + 1, text: '' });
        else if (next !== '\n' && next !== ')' && next !== ']' && next !== '}') edits.push({ start: c.endIndex, end: c.endIndex, text: ' ' });
      } else if (!c.isNamed && c.type === '=' && n.type === 'keyword_argument') edits.push({ start: c.startIndex, end: c.endIndex, text: ' = ' });
      walk(c);
    }
  };
  walk(root);
  const def = root.descendantsOfType('function_definition')[0];
  const body = def?.childForFieldName('body');
  if (body) {
    const lineStart = fn.text.lastIndexOf('\n', body.startIndex - 1) + 1;
    if (lineStart > 0) edits.push({ start: lineStart, end: lineStart, text: '\n' });
  }
  const last = fn.text.replace(/\s+$/, '');
  if (!last.endsWith('\\')) edits.push({ start: last.length, end: last.length, text: '  # reformatted' });
  return edits.length ? applyEdits(fn.text, edits) : null;
}

/** The lines that differ, for --verbose. */
function diffLines(a: string, b: string): string {
  const x = a.split('\n');
  const y = b.split('\n');
  let i = 0;
  while (i < x.length && x[i] === y[i]) i++;
  let j = 0;
  while (j < x.length - i && j < y.length - i && x[x.length - 1 - j] === y[y.length - 1 - j]) j++;
  return [...x.slice(i, x.length - j).map((l) => `- ${l}`), ...y.slice(i, y.length - j).map((l) => `+ ${l}`)].join('\n');
}

interface Tally {
  pairs: number;
  keptAsDefault: number;
  transferredToOriginal: number;
  falseTransfers: number;
  witnesses: Record<WitnessType, number>;
}

function tally(): Tally {
  return { pairs: 0, keptAsDefault: 0, transferredToOriginal: 0, falseTransfers: 0, witnesses: { syntax: 0, interface: 0, names: 0, compactness: 0 } };
}

async function main() {
  const dir = process.argv[2];
  if (!dir || dir.startsWith('--')) {
    console.error('usage: npm run bench:arbitrate -- DIR [--functions 300] [--seed 1] [--db FILE] [--verbose]');
    process.exit(2);
  }
  const root = path.resolve(dir);
  const n = Number(arg('functions') ?? 300);
  const seed = Number(arg('seed') ?? 1);
  const verbose = process.argv.includes('--verbose');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'allot-bench-arb-'));
  const dbFile = arg('db') ? path.resolve(arg('db')!) : path.join(tmp, 'index.db');
  try {
    if (!fs.existsSync(dbFile)) {
      process.stderr.write(`indexing ${root} ...\n`);
      const s = await indexRepository({ repo: root, db: dbFile });
      process.stderr.write(`indexed ${s.files} files, ${s.objects} objects in ${s.seconds.toFixed(1)} s\n`);
    }
    const db = openStore(dbFile, { readonly: true });
    const index = storeArbitrateIndex(db, { repoName: path.basename(root) });
    const repo = await Repo.of(index);
    const python = await loadLanguage('python');
    const g: Generator = {
      db,
      repo,
      parse(text) {
        python.parser.reset();
        const tree = python.parser.parse(text)!;
        return { root: tree.rootNode, done: () => tree.delete() };
      },
    };
    const rows = db
      .prepare(
        `SELECT o.id, f.path, o.qualified_name AS qualifiedName, o.start_line AS startLine, o.end_line AS endLine FROM objects o JOIN files f ON f.id = o.file_id
         WHERE f.language = 'python' AND o.kind IN ('function', 'method') AND o.end_line - o.start_line BETWEEN 2 AND 59
           AND f.path NOT LIKE '%tests/%' ORDER BY o.id`,
      )
      .all() as { id: string; path: string; qualifiedName: string; startLine: number; endLine: number }[];
    const key = (r: { path: string; qualifiedName: string }) => `${r.path}\0${r.qualifiedName}`;
    const counts = new Map<string, number>();
    for (const r of rows) counts.set(key(r), (counts.get(key(r)) ?? 0) + 1);
    const random = seededRandom(seed);
    const drawn = shuffle(rows.filter((r) => counts.get(key(r)) === 1), random);

    const byDamage = Object.fromEntries(DAMAGES.map((d) => [d, tally()])) as Record<Damage, Tally>;
    const formatting = { pairs: 0, abstained: 0, fired: { syntax: 0, interface: 0, names: 0, compactness: 0 } as Record<WitnessType, number> };
    const originals = { checked: 0, mismatches: 0, suspicious: 0, unjudged: 0 };
    let functions = 0;
    let skippedBroken = 0;
    let runs = 0;
    let ms = 0;
    const time = async (d: string, a: string, fn: Fn): Promise<Arbitration> => {
      const t = performance.now();
      const r = await arbitrate(d, a, { language: 'python', at: { path: fn.path, symbol: fn.qualifiedName } }, index);
      ms += performance.now() - t;
      runs++;
      return r;
    };
    for (const row of drawn) {
      if (functions >= n) break;
      const lines = repo.fileLines(row.path);
      if (!lines) continue;
      const fn: Fn = { id: row.id, path: row.path, qualifiedName: row.qualifiedName, text: dedent(lines.slice(row.startLine - 1, row.endLine).join('\n')) + '\n' };
      const parsed = g.parse(fn.text);
      try {
        if (parsed.root.hasError) {
          skippedBroken++;
          continue;
        }
        functions++;
        // What the witnesses say about the original alone, in its own place: false alarms on real code.
        const scope = { repo, language: 'python' as const, fromPath: fn.path, target: repo.target(fn.path, fn.qualifiedName) };
        const facts = repo.analyze(fn.text, 'python');
        const iface = interfaceReport(facts, scope, 'default');
        const names = namesReport(facts, scope, 'default');
        originals.checked += iface.checked;
        originals.mismatches += iface.mismatches.length;
        originals.suspicious += names.suspicious.length;
        if (names.unjudged) originals.unjudged++;
        if (verbose) for (const e of [...iface.mismatches, ...names.suspicious]) console.error(`--- original ${fn.path}:${fn.qualifiedName} line ${e.line}: ${e.detail}`);
        const fileText = lines.join('\n');
        const variants: Record<Damage, string | null> = {
          arity: arityDamage(fn, parsed.root, g, random),
          misspell: misspellDamage(fn, parsed.root, g, random, fileText),
          import: importDamage(fn, parsed.root, g, random),
          syntax: syntaxDamage(fn, parsed.root, g, random),
        };
        const formatted = reformat(fn, parsed.root);
        for (const d of DAMAGES) {
          const damaged = variants[d];
          if (damaged === null || damaged === fn.text) continue;
          const t = byDamage[d];
          t.pairs++;
          const asDefault = await time(fn.text, damaged, fn);
          if (asDefault.choice === 'default') t.keptAsDefault++;
          else t.falseTransfers++;
          const asAlternative = await time(damaged, fn.text, fn);
          if (verbose && (asAlternative.choice !== 'alternative' || asDefault.choice !== 'default')) {
            console.error(`--- ${d} ${fn.path}:${fn.qualifiedName}: ${asAlternative.reason} | as default: ${asDefault.reason}`);
            console.error(diffLines(fn.text, damaged));
          }
          if (asAlternative.choice === 'alternative') {
            t.transferredToOriginal++;
            for (const w of asAlternative.witnesses) if (w.direction === 'alternative') t.witnesses[w.type]++;
          }
        }
        if (formatted !== null) {
          const f = repo.analyze(formatted, 'python');
          const o = repo.analyze(fn.text, 'python');
          if (f.errorCount === 0 && f.tokens === o.tokens) {
            formatting.pairs++;
            for (const [d, a] of [[fn.text, formatted], [formatted, fn.text]]) {
              const r = await time(d, a, fn);
              if (r.choice === 'default') formatting.abstained++;
              for (const w of r.witnesses) if (w.direction !== 'none') formatting.fired[w.type]++;
            }
          }
        }
      } finally {
        parsed.done();
      }
    }
    db.close();

    const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)}%` : 'n/a');
    console.log(`arbitration on ${path.basename(root)}: ${functions} functions (seed ${seed}; ${skippedBroken} skipped: they do not parse alone), ${runs} arbitrations, ${(ms / Math.max(1, runs)).toFixed(1)} ms each`);
    console.log('');
    console.log('damage     pairs  kept as default  transferred to original  kept overall  false transfers  witnesses behind the transfers');
    let allPairs = 0;
    let allKept = 0;
    let correct = 0;
    let wrong = 0;
    for (const d of DAMAGES) {
      const t = byDamage[d];
      allPairs += t.pairs;
      allKept += t.keptAsDefault + t.transferredToOriginal;
      correct += t.transferredToOriginal;
      wrong += t.falseTransfers;
      const ws = Object.entries(t.witnesses).filter(([, v]) => v).map(([k, v]) => `${k} ${v}`).join(', ');
      console.log(
        `${d.padEnd(9)} ${String(t.pairs).padStart(6)}  ${pct(t.keptAsDefault, t.pairs).padStart(15)}  ${pct(t.transferredToOriginal, t.pairs).padStart(23)}  ${pct(t.keptAsDefault + t.transferredToOriginal, 2 * t.pairs).padStart(12)}  ${String(t.falseTransfers).padStart(15)}  ${ws}`,
      );
    }
    const formattingTransfers = formatting.pairs * 2 - formatting.abstained;
    console.log(`${'all'.padEnd(9)} ${String(allPairs).padStart(6)}  ${''.padStart(15)}  ${''.padStart(23)}  ${pct(allKept, 2 * allPairs).padStart(12)}  ${String(wrong).padStart(15)}`);
    console.log('');
    console.log(
      `originals alone: ${originals.checked} calls checked against known signatures, ${originals.mismatches} mismatch(es); ${originals.suspicious} suspicious name(s); names not judgeable in ${originals.unjudged} function(s)`,
    );
    console.log(`formatting-only pairs: ${formatting.pairs} (both orders: ${formatting.pairs * 2} arbitrations), abstained ${pct(formatting.abstained, formatting.pairs * 2)}; witnesses fired: ${JSON.stringify(formatting.fired)}`);
    console.log(`transfers: ${correct + wrong + formattingTransfers}, to the original ${correct}, away from it ${wrong}, on formatting ${formattingTransfers}: precision ${pct(correct, correct + wrong + formattingTransfers)}`);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
