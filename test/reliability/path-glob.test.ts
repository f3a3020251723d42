// find_symbol's path globs in linear time: the same answers as picomatch (dot: true) on a table and on random
// globs over repository paths (normalised: no empty, `.` or `..` segments; `**` as a whole segment, since picomatch reads
// `**{a,b}` and `**a` differently), and no catastrophic backtracking (picomatch's regular expression took 52 s on the last case).
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { globMatcher, globProblem, MAX_GLOB_ALTERNATIVES } from '../../indexer/retrieve/path-glob.ts';

const table: [string, string][] = [
  ['foo/**', 'foo'], ['foo/**', 'foo/a/b'], ['**/x', 'x'], ['**/x', 'a/b/x'], ['a/**/b', 'a/b'], ['a/**/b', 'a/x/y/b'],
  ['*.ts', 'a/b.ts'], ['**/*.ts', 'b.ts'], ['**', 'a/b'], ['a**b', 'axxb'], ['a**b', 'ax/xb'], ['{a,b}/c', 'b/c'],
  ['{a,b}/c', 'd/c'], ['src/{core,ui/{x,y}}/*.py', 'src/ui/y/m.py'], ['!a/**', 'b/c'], ['!a/**', 'a/c'], ['*', '.x'],
  ['a/*', 'a/.b'], ['a/[b-d]', 'a/c'], ['a/[b-d]', 'a/e'], ['a/[^b]', 'a/c'], ['a\\*', 'a*'], ['a\\*', 'ab'],
  ['a/**/**/b', 'a/b'], ['**/**', 'a/b'], ['{a,b', '{a,b'], ['x/**/', 'x/y'],
  ['sympy/**/test_*.py', 'sympy/core/tests/test_add.py'], ['**/tests/**', 'a/tests/b.py'], ['**/tests/**', 'tests'],
];

describe('path globs', () => {
  it.each(table)('%s against %s: as picomatch', (glob, path) => {
    expect(globMatcher(glob)(path)).toBe(picomatch(glob, { dot: true })(path));
  });

  it('random globs and paths: as picomatch', () => {
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const pick = <T>(xs: readonly T[]) => xs[rand(xs.length)]!;
    const atoms = ['a', 'b', '.', '*', '?', '[ab]', '[^a]', '{a,b}', '{a,b*}', '/', '/**/', '**/', '/**'] as const;
    let compared = 0;
    for (let g = 0; g < 400; g++) {
      const glob = Array.from({ length: 1 + rand(6) }, () => pick(atoms)).join('').replace(/^\/+/, '');
      if (!glob || /\/\/|\*\*\*/.test(glob) || glob.split('/').some((seg) => seg === '.' || seg === '..' || (seg.includes('**') && seg !== '**'))) continue;
      const match = globMatcher(glob);
      const oracle = picomatch(glob, { dot: true });
      for (let p = 0; p < 40; p++) {
        const path = Array.from({ length: 1 + rand(7) }, () => pick(['a', 'b', '.', '/', 'ab'])).join('');
        if (path.split('/').some((seg) => seg === '' || seg === '.' || seg === '..')) continue;
        expect([glob, path, match(path)]).toEqual([glob, path, oracle(path)]);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(5000);
  });

  it('no catastrophic backtracking: stars against a long name of the letter they are between', () => {
    const glob = `${'*a'.repeat(300)}*b`;
    const match = globMatcher(glob);
    expect(match('a'.repeat(240))).toBe(false);
    expect(match(`${'a'.repeat(300)}b`)).toBe(true);
    expect(globMatcher(`${'**/a'.repeat(100)}/b`)(`${'a/'.repeat(150)}c`)).toBe(false);
  });

  it('POSIX [!a]; alternatives that expand too far are refused with a reason', () => {
    expect(globProblem('{a,b}{c,d}{e,f}')).toBeNull();
    expect(globMatcher('[!a]b')('cb')).toBe(true);
    expect(globProblem('{a,b}'.repeat(7))).toMatch(new RegExp(`more than ${MAX_GLOB_ALTERNATIVES} globs`));
  });
});
