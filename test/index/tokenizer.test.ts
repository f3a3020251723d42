import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Tiktoken } from 'tiktoken';
import { describe, expect, it } from 'vitest';
import { chunks, cutsBefore, getTokenizer, TOKENIZER_NAMES } from '../../indexer/tokenizer.ts';

const require = createRequire(import.meta.url);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const encoding = (name: string): Tiktoken => (require('tiktoken') as typeof import('tiktoken')).get_encoding(name as 'cl100k_base');

// Texts where a pre-tokenizer piece could cross a newline: blank and blank-only lines, trailing blanks,
// punctuation before a newline, a line opening with '/', carriage returns and Unicode blanks at a line's start.
const TRICKY = [
  'def f(x):\n    return x\n\n\n    \n\t\nclass A:\n  pass',
  'a = (1,\n      2)\n)\n/\n// comment\n/* block */\n  / x\n',
  'x  \n  \n   y\r\n\r\n  \r z\n\u00a0\u00a0w\n\u3000v\n\u0085u\n\ufefft\n',
  "it's\n's\n'll go\n123\n4567\n  89\n--\n->\n=>\n",
  '### a.py:1-3 | f | def f()\n    def f():\n        """Doc."""\n\n        return 1',
  '\n\n\nx\n\n',
  '',
  'ünïcödé\n  ñ\n\u2028\nend',
];

/** The project's own sources: real code in two layouts (TypeScript and the SQL migrations). */
function sources(): string[] {
  const out: string[] = [];
  for (const dir of ['allocator', 'indexer/retrieve', 'migrations']) {
    for (const f of fs.readdirSync(path.join(ROOT, dir))) {
      if (/\.(ts|sql)$/.test(f)) out.push(fs.readFileSync(path.join(ROOT, dir, f), 'utf8'));
    }
  }
  return out;
}

describe('the tokenizer wrapper counts exactly through remembered chunks', () => {
  it('splits nothing away: the chunks are the text', () => {
    for (const t of [...TRICKY, ...sources()]) expect(chunks(t).join('')).toBe(t);
  });

  it('cuts before an indented line with content, never before a blank one or a leading slash', () => {
    const t = 'a\n    b\n   \nc\n/d';
    expect(cutsBefore(t, 2)).toBe(true);
    expect(cutsBefore(t, 8)).toBe(false);
    expect(cutsBefore(t, 12)).toBe(true);
    expect(cutsBefore(t, 14)).toBe(false);
  });

  for (const name of TOKENIZER_NAMES) {
    it(`${name}: equals whole-text encoding on tricky texts and on windows of real sources`, () => {
      const enc = encoding(name);
      const tok = getTokenizer(name);
      const exact = (t: string) => enc.encode(t, [], []).length;
      for (const t of TRICKY) expect(tok.count(t), JSON.stringify(t)).toBe(exact(t));
      let seed = 7;
      const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
      for (const text of sources()) {
        const lines = text.split('\n');
        for (let k = 0; k < 4; k++) {
          const a = Math.floor(next() * lines.length);
          const window = `### f.ts:${a + 1} | x\n${lines.slice(a, a + 1 + Math.floor(next() * 60)).join('\n')}`;
          expect(tok.count(window)).toBe(exact(window));
          expect(tok.count(window)).toBe(exact(window)); // remembered
        }
        expect(tok.count(text)).toBe(exact(text));
      }
      enc.free();
    });
  }
});
