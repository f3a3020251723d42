import type { ModuleRoots } from '../resolve/modules.ts';
import { psr4Roots } from '../resolve/psr4.ts';
import type { DB } from './open.ts';

/** A file whose change changes where modules live (a resolver built before it resolves by stale roots). */
export const isComposerJson = (path: string) => path === 'composer.json' || path.endsWith('/composer.json');

/**
 * Where the repository says its modules live: the PSR-4 roots of every indexed composer.json. Read by both
 * resolvers (the store's resolution pass and the query-time structure), so both resolve alike.
 */
export function moduleRoots(db: DB): ModuleRoots {
  const rows = db
    .prepare("SELECT f.path, t.text FROM file_texts t JOIN files f ON f.id = t.file_id WHERE f.path = 'composer.json' OR f.path LIKE '%/composer.json' ORDER BY f.path")
    .all() as { path: string; text: string }[];
  return { psr4: rows.flatMap((r) => psr4Roots(r.path, r.text)) };
}
