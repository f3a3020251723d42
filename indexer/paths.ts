import path from 'node:path';

/** What `normalizePath` would change: backslashes, `.`/`..` segments, doubled or trailing slashes. */
const NOT_NORMAL = /\\|(^|\/)\.\.?(\/|$)|\/\/|\/$/;

/**
 * The one path normaliser: repo-relative, `/`-separated, no leading `./`.
 * @example normalizePath('src\\util\\.\\io.ts') // 'src/util/io.ts'
 */
export function normalizePath(p: string): string {
  // Already normal (the common case: paths from the index): nothing to do, and the allocator asks very often.
  if (p && !NOT_NORMAL.test(p)) return p;
  return path.posix.normalize(p.replace(/\\/g, '/')).replace(/^(\.\/)+/, '').replace(/\/$/, '');
}

/** The repo-relative, normalised form of an absolute or cwd-relative path inside `root`. */
export function relativePath(root: string, p: string): string {
  return normalizePath(path.relative(root, path.resolve(root, p)));
}

const TEST_PATH = /(^|\/)(tests?|__tests__|spec|specs|testing)\/|(^|\/)test_[^/]*\.py$|_test\.(py|go)$|\.(test|spec)\.[cm]?[jt]sx?$|(^|\/)conftest\.py$|Tests?\.java$/;
const DOC_PATH = /(^|\/)(docs?|documentation)\/|\.(md|mdx|rst|txt|adoc)$/i;
const EXAMPLE_PATH = /(^|\/)(examples?|samples?|demos?)\//;

/** Test code: test folders, `test_*.py`, `*_test.go`, `*.spec.ts`, `FooTest.java`... */
export function isTestPath(p: string): boolean {
  return TEST_PATH.test(p);
}

/** Documentation: doc folders and prose files. */
export function isDocPath(p: string): boolean {
  return DOC_PATH.test(p);
}

/** Example and demo code: `examples/`, `samples/`, `demo/` folders. */
export function isExamplePath(p: string): boolean {
  return EXAMPLE_PATH.test(p);
}

/** Beside the code a question is usually about: tests, examples and documentation. */
export function isAsidePath(p: string): boolean {
  return isTestPath(p) || isDocPath(p) || isExamplePath(p);
}
