// Whether the JavaScript build (`dist/`) is current. The bin runs it only then;
// in a checkout whose TypeScript sources changed after the build it runs the
// sources through tsx instead, so an edit is never answered by stale code.
import fs from 'node:fs';

/** Written last by the build: the time (ms) it began. */
export const BUILD_STAMP = 'dist/.build-stamp';

/** The layers compiled into dist/, relative to the package root. */
export const SOURCE_DIRS = ['daemon/', 'indexer/', 'allocator/', 'client/', 'migrations/'];

/**
 * When the build that made dist/ began (the stamp `npm run build` writes last), or null without a whole build.
 * @param {URL} root
 */
function builtAt(root) {
  try {
    return Number(fs.readFileSync(new URL(BUILD_STAMP, root), 'utf8'));
  } catch {
    return null;
  }
}

/**
 * True when a file or folder under `dir` was modified at or after `since` (ms since the epoch).
 * @param {URL} dir
 * @param {number} since
 * @returns {boolean}
 */
function changedSince(dir, since) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory() ? changedSince(new URL(`${e.name}/`, dir), since) : fs.statSync(new URL(e.name, dir)).mtimeMs >= since) return true;
  }
  return fs.statSync(dir).mtimeMs >= since; // a file deleted or renamed changes its folder
}

/**
 * 'built' when dist/ is current (or the package ships no sources), 'sources' when the TypeScript sources must
 * run (no build, or one older than an edit), 'none' when there is neither.
 * @param {URL} root the package root, ending in '/'
 * @returns {'built' | 'sources' | 'none'}
 */
export function buildState(root) {
  const sources = fs.existsSync(new URL('client/cli/main.ts', root));
  const stamp = builtAt(root);
  if (stamp !== null && (!sources || !SOURCE_DIRS.some((d) => changedSince(new URL(d, root), stamp)))) return 'built';
  return sources ? 'sources' : 'none';
}
