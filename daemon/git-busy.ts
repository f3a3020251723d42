import fs from 'node:fs';
import path from 'node:path';

/**
 * Whether a git command is rewriting the work tree now: `git checkout`, `merge`, `rebase` and `reset` hold
 * `index.lock` in the git folder until the tree is written. A batch cut while it is held would index half a
 * checkout (and the rest in the next batch), so the batcher waits for it. For a linked worktree or a submodule
 * `.git` is a file naming the git folder (`gitdir: ...`); only the lock's existence is looked at, nothing is read
 * from there. A repository without git is never busy.
 * @example gitBusy('/src/app') // true while `git checkout` runs in /src/app
 */
export function gitBusy(repo: string): boolean {
  const dir = gitDir(repo);
  return dir !== null && fs.existsSync(path.join(dir, 'index.lock'));
}

function gitDir(repo: string): string | null {
  const dotGit = path.join(repo, '.git');
  let st: fs.Stats;
  try {
    st = fs.lstatSync(dotGit);
  } catch {
    return null;
  }
  if (st.isDirectory()) return dotGit;
  if (!st.isFile() || st.size > 4096) return null;
  const m = /^gitdir: (.+)$/m.exec(fs.readFileSync(dotGit, 'utf8'));
  return m ? path.resolve(repo, m[1]!.trim()) : null;
}
