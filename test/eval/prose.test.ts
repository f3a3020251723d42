import { describe, expect, it } from 'vitest';
import { proseMetrics, type ContextBlock } from '../../client/eval/metrics.ts';
import { goldEdits } from '../../client/eval/patch.ts';
import { issueTitle } from '../../client/eval/run-prose.ts';

// A tiny fix in the SWE-bench format: one file modified in two hunks (a replacement and a pure insertion), one created.
const PATCH = [
  'diff --git a/shop/pricing.py b/shop/pricing.py',
  'index 1111111..2222222 100644',
  '--- a/shop/pricing.py',
  '+++ b/shop/pricing.py',
  '@@ -1,4 +1,4 @@',
  ' def apply_discount(amount, percent):',
  '     """Reduce amount by percent."""',
  '-    return amount * (100 - percent) / 100',
  '+    return round(amount * (100 - percent) / 100, 2)',
  ' ',
  '@@ -8,3 +8,5 @@ def tax(amount):',
  ' def total(items):',
  '     s = sum(items)',
  '+    if s < 0:',
  '+        raise ValueError(s)',
  '     return s',
  'diff --git a/shop/new.py b/shop/new.py',
  'new file mode 100644',
  '--- /dev/null',
  '+++ b/shop/new.py',
  '@@ -0,0 +1,2 @@',
  '+def fresh():',
  '+    return 1',
  '',
].join('\n');

const PRICING = [
  'def apply_discount(amount, percent):', // 1
  '    """Reduce amount by percent."""', // 2
  '    return amount * (100 - percent) / 100', // 3
  '', // 4
  '', // 5
  'def tax(amount):', // 6
  '    return amount * 0.2', // 7
  'def total(items):', // 8
  '    s = sum(items)', // 9
  '    return s', // 10
].join('\n') + '\n';

const repoText = (p: string) => (p === 'shop/pricing.py' ? PRICING : null);
const block = (path: string, startLine: number, endLine: number, text = PRICING.split('\n').slice(startLine - 1, endLine).join('\n')): ContextBlock =>
  ({ path, startLine, endLine, text });

describe('gold edits of a patch (old side)', () => {
  it('takes deleted lines, the lines around a pure insertion, and leaves out created files', () => {
    expect(goldEdits(PATCH)).toEqual([{ path: 'shop/pricing.py', hunks: [{ lines: [3] }, { lines: [9, 10] }] }]);
  });

  it('counts a run of replacements and a trailing no-newline marker inside the hunk', () => {
    const p = '--- a/x.js\n+++ b/x.js\n@@ -3,4 +3,3 @@\n a\n-b\n-c\n+bc\n d\n\\ No newline at end of file\n';
    expect(goldEdits(p)).toEqual([{ path: 'x.js', hunks: [{ lines: [4, 5] }] }]);
  });
});

describe('prose metrics', () => {
  const gold = ['shop/pricing.py'];
  const edits = goldEdits(PATCH);

  it('credits an edited line only when a block of its file spans it and holds it verbatim', () => {
    const m = proseMetrics([block('shop/pricing.py', 1, 4)], gold, edits, repoText);
    expect(m).toEqual({ goldFileShown: true, editedLineShown: true, allHunksShown: false, hunkRecall: 0.5, hunks: 2 });
    // The same span whose text leaves line 3 out (an outline) is not credited with it.
    const outline = proseMetrics([block('shop/pricing.py', 1, 4, 'def apply_discount(amount, percent):\n    ...')], gold, edits, repoText);
    expect(outline.editedLineShown).toBe(false);
    expect(outline.goldFileShown).toBe(true);
  });

  it('shows every hunk when both edits are in view, and nothing for blocks of other files', () => {
    const both = proseMetrics([block('shop/pricing.py', 1, 3), block('shop/pricing.py', 9, 9)], gold, edits, repoText);
    expect(both.allHunksShown).toBe(true);
    expect(both.hunkRecall).toBe(1);
    const elsewhere = proseMetrics([{ path: 'shop/cart.py', startLine: 1, endLine: 3, text: '    return amount * (100 - percent) / 100' }], gold, edits, repoText);
    expect(elsewhere).toEqual({ goldFileShown: false, editedLineShown: false, allHunksShown: false, hunkRecall: 0, hunks: 2 });
  });

  it('does not count descriptor-only blocks (no lines shown) as showing the file', () => {
    expect(proseMetrics([{ path: 'shop/pricing.py', startLine: 0, endLine: 0, text: '' }], gold, edits, repoText).goldFileShown).toBe(false);
  });
});

describe('issue forms', () => {
  it('takes the first non-blank line as the title', () => {
    expect(issueTitle('\n  [Bug] langs_count is invalid when layout=compact \n\n**Describe the bug**')).toBe('[Bug] langs_count is invalid when layout=compact');
  });
});
