import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { discoverFiles } from '../../indexer/discover.ts';
import { tempDir, writeTree } from '../helpers/repo.ts';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function repoWith(files: Record<string, string | Buffer>): string {
  const root = tempDir();
  dirs.push(root);
  writeTree(root, files);
  return root;
}

describe('discovery', () => {
  it('honours .gitignore at every level, negations, .git/info/exclude and .allotignore', () => {
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
      'pkg/.gitignore': 'local_*.py\n',
      'pkg/local_settings.py': 'x = 4\n',
      'pkg/settings.py': 'x = 5\n',
      'other/local_settings.py': 'x = 6\n',
      'node_modules/dep/index.js': 'module.exports = 1\n',
      'build/bundle.js': 'x\n',
      'src/__pycache__/a.cpython-311.pyc': 'x\n',
    });
    const { files, skipped } = discoverFiles(root, { maxFileBytes: 1 << 20 });
    expect(files).toEqual(['.allotignore', '.gitignore', 'app.py', 'keep.log', 'other/local_settings.py', 'pkg/.gitignore', 'pkg/settings.py']);
    const ignored = skipped.filter((s) => s.reason === 'ignored').map((s) => s.path);
    expect(ignored).toEqual(
      expect.arrayContaining(['.git/', 'debug.log', 'secret.txt', 'generated/', 'vendor/', 'pkg/local_settings.py', 'node_modules/', 'build/']),
    );
  });

  it('skips symlinks, telling those that leave the repository apart, and files over the size limit', () => {
    const outside = tempDir();
    dirs.push(outside);
    writeTree(outside, { 'target.py': 'x = 1\n' });
    const root = repoWith({ 'real.py': 'y = 2\n', 'big.txt': 'z'.repeat(2048) });
    fs.symlinkSync(path.join(outside, 'target.py'), path.join(root, 'escape.py'));
    fs.symlinkSync(path.join(root, 'real.py'), path.join(root, 'alias.py'));
    fs.symlinkSync('/nonexistent/dangling.py', path.join(root, 'dangling.py'));
    const { files, skipped } = discoverFiles(root, { maxFileBytes: 1024 });
    expect(files).toEqual(['real.py']);
    const reasons = Object.fromEntries(skipped.map((s) => [s.path, s.reason]));
    expect(reasons).toEqual({ 'alias.py': 'symlink', 'big.txt': 'too-large', 'dangling.py': 'symlink-outside', 'escape.py': 'symlink-outside' });
  });
});
