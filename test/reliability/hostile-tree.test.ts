// A repository tree that tries to make the indexer read outside it: links and FIFOs planted in the tree, files and
// folders swapped for links after discovery found them (the time-of-check/time-of-use gap), and ignore files that
// are links (`.gitignore -> /dev/zero` is committable and read forever when followed). Real SQLite file, real
// index runs; the sentinel folder beside the repository must never be read into the index.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createIgnoreMatcher } from '../../daemon/ignore-rules.ts';
import { discoverFiles } from '../../indexer/discover.ts';
import { readRepoFile } from '../../indexer/extract/extract-file.ts';
import { indexRepository } from '../../indexer/index-repository.ts';
import { storeFileSource } from '../../indexer/store/file-source.ts';
import { openStore } from '../../indexer/store/open.ts';
import { hostileRepo, type Hostile } from './harness.ts';

const made: Hostile[] = [];
afterEach(() => made.splice(0).forEach((h) => h.cleanup()));
function hostile(): Hostile {
  const h = hostileRepo();
  made.push(h);
  // the secret outside, with ignore rules in it: followed, it would ignore every Python file
  fs.writeFileSync(h.victim, 'SECRET-OUTSIDE\n*.py\n');
  return h;
}

/** Every text the index holds, joined. */
function indexedText(db: string): string {
  const store = openStore(db, { readonly: true });
  try {
    return (store.prepare('SELECT text FROM file_texts').pluck().all() as string[]).join('\n');
  } finally {
    store.close();
  }
}

