import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createIgnoreMatcher } from '../../daemon/ignore-rules.ts';
import { discoverFiles } from '../../indexer/discover.ts';
import { tempDir, writeTree } from '../helpers/repo.ts';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function repoWith(files: Record<string, string>): string {
  const root = tempDir('allot-ignore-');
  dirs.push(root);
  writeTree(root, files);
  return root;
}

/** Every regular file under root, repo-relative. */
function allFiles(root: string, rel = ''): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...allFiles(root, r));
    else if (e.isFile()) out.push(r);
  }
  return out.sort();
}

/** The watcher's predicate must keep exactly the files discovery keeps. */
function expectSameAsDiscovery(root: string) {
  const m = createIgnoreMatcher(root);
  const kept = allFiles(root).filter((f) => !m.isIgnored(f, false));
  expect(kept).toEqual(discoverFiles(root, { maxFileBytes: 1 << 20 }).files);
}

describe('watcher ignore rules = discovery ignore rules', () => {
  it('built-in defaults, nested .gitignore, negation, .git/info/exclude, .allotignore', () => {
    const root = repoWith({
      '.gitignore': '*.log\n/generated/\n!keep.log\n',
      '.git/info/exclude': 'secret.txt\n',
      '.git/HEAD': 'ref: refs/heads/main\n',
      '.allotignore': 'vendor/\n',
      'app.py': 'x = 1\n',
      'debug.log': 'noise\n',
      'keep.log': 'kept\n',
      'secret.txt': 'hidden\n',
      'generated/out.py': 'x = 2\n',
      'vendor/lib.py': 'x = 3\n',
      'pkg/.gitignore': 'local_*.py\n!local_keep.py\n',
      'pkg/local_settings.py': 'x = 4\n',
      'pkg/local_keep.py': 'x = 4\n',
      'pkg/settings.py': 'x = 5\n',
      'pkg/deep/local_x.py': 'x = 5\n',
      'other/local_settings.py': 'x = 6\n',
      'node_modules/dep/index.js': 'module.exports = 1\n',
      'build/bundle.js': 'x\n',
      'src/build.py': 'x\n',
      'src/__pycache__/a.cpython-311.pyc': 'x\n',
      'src/app.min.js': 'x\n',
      '.allot/daemon.log': 'x\n',
    });
    expectSameAsDiscovery(root);
    const m = createIgnoreMatcher(root);
    expect(m.isIgnored('node_modules', true)).toBe(true);
    expect(m.isIgnored('build', true)).toBe(true);
    expect(m.isIgnored('src', true)).toBe(false);
    expect(m.isIgnored('../outside.py', false)).toBe(true);
  });

  it('forgets cached rules on reset', () => {
    const root = repoWith({ 'a.py': '', 'b.py': '' });
    const m = createIgnoreMatcher(root);
    expect(m.isIgnored('a.py', false)).toBe(false);
    fs.writeFileSync(path.join(root, '.gitignore'), 'a.py\n');
    expect(m.isIgnored('a.py', false)).toBe(false);
    m.reset();
    expect(m.isIgnored('a.py', false)).toBe(true);
    expectSameAsDiscovery(root);
  });

  it('agrees with discovery on random trees and rules', () => {
    const name = fc.constantFrom('a', 'b', 'lib', 'build', 'gen', 'x.py', 'y.log', 'z.ts');
    const rule = fc.constantFrom('*.log', 'gen/', '/a', 'b', '!y.log', 'lib/*.py', '**/x.py', '!x.py', 'build', '*.ts', '!gen/');
    fc.assert(
      fc.property(
        fc.array(fc.array(name, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 12 }),
        fc.array(fc.tuple(fc.constantFrom('', 'a', 'lib', 'a/b'), fc.array(rule, { maxLength: 3 })), { maxLength: 3 }),
        (paths, ignores) => {
          const files: Record<string, string> = {};
          for (const p of paths) files[p.join('/') + '.f'] = 'x\n';
          for (const [dir, rules] of ignores) files[dir ? `${dir}/.gitignore` : '.gitignore'] = rules.join('\n') + '\n';
          const root = repoWith({});
          try {
            // a path cannot be both a file and a folder: keep the first writer
            for (const [rel, text] of Object.entries(files)) {
              try {
                writeTree(root, { [rel]: text });
              } catch {
                /* clashes with a folder or file of the same name */
              }
            }
            expectSameAsDiscovery(root);
          } finally {
            fs.rmSync(root, { recursive: true, force: true });
          }
        },
      ),
      { numRuns: 60 },
    );
  });
});
