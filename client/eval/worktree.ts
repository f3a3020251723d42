/**
 * One work tree per evaluated repository, moved from commit to commit, so the
 * index follows incrementally (only files whose content changed are re-parsed).
 *
 * The git directory is a mirror shared with others (the search tool's fetch:
 * `DIR/<owner>+<name>/repo`), so nothing is written into it: the work tree's
 * git index is a file of our own (GIT_INDEX_FILE) and HEAD never moves. Moving
 * the tree is `read-tree --reset -u COMMIT`, which is what `checkout -f COMMIT`
 * does to the files (updates changed ones, removes those the commit lacks)
 * without detaching the mirror's HEAD. Snapshots may lack blobs of 4 MiB or
 * more; when one is absent the tree is rebuilt from `git archive` without
 * those paths, which are reported.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export interface Checkout {
  /** `read-tree`: moved in place; `archive`: rebuilt because some blob is absent from the snapshot. */
  how: 'read-tree' | 'archive';
  /** Paths left out because their blob is absent from the snapshot. */
  absent: string[];
}

/** The mirror's git directory for `owner/name`, or an error saying how to get it. */
export function mirrorGitDir(mirrors: string, repo: string): string {
  const dir = path.join(mirrors, repo.replace('/', '+'), 'repo');
  if (!fs.existsSync(dir)) throw new Error(`repository folder not found: no mirror of ${repo} at ${dir} (fetch github:${repo} with the search tool)`);
  return dir;
}

function git(gitDir: string, args: string[], env: NodeJS.ProcessEnv = {}, input?: string): string {
  return execFileSync('git', [`--git-dir=${gitDir}`, ...args], {
    env: { ...process.env, ...env }, input, encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/** Puts the work tree `tree` at `commit` of `gitDir`, keeping its git index in `indexFile`. */
export function checkoutCommit(gitDir: string, tree: string, commit: string, indexFile: string): Checkout {
  fs.mkdirSync(tree, { recursive: true });
  fs.mkdirSync(path.dirname(indexFile), { recursive: true });
  const env = { GIT_INDEX_FILE: indexFile };
  try {
    git(gitDir, ['cat-file', '-e', `${commit}^{commit}`]);
  } catch {
    throw new Error(`commit ${commit} not in ${gitDir}`);
  }
  const r = spawnSync('git', [`--git-dir=${gitDir}`, `--work-tree=${tree}`, 'read-tree', '--reset', '-u', commit], {
    env: { ...process.env, ...env }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (r.status === 0) return { how: 'read-tree', absent: [] };

  // Some blob is absent: rebuild the tree from an archive that leaves those paths out.
  const entries = git(gitDir, ['ls-tree', '-r', '-z', '--full-tree', commit]).split('\0').filter(Boolean);
  const blobs = new Map<string, string[]>();
  for (const e of entries) {
    const tab = e.indexOf('\t');
    const [, type, oid] = e.slice(0, tab).split(' ');
    if (type !== 'blob') continue;
    const list = blobs.get(oid);
    if (list) list.push(e.slice(tab + 1));
    else blobs.set(oid, [e.slice(tab + 1)]);
  }
  const check = git(gitDir, ['cat-file', '--batch-check=%(objectname) %(objecttype)'], {}, [...blobs.keys()].join('\n') + '\n');
  const absent: string[] = [];
  for (const line of check.split('\n')) {
    const [oid, state] = line.split(' ');
    if (state === 'missing') absent.push(...(blobs.get(oid) ?? []));
  }
  for (const name of fs.readdirSync(tree)) fs.rmSync(path.join(tree, name), { recursive: true, force: true });
  const archive = spawnSync('git', [`--git-dir=${gitDir}`, 'archive', '--format=tar', commit, '--', '.', ...absent.map((p) => `:(exclude,literal)${p}`)], {
    maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (archive.status !== 0) throw new Error(`git archive ${commit} failed: ${archive.stderr.toString().trim()}`);
  const tar = spawnSync('tar', ['-x', '-C', tree], { input: archive.stdout, stdio: ['pipe', 'ignore', 'pipe'] });
  if (tar.status !== 0) throw new Error(`extracting ${commit} failed: ${tar.stderr.toString().trim()}`);
  // The git index records the commit, so the next move removes what this one lacks.
  fs.rmSync(indexFile, { force: true });
  git(gitDir, ['read-tree', commit], env);
  return { how: 'archive', absent: absent.sort() };
}