describe('the indexer reads only regular files inside the repository', () => {
  it('readRepoFile: a link, a linked folder and a FIFO are refused at once, a regular file is read', () => {
    const h = hostile();
    fs.symlinkSync(h.victim, path.join(h.repo, 'shop/link.py'));
    fs.symlinkSync(h.sentinel, path.join(h.repo, 'outside'));
    fs.symlinkSync('/dev/zero', path.join(h.repo, 'zero.py'));
    expect(spawnFifo(path.join(h.repo, 'fifo.py'))).toBe(0);
    const read = (rel: string) => readRepoFile(h.repo, rel, 1 << 20);
    expect(read('shop/link.py')).toMatchObject({ status: 'skipped', reason: 'symlink' });
    expect(read('outside/victim.txt')).toMatchObject({ status: 'skipped', reason: 'symlink-outside' });
    expect(read('zero.py')).toMatchObject({ status: 'skipped', reason: 'symlink' });
    // a FIFO would block the open (and the whole index run) forever without O_NONBLOCK
    expect(read('fifo.py')).toMatchObject({ status: 'skipped', reason: 'unreadable', message: expect.stringMatching(/not a regular file/) });
    expect(read('shop/cart.py')).toMatchObject({ status: 'read' });
  });

  it('files and folders swapped for links or a FIFO after discovery: the run finishes and nothing outside is indexed', async () => {
    const h = hostile();
    const db = path.join(h.repo, '.allot/index.db');
    let swapped = false;
    const summary = await indexRepository({
      repo: h.repo,
      db,
      workers: 0,
      // after discovery listed the files, before any is read: the attacker's moment
      onProgress: (p) => {
        if (p.phase !== 'parse' || swapped) return;
        swapped = true;
        fs.rmSync(path.join(h.repo, 'shop/cart.py'));
        fs.symlinkSync(h.victim, path.join(h.repo, 'shop/cart.py'));
        fs.renameSync(path.join(h.repo, 'web'), path.join(h.repo, 'web.real'));
        fs.mkdirSync(path.join(h.sentinel, 'web'));
        fs.writeFileSync(path.join(h.sentinel, 'web/api.ts'), 'export const SECRET_OUTSIDE_TS = 1;\n');
        fs.symlinkSync(path.join(h.sentinel, 'web'), path.join(h.repo, 'web'));
        fs.rmSync(path.join(h.repo, 'shop/pricing.py'));
        expect(spawnFifo(path.join(h.repo, 'shop/pricing.py'))).toBe(0);
      },
    });
    expect(swapped).toBe(true);
    const text = indexedText(db);
    expect(text).not.toMatch(/SECRET.OUTSIDE/);
    const reasons = Object.fromEntries(summary.skippedPaths.map((s) => [s.path, s.reason]));
    expect(reasons).toMatchObject({ 'shop/cart.py': 'symlink', 'web/api.ts': 'symlink-outside', 'shop/pricing.py': 'unreadable' });
    // what was not swapped is indexed as usual
    expect(text).toContain('def test_total_applies_tax');
  });

  it('whole files (allot files) after indexing: a FIFO or a link in an indexed file\'s place is reported, never read', async () => {
    const h = hostile();
    const db = path.join(h.repo, '.allot/index.db');
    await indexRepository({ repo: h.repo, db, workers: 0 });
    // the same bytes outside: followed, the link would pass the hash check and be shown
    fs.copyFileSync(path.join(h.repo, 'shop/pricing.py'), h.victim);
    fs.rmSync(path.join(h.repo, 'shop/pricing.py'));
    fs.symlinkSync(h.victim, path.join(h.repo, 'shop/pricing.py'));
    fs.rmSync(path.join(h.repo, 'shop/cart.py'));
    expect(spawnFifo(path.join(h.repo, 'shop/cart.py'))).toBe(0);
    const store = openStore(db, { readonly: true });
    try {
      const files = storeFileSource(store, h.repo);
      expect(files.content('shop/pricing.py')).toMatchObject({ reason: 'unreadable', message: expect.stringMatching(/symbolic link/) });
      expect(files.content('shop/cart.py')).toMatchObject({ reason: 'unreadable', message: expect.stringMatching(/not a regular file/) });
      expect(files.content('web/api.ts')).toMatchObject({ text: expect.stringContaining('export') });
    } finally {
      store.close();
    }
  });

  it('a file name that is not UTF-8 is reported as such (not as deleted); one with a newline is indexed', () => {
    const h = hostile();
    fs.writeFileSync(Buffer.from(`${h.repo}/shop/bad\xff\xfe.py`, 'latin1'), 'def f():\n    return 1\n');
    fs.writeFileSync(path.join(h.repo, 'shop/new\nline.py'), 'def g():\n    return 2\n');
    const found = discoverFiles(h.repo, { maxFileBytes: 1 << 20 });
    expect(found.skipped.filter((s) => s.path.startsWith('shop/bad'))).toEqual([
      { path: 'shop/bad\uFFFD\uFFFD.py', reason: 'unreadable', message: 'the file name is not valid UTF-8 (rename it to index it)' },
    ]);
    expect(found.files).toContain('shop/new\nline.py');
  });

  it('ignore files that are links or FIFOs are not followed, as git does: discovery ends at once and their rules do not apply', () => {
    const h = hostile();
    fs.symlinkSync('/dev/zero', path.join(h.repo, 'shop/.gitignore'));
    fs.symlinkSync(h.victim, path.join(h.repo, '.gitignore'));
    expect(spawnFifo(path.join(h.repo, 'web/.allotignore'))).toBe(0);
    fs.mkdirSync(path.join(h.repo, '.git/info'), { recursive: true });
    fs.symlinkSync(h.victim, path.join(h.repo, '.git/info/exclude'));
    const found = discoverFiles(h.repo, { maxFileBytes: 1 << 20 });
    expect(found.files).toEqual(expect.arrayContaining(['shop/cart.py', 'shop/tests/test_cart.py', 'web/api.ts']));
    const matcher = createIgnoreMatcher(h.repo);
    expect(matcher.isIgnored('shop/cart.py', false)).toBe(false);
    expect(matcher.isIgnored('web/api.ts', false)).toBe(false);
    // a regular rule file still applies
    fs.writeFileSync(path.join(h.repo, 'docs/.gitignore'), '*.md\n');
    expect(discoverFiles(h.repo, { maxFileBytes: 1 << 20 }).files).not.toContain('docs/usage.md');
  });
});

/** Makes a FIFO (Node has no mkfifo): the exit status of mkfifo(1). */
function spawnFifo(file: string): number | null {
  return spawnSync('mkfifo', [file]).status;
}
