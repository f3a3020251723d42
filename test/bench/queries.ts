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
