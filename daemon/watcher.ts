/**
 * Watches a repository with chokidar, honouring the indexer's ignore rules,
 * and reports repo-relative changes. Ignored folders are never descended
 * into (no watches on node_modules or .git), which is also what keeps the
 * daemon's own writes under `.allot/` from echoing back as changes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { Change } from './batcher.ts';
import { RULE_FILES, type IgnoreMatcher } from './ignore-rules.ts';

export interface WatcherHandlers {
  onChange(change: Change): void;
  /** A .gitignore or .allotignore changed: the set of indexed files may have changed anywhere below it. */
  onRulesChanged(rel: string): void;
  onReady(): void;
  onError(err: Error): void;
}

export interface RepoWatcher {
  close(): Promise<void>;
}

export interface WatchOptions {
  matcher: IgnoreMatcher;
  /** Absolute paths never reported (the database and its journal when it lives inside the repository). */
  exclude?: (abs: string) => boolean;
}

export function watchRepository(repo: string, opts: WatchOptions, on: WatcherHandlers): RepoWatcher {
  const rel = (abs: string) => path.relative(repo, abs).split(path.sep).join('/');
  const watcher: FSWatcher = watch(repo, {
    ignoreInitial: true,
    followSymlinks: false,
    ignorePermissionErrors: true,
    // Without stats we cannot tell a folder from a file: treat it as a file;
    // chokidar asks again with stats before descending into a folder.
    ignored: (abs, stats) => {
      if (opts.exclude?.(abs)) return true;
      const r = rel(abs);
      if (r === '') return false;
      return opts.matcher.isIgnored(r, stats?.isDirectory() ?? false);
    },
  });
  const report = (event: Change['event']) => (abs: string) => {
    const r = rel(abs);
    if (r === '' || r.startsWith('..')) return;
    if (RULE_FILES.has(path.posix.basename(r))) {
      // A rule file that is a link is never read (discover.ts, readRules), so it changes no rule; and chokidar
      // reports a link again each time it starts, so taking it for a change restarted the watcher forever.
      if (event !== 'unlink' && fs.lstatSync(abs, { throwIfNoEntry: false })?.isSymbolicLink()) return;
      opts.matcher.reset();
      on.onRulesChanged(r);
      return;
    }
    on.onChange({ path: r, event });
  };
  watcher.on('add', report('add'));
  watcher.on('change', report('change'));
  watcher.on('unlink', report('unlink'));
  watcher.on('addDir', report('addDir'));
  watcher.on('unlinkDir', report('unlinkDir'));
  watcher.on('ready', () => on.onReady());
  watcher.on('error', (err) => on.onError(err instanceof Error ? err : new Error(String(err))));
  return { close: () => watcher.close() };
}
