/**
 * The SWE-bench setting's outer loop, shared by `allot eval issues` and `allot eval prose`: issues grouped by
 * repository, one work tree per repository moved to each issue's base commit, the index following incrementally,
 * and the task visited with the index open and the tree's files readable.
 */
import fs from 'node:fs';
import path from 'node:path';
import { openStore, type DB } from '../../indexer/store/open.ts';
import type { Progress } from './progress.ts';
import { parseFilePath } from '../../daemon/requests.ts';
import { ensureIndexed, evalDbPath } from './repo-index.ts';
import type { IssueTask } from './tasks.ts';
import { checkoutCommit, mirrorGitDir } from './worktree.ts';

export interface IssueTreeOptions {
  mirrors: string;
  worktrees: string;
  indexDir: string;
  workers?: number;
  progress: Progress;
  shouldStop?: () => boolean;
}

/** One issue's repository at its base commit. */
export interface IssueTree {
  db: DB;
  /** The work tree's folder. */
  tree: string;
  /** A file's text at the base commit (null when absent), read once. */
  repoText(p: string): string | null;
}

/**
 * Visits every task that `needs` says has work left, at its base commit, in repository order. Returns whether the
 * run stopped early (`shouldStop`).
 */
export async function forEachIssueTree<T extends IssueTask>(
  tasks: readonly T[],
  o: IssueTreeOptions,
  needs: (t: T) => boolean,
  visit: (t: T, at: IssueTree) => Promise<void>,
): Promise<boolean> {
  const byRepo = new Map<string, T[]>();
  for (const t of tasks) {
    const list = byRepo.get(t.repo);
    if (list) list.push(t);
    else byRepo.set(t.repo, [t]);
  }
  let done = tasks.filter((t) => !needs(t)).length;
  for (const [repo, repoTasks] of byRepo) {
    if (!repoTasks.some(needs)) continue;
    if (o.shouldStop?.()) return true;
    const gitDir = mirrorGitDir(o.mirrors, repo);
    const slug = repo.replace('/', '+');
    const tree = path.join(o.worktrees, slug, 'tree');
    const gitIndex = path.join(o.worktrees, slug, 'git-index');
    const dbFile = evalDbPath(tree, o);
    for (const t of repoTasks) {
      if (!needs(t)) continue;
      if (o.shouldStop?.()) {
        o.progress.stop();
        return true;
      }
      const co = checkoutCommit(gitDir, tree, t.base_commit, gitIndex);
      if (co.absent.length) o.progress.log(`${t.instance_id}: ${co.absent.length} file(s) absent from the snapshot, left out: ${co.absent.slice(0, 3).join(', ')}${co.absent.length > 3 ? ', ...' : ''}`);
      await ensureIndexed(tree, dbFile, o.progress, `${repo}@${t.base_commit.slice(0, 8)}`, o.workers);
      o.progress.start('issues', tasks.length, done);
      const db = openStore(dbFile);
      try {
        const texts = new Map<string, string | null>();
        const repoText = (p: string) => {
          if (!texts.has(p)) {
            // a gold patch naming `../x` or `/x` names no file of the tree
            if (!parseFilePath(p).ok) return null;
            const f = path.join(tree, p);
            texts.set(p, fs.existsSync(f) && fs.statSync(f).isFile() ? fs.readFileSync(f, 'utf8') : null);
          }
          return texts.get(p)!;
        };
        await visit(t, { db, tree, repoText });
      } finally {
        db.close();
      }
      o.progress.update(++done, t.instance_id);
    }
    o.progress.stop();
  }
  return false;
}
