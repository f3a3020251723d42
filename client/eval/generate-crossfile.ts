/**
 * Cross-file tasks from any indexed repository (the RepoBench setting used by
 * VITAL-RAG): a position whose next line uses, for the first time, a name the
 * file imports from another file of the same repository. The query is what a
 * completion model has there (the file's imports and up to 30 preceding lines).
 * What counts as the gold evidence is a convention (`GoldConvention`), and
 * yardsticks that disagree about it keep a method from fitting one of them:
 * - `head`: the imported definition's header and up to its first 15 lines;
 * - `whole`: the whole imported definition, for definitions longer than a head (16 to 60 lines);
 * - `member`: the next line calls a member of an imported class or module through a receiver
 *   (`C.m(`, `C(...).m(`, `x = C(...)` then `x.m(`, `mod.f(`): that member's first 15 lines;
 * - `member-signature`: the same tasks, gold = the member's signature lines alone.
 * The gold never lies inside the query: its declaration line is not one of the query's lines.
 *
 * Everything comes from the index: import references (`refs`, kind 'import')
 * with their resolved `target_id`, object spans, and the indexed file texts.
 */
import type { DB } from '../../indexer/store/open.ts';
import { fileText, getObjects } from '../../indexer/store/read.ts';
import type { CodeObject, Language, ObjectKind } from '../../indexer/types.ts';
import { sampleIndices, seededRandom } from './random.ts';
import { instanceBinding, memberCalls } from './member-calls.ts';
import { codeMask, statementEnd, useColumn } from './source-scan.ts';
import type { CrossfileTask } from './tasks.ts';

export const GOLD_CONVENTIONS = ['head', 'whole', 'member', 'member-signature'] as const;
export type GoldConvention = (typeof GOLD_CONVENTIONS)[number];

/** Lines before the position given as query (besides the imports). */
export const QUERY_WINDOW_LINES = 30;
/** Gold: the definition's first lines (its header included). */
export const GOLD_LINES = 15;
/** `whole` gold: definitions longer than a head and at most this long (a longer one is not shown whole at 4K). */
export const WHOLE_MAX_LINES = 60;
export const DEFAULT_MAX_TASKS = 500;
export const DEFAULT_SEED = 1;

/** What an imported name must resolve to for a task: a definition, not a module or a text file. */
const DEFINITION_KINDS = new Set<ObjectKind>(['class', 'interface', 'struct', 'enum', 'trait', 'type', 'function', 'method', 'constant']);
/** What a `member` task's receiver may stand for: a class-like definition, or a module imported whole. */
const RECEIVER_KINDS = new Set<ObjectKind>(['class', 'interface', 'struct', 'enum', 'trait', 'module']);

interface ImportRow {
  path: string;
  language: Language;
  name: string;
  alias: string | null;
  module: string | null;
  line: number;
  targetId: string | null;
  /** The import is written at the top level of its file (its source object is the module). */
  topLevel: number;
}

export interface GenerateOptions {
  /** The repository's folder relative to the tasks' root (the `repo` field). */
  repo: string;
  max?: number;
  seed?: number;
  /** What the gold evidence is (default `head`). */
  gold?: GoldConvention;
}

