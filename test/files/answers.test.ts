import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { agreeAtTheTop, agreeThird, agreeTwo, cleanAnswer, firstAnswerFirst, type DroppedPath } from '../../allocator/files/agree.ts';
import { parseAnswer } from '../../allocator/files/parse-answer.ts';
import { parseSearch } from '../../allocator/files/searches.ts';

const fixture = JSON.parse(fs.readFileSync(new URL('./fixtures/model-answers.json', import.meta.url), 'utf8')) as {
  inventory: string[];
  answers: { name: string; text: string; paths: string[]; searches: { kind: string; query: string }[] }[];
};

describe('lenient reading of model answers (recorded answers)', () => {
  for (const a of fixture.answers) {
    it(a.name, () => {
      const parsed = parseAnswer(a.text, fixture.inventory);
      expect(parsed.paths).toEqual(a.paths);
      expect(parsed.searches).toEqual(a.searches);
    });
  }

  it('reads typed searches as people write them', () => {
    expect(parseSearch('definition Session.send')).toEqual({ kind: 'definition', query: 'Session.send' });
    expect(parseSearch('callers `prepare_url`')).toEqual({ kind: 'callers', query: 'prepare_url' });
    expect(parseSearch('string "Invalid URL %r: No host supplied"')).toEqual({ kind: 'string', query: 'Invalid URL %r: No host supplied' });
    expect(parseSearch("string 'x'")).toBeNull(); // too short to mean anything
    expect(parseSearch('find the bug')).toBeNull();
  });
});

describe('agreement', () => {
  const indexed = new Set(['a.py', 'b.py', 'c.py', 'd.py', 'tests/test_a.py', 'docs/a.md', 'pkg/x_test.go', 'web/a.spec.ts', 'README.md']);

  it('keeps the files both answers name, in the first answer order', () => {
    expect(agreeTwo(['c.py', 'a.py', 'b.py'], ['b.py', 'c.py', 'd.py'])).toEqual(['c.py', 'b.py']);
    expect(agreeTwo(['a.py'], ['b.py'])).toEqual([]);
  });

  it('at the top: after the first agreed file, keeps only files some answer ranks first', () => {
    const first = ['c.py', 'a.py', 'b.py'];
    const second = ['b.py', 'd.py', 'a.py', 'c.py'];
    expect(agreeTwo(first, second)).toEqual(['c.py', 'a.py', 'b.py']);
    expect(agreeAtTheTop(agreeTwo(first, second), [first, second])).toEqual(['c.py', 'b.py']);
    expect(agreeAtTheTop([], [first, second])).toEqual([]);
  });

  it('with no agreement at all, the first answer\'s first file', () => {
    expect(firstAnswerFirst([['a.py', 'b.py'], ['c.py']])).toEqual(['a.py']);
    expect(firstAnswerFirst([[], ['c.py']])).toEqual(['c.py']);
    expect(firstAnswerFirst([[], []])).toEqual([]);
  });

  it('with no shared file, keeps what a third answer shares with either, in its order', () => {
    expect(agreeThird(['a.py'], ['b.py'], ['d.py', 'b.py', 'a.py'])).toEqual(['b.py', 'a.py']);
    expect(agreeThird(['a.py'], ['b.py'], ['c.py'])).toEqual([]);
  });

  it('drops tests, documentation and paths the index does not hold, saying why', () => {
    const dropped: DroppedPath[] = [];
    const clean = cleanAnswer(['./a.py', 'tests/test_a.py', 'docs/a.md', 'README.md', 'pkg/x_test.go', 'web/a.spec.ts', 'nope.py', 'a.py', 'b.py'], indexed, dropped);
    expect(clean).toEqual(['a.py', 'b.py']);
    expect(dropped).toEqual([
      { path: 'tests/test_a.py', reason: 'test' },
      { path: 'docs/a.md', reason: 'doc' },
      { path: 'README.md', reason: 'doc' },
      { path: 'pkg/x_test.go', reason: 'test' },
      { path: 'web/a.spec.ts', reason: 'test' },
      { path: 'nope.py', reason: 'not-indexed' },
    ]);
  });
});
