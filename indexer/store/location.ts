import path from 'node:path';

/** Default database location for a repository (apart from the store, so finding it loads no SQLite). */
export function defaultDbPath(repo: string): string {
  return path.join(repo, '.allot', 'index.db');
}
