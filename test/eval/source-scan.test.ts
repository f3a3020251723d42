import { describe, expect, it } from 'vitest';
import { excluded, excludingRetriever } from '../../client/eval/exclusion.ts';
import { codeMask, statementEnd, useColumn } from '../../client/eval/source-scan.ts';
import type { Candidate } from '../../indexer/types.ts';

describe('code mask', () => {
  it('Python: comments, strings and triple-quoted strings are blanked, columns kept', () => {
    const text = 'x = "a # b"  # note\ny = f\'{z}\'\n"""doc\nstill doc"""; w = 1\r\n';
    expect(codeMask(text, 'python')).toEqual([
      'x = ' + ' '.repeat(15),
      'y = f' + ' '.repeat(5),
      '      ',
      '            ; w = 1',
      '',
    ]);
  });

  it('C-like: line and block comments, quotes and templates across lines', () => {
    const text = "a = 'x'; // c\n/* one\ntwo */ b = `t\n${u}` + \"s\";";
    expect(codeMask(text, 'typescript')).toEqual(['a =    ;     ', '      ', '       b =   ', '      +    ;']);
    expect(codeMask("let r: &'a str = \"q\";", 'rust')).toEqual(["let r: &'a str =    ;"]);
  });
});

describe('uses of a name', () => {
  it('whole identifiers, not member access, keyword arguments or object keys', () => {
    expect(useColumn('m = midpoint(a, b)', 'midpoint')).toBe(4);
    expect(useColumn('m = midpoint_only', 'midpoint')).toBe(-1);
    expect(useColumn('s = settings.ORIGIN', 'ORIGIN')).toBe(-1);
    expect(useColumn('s = settings . ORIGIN', 'ORIGIN')).toBe(-1);
    expect(useColumn('f(*args, ...ORIGIN)', 'ORIGIN', 'typescript')).toBe(12);
    expect(useColumn('def f(p, P=None):', 'P')).toBe(-1);
    expect(useColumn('if P == q:', 'P')).toBe(3);
    expect(useColumn('const c = { Ruler: 1 };', 'Ruler', 'typescript')).toBe(-1);
    expect(useColumn('  Ruler?: number;', 'Ruler', 'typescript')).toBe(-1);
    expect(useColumn('const r: Ruler = x ? Ruler : y;', 'Ruler', 'typescript')).toBe(9);
    expect(useColumn('d = {Ruler: 1}', 'Ruler', 'python')).toBe(5);
    expect(useColumn('$el = $(x)', '$')).toBe(6);
  });

  it('statement ends: brackets, backslashes and trailing commas', () => {
    const masked = ['from a import (', '    b,', '    c,', ')', 'import d, \\', '    e', 'x = 1'];
    expect(statementEnd(masked, 1)).toBe(4);
    expect(statementEnd(masked, 5)).toBe(6);
    expect(statementEnd(masked, 7)).toBe(7);
  });
});

describe('what a task may not see', () => {
  const cand = (fiber: string, p: string, startLine: number, endLine: number): Candidate => ({
    viewId: startLine, objectId: `${fiber}#${startLine}`, fiber, path: p, objectName: 'x', objectKind: 'function',
    viewKind: 'body', startLine, endLine, score: 1, reason: 'bm25',
  });
  const ex = { path: 'app/main.py', line: 20 };

  it('drops the task file\'s objects and views at or after the position, keeps its earlier import lines', () => {
    expect(excluded(cand('app/main.py', 'app/main.py', 1, 5), ex)).toBe(true);
    expect(excluded(cand('lib/a.py', 'app/main.py', 25, 25), ex)).toBe(true);
    expect(excluded(cand('lib/a.py', 'app/main.py', 18, 20), ex)).toBe(true);
    expect(excluded(cand('lib/a.py', 'app/main.py', 2, 2), ex)).toBe(false);
    expect(excluded(cand('lib/a.py', 'lib/a.py', 30, 40), ex)).toBe(false);
  });

  it('over-fetches so k candidates remain, memoises, and charges hits their retrieval time', () => {
    const all = [cand('app/main.py', 'app/main.py', 1, 5), cand('app/main.py', 'app/main.py', 6, 9), cand('lib/a.py', 'lib/a.py', 1, 3), cand('lib/b.py', 'lib/b.py', 1, 3)];
    let calls = 0;
    const r = excludingRetriever({ name: 'fake', retrieve: (_q, k) => (calls++, all.slice(0, k)) }, ex);
    expect(r.retrieve('q', 1).map((c) => c.fiber)).toEqual(['lib/a.py']);
    expect(r.retrieve('q', 2).map((c) => c.fiber)).toEqual(['lib/a.py', 'lib/b.py']);
    const before = calls;
    r.charged();
    expect(r.retrieve('q', 2)).toHaveLength(2);
    expect(calls).toBe(before);
    expect(r.charged()).toBeGreaterThanOrEqual(0);
    expect(r.charged()).toBe(0);
  });
});
