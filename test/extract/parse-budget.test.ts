// A parse's budget is counted in the parser's progress steps, not in time: the same file spends the same steps on
// any machine, and a file that needs more than the budget is given up (indexed as text) the same way everywhere.
import { describe, expect, it } from 'vitest';
import { loadLanguage } from '../../indexer/languages/registry.ts';
import { parseBudget } from '../../indexer/extract/parse-budget.ts';

const source = Array.from({ length: 3000 }, (_, i) => `def f${i}(x):\n    return [x + ${i}, {"k": (x, ${i})}]\n`).join('\n');

async function stepsToParse(text: string): Promise<number> {
  const lang = await loadLanguage('python');
  let steps = 0;
  lang.parser.reset();
  const tree = lang.parser.parse(text, null, { progressCallback: () => (steps++, false) });
  tree?.delete();
  return steps;
}

describe('parseBudget', () => {
  it('a file spends the same number of steps every time it is parsed', async () => {
    const a = await stepsToParse(source);
    expect(a).toBeGreaterThan(10);
    expect(await stepsToParse(source)).toBe(a);
  });

  it('stops a parse that needs more steps than its budget, and lets one within it finish', async () => {
    const lang = await loadLanguage('python');
    const needed = await stepsToParse(source);
    const tight = parseBudget(Math.floor(needed / 2));
    lang.parser.reset();
    expect(lang.parser.parse(source, null, { progressCallback: tight.progress })).toBeNull();
    expect(tight.exhausted()).toBe(true);
    const ample = parseBudget(needed * 2);
    lang.parser.reset();
    const tree = lang.parser.parse(source, null, { progressCallback: ample.progress });
    expect(tree).not.toBeNull();
    expect(ample.exhausted()).toBe(false);
    tree?.delete();
  });

  it('the wall-clock backstop ends a budget whatever its steps', () => {
    const stalled = parseBudget(Number.MAX_SAFE_INTEGER, -1);
    expect(stalled.progress()).toBe(true);
  });
});
