import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allot } from '../helpers/cli.ts';
import { copyFixture, writeTree } from '../helpers/repo.ts';
import { code } from './fixture.ts';

let repo: string;
beforeAll(() => {
  repo = copyFixture('arbitrate');
  writeTree(repo, {
    'candidates/broken.py': code(`
      def restock(stock, count):
          if count <= 0
              return stock.quantity
          return stock.add(count)
    `),
    'candidates/fixed.py': code(`
      def restock(stock, count):
          if count <= 0:
              return stock.quantity
          return stock.add(count)
    `),
    'candidates/reformatted.py': code(`
      def restock(stock,count):

          if count<=0:
              return stock.quantity  # nothing to add
          return stock.add( count )
    `),
    'candidates/render-bad.ts': code(`
      render(width: number): string {
        return pad(formatPrice(this.total(), 'EUR', 2), width);
      }
    `),
    'candidates/render-good.ts': code(`
      render(width: number): string {
        return pad(formatPrice(this.total(), 'EUR'), width);
      }
    `),
    'candidates/notes.txt': 'not a program\n',
  });
  const r = allot(['index', repo]);
  if (r.status !== 0) throw new Error(r.stderr);
});
afterAll(() => fs.rmSync(repo, { recursive: true, force: true }));

describe('allot arbitrate (real process)', () => {
  it('switches to the alternative on a witness and prints the contract JSON', () => {
    const r = allot(['arbitrate', '--default', 'candidates/broken.py', '--alternative', 'candidates/fixed.py', '--at', 'inventory/report.py:restock', '--json'], { cwd: repo });
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out)).toEqual(['choice', 'witnesses', 'reason']);
    expect(out.choice).toBe('alternative');
    expect(out.witnesses.map((w: { type: string; direction: string }) => [w.type, w.direction])).toEqual([
      ['syntax', 'alternative'], ['interface', 'none'], ['names', 'none'], ['compactness', 'none'],
    ]);
    for (const w of out.witnesses) {
      expect(Object.keys(w)).toEqual(['type', 'direction', 'evidence']);
      for (const e of w.evidence) expect(Object.keys(e)).toEqual(['program', 'line', 'name', 'detail']);
    }
    expect(out.reason).toMatch(/^alternative: syntax repair \(default 1 syntax error; alternative parses\)/);
  });

  it('prints a readable report, keeps the default when it is better, abstains on formatting', () => {
    const back = allot(['arbitrate', '--default', 'candidates/fixed.py', '--alternative', 'candidates/broken.py', '--at', 'inventory/report.py:restock'], { cwd: path.join(repo, 'inventory') });
    // relative paths are taken from the current directory; --at from the repository root
    expect(back.status).toBe(2);
    expect(back.stderr).toMatch(/cannot read candidates\/fixed\.py/);
    const text = allot(['arbitrate', '--default', path.join(repo, 'candidates/fixed.py'), '--alternative', path.join(repo, 'candidates/broken.py'), '--at', 'inventory/report.py:restock'], { cwd: path.join(repo, 'inventory') });
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^choice: default\nreason: default stands: syntax repair/);
    expect(text.stdout).toMatch(/\nsyntax +default +default parses; alternative 1 syntax error\n +alternative line 2: /);
    const fmt = allot(['arbitrate', '--default', 'candidates/fixed.py', '--alternative', 'candidates/reformatted.py', '--at', 'inventory/report.py:restock', '--json', '--repo', repo], { cwd: repo });
    const out = JSON.parse(fmt.stdout);
    expect(out.choice).toBe('default');
    expect(out.witnesses.every((w: { direction: string }) => w.direction === 'none')).toBe(true);
  });

  it('reads a TypeScript method candidate with the target class in scope, language from the extension', () => {
    const r = allot(['arbitrate', '--default', 'candidates/render-bad.ts', '--alternative', 'candidates/render-good.ts', '--at', 'web/cart.ts:Cart.render', '--json'], { cwd: repo });
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.choice).toBe('alternative');
    expect(out.witnesses[1].evidence[1]).toMatchObject({ program: 'default', line: 2, name: 'formatPrice' });
    const explicit = allot(['arbitrate', '--default', 'candidates/notes.txt', '--alternative', 'candidates/notes.txt', '--language', 'ts', '--json'], { cwd: repo });
    expect(JSON.parse(explicit.stdout).choice).toBe('default');
  });

  it('gives one-line errors with exit code 2', () => {
    const cases: [string[], RegExp][] = [
      [['--default', 'candidates/fixed.py', '--alternative', 'candidates/nope.py'], /cannot read candidates\/nope\.py: ENOENT/],
      [['--default', 'candidates/notes.txt', '--alternative', 'candidates/notes.txt'], /pass --language/],
      [['--default', 'candidates/fixed.py', '--alternative', 'candidates/render-good.ts'], /extensions disagree/],
      [['--default', 'candidates/fixed.py', '--alternative', 'candidates/fixed.py', '--language', 'cobol'], /unknown --language "cobol"/],
      [['--default', 'candidates/fixed.py', '--alternative', 'candidates/fixed.py', '--at', 'inventory/report.py:nope'], /inventory\/report\.py has no symbol nope/],
      [['--default', 'candidates/fixed.py', '--alternative', 'candidates/fixed.py', '--at', 'missing.py'], /missing\.py is not in the index/],
      [['--default', 'candidates/fixed.py', '--alternative', 'candidates/fixed.py', '--db', path.join(repo, 'none.db')], /run `allot index` first/],
    ];
    for (const [args, message] of cases) {
      const r = allot(['arbitrate', ...args], { cwd: repo });
      expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
    const missing = allot(['arbitrate', '--default', 'candidates/fixed.py'], { cwd: repo });
    expect(missing.status).not.toBe(0);
    expect(missing.stderr).toMatch(/--alternative/);
  });
});
