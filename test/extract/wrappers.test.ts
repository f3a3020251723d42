import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { extractFile } from '../../indexer/extract/extract-file.ts';
import { tempDir, writeTree } from '../helpers/repo.ts';

const root = tempDir();
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

async function objects(path: string, text: string) {
  writeTree(root, { [path]: text });
  const r = await extractFile(root, path, { maxFileBytes: 1 << 20 });
  if (r.status !== 'extracted') throw new Error(r.status);
  return r.file.objects.map((o) => `${o.kind} ${o.qualifiedName} ${o.startLine}-${o.endLine}`);
}

describe('wrappers belong to the definition they wrap', () => {
  it('gives a decorated class its decorator, not to its last method that ends on the same byte', async () => {
    expect(await objects('a.py', '@deco\nclass A:\n    def f(self):\n        pass\n\n    @prop\n    def g(self):\n        pass\n')).toEqual([
      'module a 1-8',
      'class A 1-8',
      'method A.f 3-4',
      'method A.g 6-8',
    ]);
  });
  it('gives an exported class its export, not to its last member', async () => {
    expect(await objects('b.ts', '/** A thing. */\nexport class B {\n  m() {}\n}\n')).toEqual(['module b 1-4', 'class B 1-4', 'method B.m 3-3']);
  });
});
