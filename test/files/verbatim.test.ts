import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sliceLines } from '../../allocator/files/render.ts';
import { selectFiles } from '../../allocator/files/select.ts';
import type { DB } from '../../indexer/store/open.ts';
import { indexedProject } from './project.ts';

// Files whose bytes are easy to get wrong: line endings, tabs, trailing spaces, non-ASCII, final newline or none.
const TRICKY: Record<string, string | Buffer> = {
  'src/crlf.py': 'def windows():\r\n    return "crlf"\r\n\r\n\r\nclass Kept:\r\n    pass\r\n',
  'src/mixed.py': 'def mixed():\n    a = 1\r\n    b = 2\n\treturn a + b\r\n',
  'src/tabs_trailing.py': 'def tabs():\n\tif True:  \n\t\treturn "x"\t\n   \n',
  'src/unicode.py': '# -*- coding: utf-8 -*-\ndef grüße(name="Zoë"):\n    return f"héllo {name} — 日本語 🚀"\n',
  'src/nofinal.py': 'def no_final_newline():\n    return 1',
  'src/bom.py': '\ufeffdef with_bom():\n    return "bom"\n',
  'src/empty.py': '',
  'src/lone_cr.py': 'def lone():\n    return "a\rb"\n',
};

let repo: string;
let db: DB;
let source: Awaited<ReturnType<typeof indexedProject>>['source'];
beforeAll(async () => {
  ({ repo, db, source } = await indexedProject(TRICKY));
});
afterAll(() => {
  db.close();
  fs.rmSync(repo, { recursive: true, force: true });
});

const disk = (p: string) => fs.readFileSync(path.join(repo, p), 'utf8');

describe('file blocks are the files on disk, byte for byte', () => {
  it('shows every tricky file whole and exactly as written', async () => {
    const paths = Object.keys(TRICKY);
    const sel = await selectFiles('anything', source, { answers: [paths, paths] });
    const files = sel.blocks.filter((b) => b.role === 'file');
    expect(files.map((b) => b.path)).toEqual(paths);
    for (const b of files) {
      const text = disk(b.path);
      expect(b.text).toBe(text);
      expect(Buffer.from(b.text, 'utf8').equals(fs.readFileSync(path.join(repo, b.path)))).toBe(true);
      // every line, terminators included
      const lines = text.split(/(?<=\n)/);
      expect(b.text.split(/(?<=\n)/)).toEqual(lines);
      expect(b.startLine).toBe(1);
      // the block sits in the context under its header, its lines untouched
      expect(sel.text).toContain(`### ${b.path}:1-${b.endLine} (whole file`);
      expect(sel.text).toContain(`:1-${b.endLine} (whole file${text === '' || text.endsWith('\n') ? '' : '; no newline at end of file'})\n${text}`);
    }
    expect(sel.skipped).toEqual([]);
  });

  it('counts lines as the index does (CRLF is one line end, a lone CR is not, a final newline adds none)', async () => {
    const sel = await selectFiles('x', source, { answers: [['src/crlf.py', 'src/nofinal.py', 'src/lone_cr.py', 'src/empty.py']] });
    const end = Object.fromEntries(sel.blocks.map((b) => [b.path, b.endLine]));
    expect(end).toEqual({ 'src/crlf.py': 6, 'src/nofinal.py': 2, 'src/lone_cr.py': 2, 'src/empty.py': 1 });
  });

  it('renders evidence spans verbatim too', async () => {
    const sel = await selectFiles('x', source, { answers: [['src/nofinal.py']], searches: ['definition Kept', 'string "héllo"', 'definition mixed'] });
    const spans = sel.blocks.filter((b) => b.role === 'evidence');
    expect(spans.map((b) => b.path).sort()).toEqual(['src/crlf.py', 'src/mixed.py', 'src/unicode.py']);
    for (const b of spans) expect(b.text).toBe(sliceLines(disk(b.path), b.startLine, b.endLine));
    expect(spans.find((b) => b.path === 'src/crlf.py')!.text).toBe('class Kept:\r\n    pass\r\n');
  });

  it('never shows a file that changed since indexing, and says why', async () => {
    const p = path.join(repo, 'src/mixed.py');
    const before = fs.readFileSync(p);
    fs.writeFileSync(p, 'def mixed():\n    return 3\n');
    try {
      const sel = await selectFiles('x', source, { answers: [['src/mixed.py', 'src/crlf.py']] });
      expect(sel.blocks.map((b) => b.path)).toEqual(['src/crlf.py']);
      expect(sel.skipped).toEqual([expect.objectContaining({ path: 'src/mixed.py', role: 'file', reason: expect.stringMatching(/changed on disk since indexing/) })]);
      fs.rmSync(p);
      const gone = await selectFiles('x', source, { answers: [['src/mixed.py']] });
      expect(gone.skipped[0].reason).toMatch(/deleted since indexing/);
    } finally {
      fs.writeFileSync(p, before);
    }
  });

  it('slices lines with their own terminators', () => {
    expect(sliceLines('a\r\nb\nc', 2, 3)).toBe('b\nc');
    expect(sliceLines('a\r\nb\nc', 1, 1)).toBe('a\r\n');
    expect(sliceLines('a\nb\n', 2, 9)).toBe('b\n');
    expect(sliceLines('a\nb\n', 3, 4)).toBe('');
  });
});
