import type { openStore } from '../../indexer/store/open.ts';

/** Queries from the index itself: half identifiers (qualified names), half docstring first lines. Deterministic. */
export function drawQueries(db: ReturnType<typeof openStore>, n: number): string[] {
  const names = db.prepare("SELECT qualified_name AS q FROM objects WHERE kind IN ('function','method','class') ORDER BY id").pluck().all() as string[];
  const docs = (db.prepare('SELECT docstring AS d FROM objects WHERE docstring IS NOT NULL ORDER BY id').pluck().all() as string[])
    .map((d) => d.replace(/^[\s"'rbu]+/, '').split('\n')[0].replace(/["']+$/, '').trim())
    .filter((d) => d.split(/\s+/).length >= 3);
  const pick = (list: string[], k: number) => Array.from({ length: k }, (_, i) => list[Math.floor((i * list.length) / k)]).filter(Boolean);
  return [...pick(names, Math.ceil(n / 2)), ...pick(docs, Math.floor(n / 2))];
}

export interface SymbolToolInputs {
  /** find_symbol: plain names, qualified names and identifier parts, a third each. */
  names: string[];
  /** find_references: ids of objects something references. */
  referenced: string[];
  /** file_outline: code files. */
  files: string[];
  /** read_file: 40-line windows of code files. */
  windows: { path: string; startLine: number; endLine: number }[];
}

/** Inputs for the symbol tools, drawn evenly from the index itself. Deterministic. */
export function drawSymbolInputs(db: ReturnType<typeof openStore>, n: number): SymbolToolInputs {
  const pick = <T>(list: T[], k: number) => Array.from({ length: k }, (_, i) => list[Math.floor((i * list.length) / k)]).filter((x) => x !== undefined);
  const objects = db.prepare("SELECT name, qualified_name AS q FROM objects WHERE kind IN ('function','method','class') ORDER BY id").all() as { name: string; q: string }[];
  const third = Math.ceil(n / 3);
  const qualified = objects.filter((o) => o.q.includes('.'));
  const parts = objects.filter((o) => /[a-z]_[a-z]|[a-z][A-Z]/.test(o.name)).map((o) => o.name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/_+/g, ' ').trim().split(' ').reverse().join(' '));
  const names = [...pick(objects.map((o) => o.name), third), ...pick(qualified.map((o) => o.q), third), ...pick(parts, third)];
  const referenced = db.prepare('SELECT DISTINCT t.id FROM refs r JOIN objects t ON t.key = r.target ORDER BY t.id').pluck().all() as string[];
  const files = db.prepare("SELECT path, line_count AS lines FROM files WHERE language <> 'text' ORDER BY path").all() as { path: string; lines: number }[];
  const windows = pick(files, n).map((f, i) => {
    const startLine = 1 + ((i * 37) % Math.max(1, f.lines - 40));
    return { path: f.path, startLine, endLine: Math.min(f.lines, startLine + 39) };
  });
  return { names: [...new Set(names)], referenced: pick(referenced, n), files: [...new Set(pick(files.map((f) => f.path), n))], windows };
}
