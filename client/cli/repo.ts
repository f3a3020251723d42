import fs from 'node:fs';
import path from 'node:path';
import { defaultDbPath } from '../../indexer/store/location.ts';

/** A user-facing error: printed without a stack, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/**
 * The repository a command works on: `--repo DIR` or a positional argument,
 * else the nearest folder above the current one holding `.git` or `.allot`,
 * else the current folder.
 */
export function resolveRepo(explicit?: string, cwd = process.cwd()): string {
  if (explicit) {
    const dir = path.resolve(cwd, explicit);
    if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new UsageError(`not a directory: ${explicit}`);
    return fs.realpathSync(dir);
  }
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, '.git')) || fs.existsSync(path.join(dir, '.allot'))) return fs.realpathSync(dir);
    if (path.dirname(dir) === dir) return fs.realpathSync(cwd);
  }
}

/** The index database: `--db`, then `ALLOT_DB`, then `<repo>/.allot/index.db`. */
export function resolveDb(repo: string, explicit?: string): string {
  const chosen = explicit ?? process.env.ALLOT_DB;
  return chosen ? path.resolve(chosen) : defaultDbPath(repo);
}
