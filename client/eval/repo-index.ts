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
import { activeEmbedder } from '../../indexer/embed/active.ts';
import { runEmbedding } from '../../indexer/embed/run.ts';
import type { QueryEmbedder } from '../../indexer/retrieve/dense.ts';
import { defaultDbPath, type DB } from '../../indexer/store/open.ts';
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

/**
 * For methods that retrieve with dense vectors: embeds the index with the repository-trained model (trained once
 * per index and kept, so later runs only embed what changed) and returns the query embedder.
 */
export async function ensureEmbedded(db: DB, progress: Progress, label: string): Promise<QueryEmbedder> {
  const summary = await runEmbedding(db, 'repo', {
    onTraining: (phase, s) => progress.log(phase === 'start' ? `training the repository embedder on ${label}` : `trained in ${s.toFixed(1)} s`),
  });
  if (summary?.embedded) progress.log(`embedded ${summary.embedded} object(s) of ${label} with ${summary.model}`);
  const dense = await activeEmbedder(db);
  if (!dense.on) throw new Error(dense.reason);
  return dense.embedder;
}
