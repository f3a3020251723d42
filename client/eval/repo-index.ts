/**
 * Where an evaluated repository's index lives and how it is brought up to
 * date: `<repo>/.allot/index.db` when asked, else a database under the index
 * folder (default: the system temp folder) named after the repository's
 * absolute path, so later runs update it incrementally instead of rebuilding.
 */
import crypto from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { indexRepository } from '../../indexer/index-repository.ts';
import { defaultDbPath } from '../../indexer/store/open.ts';
import type { IndexSummary } from '../../indexer/types.ts';
import type { Progress } from './progress.ts';

export const DEFAULT_INDEX_DIR = path.join(os.tmpdir(), 'allot-eval-indexes');

export interface IndexPlace {
  /** `repo`: `<repo>/.allot/index.db`; otherwise a folder for the databases. */
  indexDir: string | 'repo';
}

export function evalDbPath(repo: string, place: IndexPlace): string {
  if (place.indexDir === 'repo') return defaultDbPath(repo);
  const abs = path.resolve(repo);
  const hash = crypto.createHash('sha1').update(abs).digest('hex').slice(0, 12);
  const name = path.basename(abs).replace(/[^A-Za-z0-9._-]+/g, '_') || 'repo';
  return path.join(place.indexDir, `${name}-${hash}`, 'index.db');
}

/** Indexes (or updates the index of) a repository, reporting progress. */
export async function ensureIndexed(repo: string, db: string, progress: Progress, label: string, workers?: number): Promise<IndexSummary> {
  let started = false;
  const summary = await indexRepository({
    repo,
    db,
    workers,
    onProgress: (p) => {
      if (p.phase !== 'parse' || p.total === 0) return;
      if (!started) {
        progress.start(`indexing ${label}`, p.total, p.done);
        started = true;
      }
      progress.update(p.done);
    },
  });
  progress.stop();
  return summary;
}
