import type { DB } from './open.ts';

/** Generations of changes kept in the log; a cache further behind is rebuilt whole. */
export const CHANGE_LOG_GENERATIONS = 256;

/** Logs the files a generation changed, pruning what fell out of the window (same transaction as the change). */
export function recordChanges(db: DB, generation: number, paths: Iterable<string>): void {
  const insert = db.prepare('INSERT INTO file_changes (generation, path) VALUES (?, ?)');
  for (const p of new Set(paths)) insert.run(generation, p);
  const floor = generation - CHANGE_LOG_GENERATIONS;
  // Pruned in steps, not every generation: the delete walks the index.
  if (floor > 0 && generation % 32 === 0) {
    db.prepare('DELETE FROM file_changes WHERE generation <= ?').run(floor);
    db.prepare("UPDATE state SET value = ? WHERE key = 'change_log_floor' AND CAST(value AS INTEGER) < ?").run(String(floor), floor);
  }
}

/**
 * Paths changed by the generations after `generation`, sorted, or null when the
 * log no longer reaches back that far (the caller rebuilds whole).
 */
export function changedSince(db: DB, generation: number): string[] | null {
  const floor = Number((db.prepare("SELECT value FROM state WHERE key = 'change_log_floor'").pluck().get() as string | undefined) ?? 0);
  if (generation < floor) return null;
  return db.prepare('SELECT DISTINCT path FROM file_changes WHERE generation > ? ORDER BY path').pluck().all(generation) as string[];
}
