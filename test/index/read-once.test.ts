import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readRepoFile } from '../../indexer/extract/extract-file.ts';
import { indexRepository } from '../../indexer/index-repository.ts';
import { openStore } from '../../indexer/store/open.ts';
import { scratchDirs, writeTree } from '../helpers/repo.ts';

const dir = scratchDirs('allot-read-once-');
afterEach(() => vi.restoreAllMocks());

const TREE: Record<string, string | Buffer> = {
  'pkg/a.py': 'from pkg.b import helper\n\n\ndef run(x):\n    """Run it."""\n    return helper(x)\n',
  'pkg/b.py': 'def helper(x):\n    return x * 2\n',
  'web/c.ts': 'export function greet(name: string): string {\n  return `hi ${name}`;\n}\n',
  'docs/notes.md': '# Notes\n\nSee `run`.\n',
  'logo.png': Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]), Buffer.alloc(300_000, 7)]),
};

describe('reading each file once', () => {
  it('opens a file once and reads only the first bytes of a binary one', () => {
    const repo = dir();
    writeTree(repo, TREE);
    const opens = vi.spyOn(fs, 'openSync');
    const whole = vi.spyOn(fs, 'readFileSync');
    const reads = vi.spyOn(fs, 'readSync');
    const text = readRepoFile(repo, 'pkg/a.py', 1 << 20);
    expect(text.status === 'read' && Buffer.from(text.bytes).toString()).toBe(TREE['pkg/a.py']);
    expect(text.status === 'read' && text.hash).toBe(crypto.createHash('sha1').update(TREE['pkg/a.py']).digest('hex'));
    expect(opens).toHaveBeenCalledTimes(1);
    expect(whole).not.toHaveBeenCalled();
    reads.mockClear();
    expect(readRepoFile(repo, 'logo.png', 1 << 20)).toMatchObject({ status: 'skipped', reason: 'binary' });
    const bytesRead = reads.mock.results.reduce((n, r) => n + (r.value as number), 0);
    expect(bytesRead).toBeLessThanOrEqual(8000);
    expect(opens).toHaveBeenCalledTimes(2);
  });

  it('a cold index opens each file once and decodes each text once', async () => {
    const repo = dir();
    writeTree(repo, TREE);
    const db = openStore(path.join(dir(), 'index.db'));
    const opens = vi.spyOn(fs, 'openSync');
    const decode = vi.spyOn(TextDecoder.prototype, 'decode');
    const summary = await indexRepository({ repo, db, workers: 0 });
    expect(summary.files).toBe(4);
    for (const rel of Object.keys(TREE)) {
      const abs = path.join(repo, rel);
      expect(opens.mock.calls.filter(([p]) => p === abs).length, rel).toBe(1);
    }
    for (const [rel, content] of Object.entries(TREE)) {
      if (Buffer.isBuffer(content)) continue;
      const decodes = decode.mock.calls.filter(([b]) => b instanceof Uint8Array && Buffer.from(b.buffer, b.byteOffset, b.byteLength).equals(Buffer.from(content)));
      expect(decodes.length, rel).toBe(1);
    }
    db.close();
  });
});
