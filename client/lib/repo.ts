import fs from 'node:fs';
import path from 'node:path';

/**
 * The repository containing `cwd`: the nearest folder holding `.git` or
 * `.allot`, else `cwd` itself; symlinks resolved.
 */
export function findRepo(cwd = process.cwd()): string {
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, '.git')) || fs.existsSync(path.join(dir, '.allot'))) return fs.realpathSync(dir);
    if (path.dirname(dir) === dir) return fs.realpathSync(cwd);
  }
}