/** Every candidate task of the index, sorted by path and line (before sampling). */
export function crossfileCandidates(db: DB, repo: string, gold: GoldConvention = 'head'): CrossfileTask[] {
  const rows = db
    .prepare(
      `SELECT f.path, f.language, r.name, r.alias, r.module, r.line, t.id AS targetId, (o.kind = 'module') AS topLevel
       FROM refs r JOIN objects o ON o.key = r.source JOIN files f ON f.id = o.file_id LEFT JOIN objects t ON t.key = r.target
       WHERE r.kind = 'import' ORDER BY f.path, r.line, r.id`,
    )
    .all() as ImportRow[];
  const byFile = new Map<string, ImportRow[]>();
  for (const r of rows) {
    const list = byFile.get(r.path);
    if (list) list.push(r);
    else byFile.set(r.path, [r]);
  }
  const targets = getObjects(db, [...new Set(rows.map((r) => r.targetId).filter((t): t is string => t !== null))]);
  const memberOf = db.prepare('SELECT id FROM objects WHERE parent = (SELECT key FROM objects WHERE id = ?) AND name = ? ORDER BY start_line LIMIT 1').pluck();
  const signatureOf = db.prepare("SELECT start_line AS startLine, end_line AS endLine FROM views WHERE object = (SELECT key FROM objects WHERE id = ?) AND kind = 'signature' AND derived = 0 LIMIT 1");
  const members = gold === 'member' || gold === 'member-signature';
  const tasks: CrossfileTask[] = [];
  for (const [path, imports] of byFile) {
    const text = fileText(db, path);
    if (text === null) continue;
    const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
    const masked = codeMask(text, imports[0].language);
    // Import statements: their lines never count as uses; top-level ones are part of the query.
    const spans = new Map<number, number>();
    for (const r of imports) if (!spans.has(r.line)) spans.set(r.line, statementEnd(masked, r.line));
    const inImport = new Set<number>();
    for (const [s, e] of spans) for (let l = s; l <= e; l++) inImport.add(l);
    const topSpans = [...new Set(imports.filter((r) => r.topLevel).map((r) => r.line))].sort((a, b) => a - b).map((s) => [s, spans.get(s)!] as const);

    const queryOf = (line: number): string => {
      const windowStart = Math.max(1, line - QUERY_WINDOW_LINES);
      const importLines: number[] = [];
      for (const [s, e] of topSpans) {
        if (e >= line) continue;
        for (let l = s; l <= e && l < windowStart; l++) importLines.push(l);
      }
      return [...importLines.map((l) => lines[l - 1]), ...lines.slice(windowStart - 1, line - 1)].join('\n');
    };
    const push = (line: number, target: CodeObject, span: { startLine: number; endLine: number }) => {
      const query = queryOf(line);
      // The gold never inside the query: its declaration line is not one of the query's lines.
      const sig = signatureOf.get(target.id) as { startLine: number } | undefined;
      const declaration = targetLine(db, target, sig?.startLine ?? target.startLine);
      if (declaration && query.split('\n').some((l) => l.trim() === declaration)) return;
      tasks.push({
        id: `${repo ? `${repo}:` : ''}${path}:${line}`,
        repo,
        path,
        line,
        query,
        gold: { path: target.path, name: target.qualifiedName, ...span },
      });
    };
    // Imported names this file may use: the earliest top-level import of each local name, not a re-export.
    const bound = new Map<string, { row: ImportRow; target: CodeObject }>();
    const seenLocal = new Set<string>();
    for (const r of imports) {
      if (!r.topLevel) continue;
      // `import pkg.mod as m`, `import * as m from './mod'`: a module bound whole (Python's `import a.b` binds `a`).
      const moduleImport = r.name === r.module || (r.name === '*' && r.alias !== null);
      if (r.name === '*' && !moduleImport) continue;
      if (moduleImport && !members) continue;
      const local = r.alias ?? (!moduleImport ? r.name : r.language === 'python' ? (r.module!.includes('.') ? null : r.module) : r.module!.split(/[./]/).filter(Boolean).at(-1));
      if (!local) continue;
      if (seenLocal.has(local)) continue; // the earliest import of a name binds it
      seenLocal.add(local);
      if (/^\s*export\b/.test(masked[r.line - 1] ?? '')) continue; // a re-export binds nothing here
      const target = r.targetId ? targets.get(r.targetId) : undefined;
      if (!target || target.path === path) continue;
      if (!(members ? RECEIVER_KINDS : DEFINITION_KINDS).has(target.kind)) continue;
      bound.set(local, { row: r, target });
    }
    const afterImports = (r: ImportRow) => spans.get(r.line)! + 1;
    if (!members) {
      const firstUse = new Map<string, { line: number; col: number }>();
      for (const [local, { row }] of bound) {
        for (let l = afterImports(row); l <= masked.length; l++) {
          if (inImport.has(l)) continue;
          const col = useColumn(masked[l - 1], local, row.language);
          if (col >= 0) {
            firstUse.set(local, { line: l, col });
            break;
          }
        }
      }
      // One task per position: the name used first on that line (then by name).
      const byLine = new Map<number, { col: number; local: string }>();
      for (const [local, u] of firstUse) {
        const cur = byLine.get(u.line);
        if (!cur || u.col < cur.col || (u.col === cur.col && local < cur.local)) byLine.set(u.line, { col: u.col, local });
      }
      for (const [line, u] of [...byLine].sort((a, b) => a[0] - b[0])) {
        const target = bound.get(u.local)!.target;
        const length = target.endLine - target.startLine + 1;
        if (gold === 'whole' && (length <= GOLD_LINES || length > WHOLE_MAX_LINES)) continue;
        const endLine = gold === 'whole' ? target.endLine : Math.min(target.endLine, target.startLine + GOLD_LINES - 1);
        push(line, target, { startLine: target.startLine, endLine });
      }
      continue;
    }
    // Member tasks: the first call of each (receiver target, member) pair, one task per line (the leftmost call).
    const start = Math.min(...[...bound.values()].map((b) => afterImports(b.row)), masked.length + 1);
    const receivers = new Map<string, string>();
    const calledBefore = new Set<string>();
    const locals = [...bound.keys()];
    const language = imports[0].language;
    for (let l = start; l <= masked.length; l++) {
      if (inImport.has(l)) continue;
      const line = masked[l - 1];
      let made = false;
      for (const call of memberCalls(line, locals, receivers, language)) {
        const { target } = bound.get(call.local)!;
        const key = `${target.id}\0${call.member}`;
        if (calledBefore.has(key)) continue;
        calledBefore.add(key);
        if (made) continue;
        const memberId = memberOf.get(target.id, call.member) as string | undefined;
        const member = memberId ? getObjects(db, [memberId]).get(memberId) : undefined;
        if (!member || member.kind === 'constant') continue;
        const sig = gold === 'member-signature' ? (signatureOf.get(member.id) as { startLine: number; endLine: number } | undefined) : undefined;
        if (gold === 'member-signature' && !sig) continue;
        const span = sig ?? { startLine: member.startLine, endLine: Math.min(member.endLine, member.startLine + GOLD_LINES - 1) };
        const before = tasks.length;
        push(l, member, span);
        made = tasks.length > before;
      }
      for (const local of locals) {
        const variable = instanceBinding(line, local, language);
        if (variable) receivers.set(variable, local);
      }
    }
  }
  return tasks.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
}

const fileLines = new WeakMap<DB, Map<string, string[] | null>>();
/** The trimmed text of line `line` of the target's file (null when the file is not indexed). */
function targetLine(db: DB, target: CodeObject, line: number): string | null {
  let byPath = fileLines.get(db);
  if (!byPath) fileLines.set(db, (byPath = new Map()));
  let lines = byPath.get(target.path);
  if (lines === undefined) {
    const text = fileText(db, target.path);
    byPath.set(target.path, (lines = text === null ? null : text.split('\n')));
  }
  return lines === null ? null : (lines[line - 1] ?? '').trim() || null;
}

/**
 * Up to `max` cross-file tasks, drawn uniformly with a seeded generator: the same index and seed always give
 * the same tasks, in path and line order.
 */
export function generateCrossfileTasks(db: DB, opts: GenerateOptions): CrossfileTask[] {
  const all = crossfileCandidates(db, opts.repo, opts.gold ?? 'head');
  const max = opts.max ?? DEFAULT_MAX_TASKS;
  if (all.length <= max) return all;
  return sampleIndices(all.length, max, seededRandom(opts.seed ?? DEFAULT_SEED)).map((i) => all[i]);
}
