/**
 * Cross-file tasks from any indexed repository (the RepoBench setting used by
 * VITAL-RAG): a position whose next line uses, for the first time, a name the
 * file imports from another file of the same repository. The query is what a
 * completion model has there (the file's imports and up to 30 preceding lines);
 * the gold is the imported definition (its header and up to its first 15 lines).
 *
 * Everything comes from the index: import references (`refs`, kind 'import')
 * with their resolved `target_id`, object spans, and the indexed file texts.
 */
import type { DB } from '../../indexer/store/open.ts';
import { fileText, getObjects } from '../../indexer/store/read.ts';
import type { Language, ObjectKind } from '../../indexer/types.ts';
import { sampleIndices, seededRandom } from './random.ts';
import { codeMask, statementEnd, useColumn } from './source-scan.ts';
import type { CrossfileTask } from './tasks.ts';

/** Lines before the position given as query (besides the imports). */
export const QUERY_WINDOW_LINES = 30;
/** Gold: the definition's first lines (its header included). */
export const GOLD_LINES = 15;
export const DEFAULT_MAX_TASKS = 500;
export const DEFAULT_SEED = 1;

/** What an imported name must resolve to for a task: a definition, not a module or a text file. */
const DEFINITION_KINDS = new Set<ObjectKind>(['class', 'interface', 'struct', 'enum', 'trait', 'type', 'function', 'method', 'constant']);

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
}

/** Every candidate task of the index, sorted by path and line (before sampling). */
export function crossfileCandidates(db: DB, repo: string): CrossfileTask[] {
  const rows = db
    .prepare(
      `SELECT f.path, f.language, r.name, r.alias, r.module, r.line, r.target_id AS targetId, (o.kind = 'module') AS topLevel
       FROM refs r JOIN objects o ON o.id = r.source_id JOIN files f ON f.id = o.file_id
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

    const firstUse = new Map<string, { line: number; col: number; row: ImportRow }>();
    const seenLocal = new Set<string>();
    for (const r of imports) {
      if (!r.topLevel || r.name === '*' || r.name === r.module) continue;
      const local = r.alias ?? r.name;
      if (seenLocal.has(local)) continue; // the earliest import of a name binds it
      seenLocal.add(local);
      if (/^\s*export\b/.test(masked[r.line - 1] ?? '')) continue; // a re-export binds nothing here
      const target = r.targetId ? targets.get(r.targetId) : undefined;
      if (!target || !DEFINITION_KINDS.has(target.kind) || target.path === path) continue;
      for (let l = spans.get(r.line)! + 1; l <= masked.length; l++) {
        if (inImport.has(l)) continue;
        const col = useColumn(masked[l - 1], local, r.language);
        if (col >= 0) {
          firstUse.set(local, { line: l, col, row: r });
          break;
        }
      }
    }
    // One task per position: the name used first on that line (then by name).
    const byLine = new Map<number, { col: number; local: string; row: ImportRow }>();
    for (const [local, u] of firstUse) {
      const cur = byLine.get(u.line);
      if (!cur || u.col < cur.col || (u.col === cur.col && local < cur.local)) byLine.set(u.line, { col: u.col, local, row: u.row });
    }
    for (const [line, u] of [...byLine].sort((a, b) => a[0] - b[0])) {
      const target = targets.get(u.row.targetId!)!;
      const windowStart = Math.max(1, line - QUERY_WINDOW_LINES);
      const importLines: number[] = [];
      for (const [s, e] of topSpans) {
        if (e >= line) continue;
        for (let l = s; l <= e && l < windowStart; l++) importLines.push(l);
      }
      const queryLines = [...importLines.map((l) => lines[l - 1]), ...lines.slice(windowStart - 1, line - 1)];
      tasks.push({
        id: `${repo ? `${repo}:` : ''}${path}:${line}`,
        repo,
        path,
        line,
        query: queryLines.join('\n'),
        gold: {
          path: target.path,
          name: target.qualifiedName,
          startLine: target.startLine,
          endLine: Math.min(target.endLine, target.startLine + GOLD_LINES - 1),
        },
      });
    }
  }
  return tasks.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
}

/**
 * Up to `max` cross-file tasks, drawn uniformly with a seeded generator: the same index and seed always give
 * the same tasks, in path and line order.
 */
export function generateCrossfileTasks(db: DB, opts: GenerateOptions): CrossfileTask[] {
  const all = crossfileCandidates(db, opts.repo);
  const max = opts.max ?? DEFAULT_MAX_TASKS;
  if (all.length <= max) return all;
  return sampleIndices(all.length, max, seededRandom(opts.seed ?? DEFAULT_SEED)).map((i) => all[i]);
}
