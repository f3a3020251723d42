import fs from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import type { SkipReason } from './types.ts';

/** Folders never indexed: version control, dependencies, caches and build output. */
export const DEFAULT_IGNORES = [
  '.git/', '.hg/', '.svn/', '.allot/', 'node_modules/', 'bower_components/', '__pycache__/', '.venv/', 'venv/',
  '.tox/', '.nox/', '.mypy_cache/', '.pytest_cache/', '.ruff_cache/', '.cache/', 'dist/', 'build/', 'out/',
  'target/', 'coverage/', '.next/', '.nuxt/', '.turbo/', '.gradle/', '*.egg-info/', '*.pyc', '*.min.js', '*.map',
];

/** The files in a repository that allot indexes, and what it left out and why. */
export interface Discovery {
  /** Repo-relative paths, sorted. */
  files: string[];
  /** Size in bytes of each file, as discovery saw it. */
  sizes: Map<string, number>;
  /** Modification times (whole milliseconds), taken with the sizes. */
  mtimes: Map<string, number>;
  skipped: { path: string; reason: SkipReason; message: string }[];
}

interface Layer {
  base: string;
  rules: Ignore;
}

/** The ignore files of a folder, in the order their rules apply (a later rule overrides an earlier one). */
export const RULE_FILE_NAMES = ['.gitignore', '.allotignore'] as const;

/** Rule files larger than this are not rules (1 MiB: big ones hold a few thousand lines). */
const MAX_RULES_BYTES = 1024 * 1024;

/**
 * An ignore file's rules, or null when there is none. As git does since 2.32, a rule file that is a symbolic link is
 * not followed (a committed `.gitignore -> /dev/zero` would read forever; one to a file outside would read there), and
 * only a regular file is read: never waiting on a FIFO, never more than MAX_RULES_BYTES.
 */
export function readRules(file: string): string | null {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
    const st = fs.fstatSync(fd);
    if (!st.isFile() || st.size > MAX_RULES_BYTES) return null;
    const buf = Buffer.alloc(st.size);
    const n = fs.readSync(fd, buf, 0, st.size, 0);
    return buf.toString('utf8', 0, n);
  } catch {
    return null;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

function ignoredBy(layers: Layer[], rel: string, isDir: boolean): boolean {
  let ignored = false;
  for (const { base, rules } of layers) {
    const sub = base ? rel.slice(base.length + 1) : rel;
    const r = rules.test(isDir ? `${sub}/` : sub);
    if (r.ignored) ignored = true;
    else if (r.unignored) ignored = false;
  }
  return ignored;
}

/**
 * Walks a repository honouring built-in defaults, `.gitignore` files at every
 * level, `.git/info/exclude` and `.allotignore`; skips symlinks (counted: those
 * leaving the repository separately) and files over `maxFileBytes`.
 */
export function discoverFiles(root: string, opts: { maxFileBytes: number }): Discovery {
  const files: string[] = [];
  const sizes = new Map<string, number>();
  const mtimes = new Map<string, number>();
  const skipped: Discovery['skipped'] = [];
  const rootReal = fs.realpathSync(root);
  const top = ignore().add(DEFAULT_IGNORES);
  const exclude = readRules(path.join(root, '.git', 'info', 'exclude'));
  if (exclude) top.add(exclude);
  const stack: { rel: string; layers: Layer[] }[] = [{ rel: '', layers: [{ base: '', rules: top }] }];
  while (stack.length) {
    const { rel: dir, layers: parentLayers } = stack.pop()!;
    const abs = path.join(root, dir);
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(abs, { withFileTypes: true });
    } catch (err) {
      skipped.push({ path: dir || '.', reason: 'unreadable', message: (err as Error).message });
      continue;
    }
    // Only rule files the listing holds are read: trying both in every folder cost two failed opens (and thrown errors) per folder.
    let layers = parentLayers;
    const local = RULE_FILE_NAMES.filter((name) => entries.some((e) => e.name === name))
      .map((name) => readRules(path.join(abs, name)))
      .filter((x): x is string => x !== null);
    if (local.length) layers = [...parentLayers, { base: dir, rules: ignore().add(local.join('\n')) }];
    for (const e of entries) {
      const rel = dir ? `${dir}/${e.name}` : e.name;
      if (e.isSymbolicLink()) {
        if (ignoredBy(layers, rel, false)) {
          skipped.push({ path: rel, reason: 'ignored', message: 'ignore rules' });
          continue;
        }
        const target = path.resolve(abs, fs.readlinkSync(path.join(abs, e.name)));
        let real = target;
        try {
          real = fs.realpathSync(target);
        } catch {
          /* a broken link: judge it by where it points */
        }
        const inside = real === rootReal || real.startsWith(rootReal + path.sep);
        skipped.push(
          inside
            ? { path: rel, reason: 'symlink', message: 'symlink inside the repository: its target is indexed under its own path' }
            : { path: rel, reason: 'symlink-outside', message: `points outside the repository (${target})` },
        );
        continue;
      }
      const isDir = e.isDirectory();
      if (ignoredBy(layers, rel, isDir)) {
        skipped.push({ path: rel + (isDir ? '/' : ''), reason: 'ignored', message: 'ignore rules' });
        continue;
      }
      if (isDir) {
        stack.push({ rel, layers });
      } else if (e.isFile()) {
        let size: number;
        try {
          const st = fs.statSync(path.join(abs, e.name));
          size = st.size;
          mtimes.set(rel, Math.trunc(st.mtimeMs));
        } catch (err) {
          // Names are read as UTF-8: one that is not cannot be named back (its bytes became U+FFFD), say so
          const undecodable = e.name.includes('\uFFFD') && (err as NodeJS.ErrnoException).code === 'ENOENT';
          skipped.push(undecodable
            ? { path: rel, reason: 'unreadable', message: 'the file name is not valid UTF-8 (rename it to index it)' }
            : { path: rel, reason: 'vanished', message: (err as Error).message });
          continue;
        }
        if (size > opts.maxFileBytes) skipped.push({ path: rel, reason: 'too-large', message: `${size} bytes > ${opts.maxFileBytes}` });
        else {
          files.push(rel);
          sizes.set(rel, size);
        }
      }
    }
  }
  files.sort();
  skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, sizes, mtimes, skipped };
}
