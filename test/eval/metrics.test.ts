import { describe, expect, it } from 'vitest';
import { covers, issueMetrics, linesOf, normalizeLine, recallAtK, spansOverlap, verbatimLines } from '../../client/eval/metrics.ts';

describe('cross-file metrics', () => {
  it('normalises lines by stripping trailing whitespace and CR only', () => {
    expect(normalizeLine('  return x  \r')).toBe('  return x');
    expect(normalizeLine('\tdef f():\t')).toBe('\tdef f():');
    expect(normalizeLine('   ')).toBe('');
  });

  it('Recall@B: every non-blank gold line verbatim, whatever the CRLF and trailing whitespace', () => {
    const gold = ['def area(r):', '    """Area of a circle."""', '', '    return 3.14 * r * r  '];
    const context = '### geo.py:10-14 | area\r\ndef area(r):   \r\n    """Area of a circle."""\r\n\r\n    return 3.14 * r * r\r\n';
    expect(verbatimLines(gold, context)).toEqual({ all: true, found: 3, required: 3 });
  });

  it('Recall@B: indentation matters and a missing line fails the task', () => {
    const gold = ['def area(r):', '    return 3.14 * r * r'];
    expect(verbatimLines(gold, 'def area(r):\nreturn 3.14 * r * r')).toEqual({ all: false, found: 1, required: 2 });
    expect(verbatimLines(gold, 'def area(r):  # cached\n    return 3.14 * r * r')).toEqual({ all: false, found: 1, required: 2 });
    expect(verbatimLines(gold, '')).toEqual({ all: false, found: 0, required: 2 });
  });

  it('Recall@K: a block of the gold file overlapping the gold span', () => {
    const gold = { path: 'a/geo.py', startLine: 10, endLine: 24 };
    expect(recallAtK([{ path: 'a/geo.py', startLine: 1, endLine: 9 }], gold)).toBe(false);
    expect(recallAtK([{ path: 'a/geo.py', startLine: 24, endLine: 40 }], gold)).toBe(true);
    expect(recallAtK([{ path: 'a/geo.py', startLine: 12, endLine: 13 }], gold)).toBe(true);
    expect(recallAtK([{ path: 'a/geo.py', startLine: 1, endLine: 400 }], gold)).toBe(true);
    expect(recallAtK([{ path: 'b/geo.py', startLine: 10, endLine: 24 }], gold)).toBe(false);
    expect(recallAtK([], gold)).toBe(false);
    expect(spansOverlap({ path: 'x', startLine: 5, endLine: 5 }, { path: 'x', startLine: 5, endLine: 9 })).toBe(true);
  });

  it('reads gold lines from LF and CRLF files alike', () => {
    expect(linesOf('a\r\nb\r\nc\r\n', 2, 3)).toEqual(['b', 'c']);
    expect(linesOf('a\nb\nc', 3, 9)).toEqual(['c']);
  });
});

describe('issue metrics', () => {
  const repo: Record<string, string> = {
    'src/a.py': 'def a():\n    return 1\n',
    'src/b.py': 'x = 1\ny = 2\nz = 3\n',
    'src/c.py': 'c = 3\n',
  };
  const text = (p: string) => repo[p] ?? null;

  it('gold files shown whole, shares of gold and verbatim lines (hand-computed)', () => {
    const blocks = [
      // whole a.py with a descriptor line: 3 non-blank lines, 2 verbatim, both in a gold file
      { path: 'src/a.py', startLine: 1, endLine: 2, text: '### src/a.py\ndef a():\n    return 1' },
      // part of b.py (gold, not whole): 2 lines, 1 verbatim, 1 invented
      { path: 'src/b.py', startLine: 1, endLine: 1, text: 'x = 1\ny = 99' },
      // c.py, not gold: 1 verbatim line
      { path: 'src/c.py', startLine: 1, endLine: 1, text: 'c = 3\n\n' },
    ];
    const m = issueMetrics(blocks, ['src/a.py', 'src/b.py'], text);
    expect(m).toEqual({
      goldFileRecall: 0.5, allGold: false, noGold: false, goldFileTouched: 1,
      goldLineShare: 3 / 6, verbatimShare: 4 / 6, contextLines: 6,
    });
  });

  it('all and none', () => {
    const whole = [{ path: 'src/b.py', startLine: 1, endLine: 2, text: 'x = 1\ny = 2' }, { path: 'src/b.py', startLine: 3, endLine: 3, text: 'z = 3' }];
    expect(issueMetrics(whole, ['src/b.py'], text)).toMatchObject({ goldFileRecall: 1, allGold: true, noGold: false, goldLineShare: 1, verbatimShare: 1 });
    const none = issueMetrics([{ path: 'src/c.py', startLine: 1, endLine: 1, text: 'c = 3' }], ['src/a.py'], text);
    expect(none).toMatchObject({ goldFileRecall: 0, allGold: false, noGold: true, goldLineShare: 0, verbatimShare: 1 });
    expect(issueMetrics([], ['src/a.py'], text)).toMatchObject({ noGold: true, contextLines: 0, verbatimShare: null, goldLineShare: null });
  });

  it('headers a renderer puts outside the blocks count as context lines that are not verbatim', () => {
    const blocks = [{ path: 'src/b.py', startLine: 1, endLine: 3, text: 'x = 1\ny = 2\nz = 3\n' }];
    const context = '## src/b.py (whole file)\nx = 1\ny = 2\nz = 3\n';
    expect(issueMetrics(blocks, ['src/b.py'], text, context)).toMatchObject({ contextLines: 4, verbatimShare: 0.75, goldLineShare: 0.75, goldFileRecall: 1 });
    expect(issueMetrics(blocks, ['src/b.py'], text, 'x = 1\ny = 2\nz = 3')).toMatchObject({ contextLines: 3, verbatimShare: 1 });
  });

  it('a line claimed from a span it is not in is not verbatim', () => {
    const m = issueMetrics([{ path: 'src/b.py', startLine: 1, endLine: 1, text: 'z = 3' }], ['src/b.py'], text);
    expect(m.verbatimShare).toBe(0);
  });

  it('covers: spans together cover 1..n', () => {
    expect(covers([{ startLine: 3, endLine: 5 }, { startLine: 1, endLine: 2 }], 5)).toBe(true);
    expect(covers([{ startLine: 1, endLine: 2 }, { startLine: 4, endLine: 5 }], 5)).toBe(false);
    expect(covers([{ startLine: 1, endLine: 9 }], 5)).toBe(true);
  });
});
