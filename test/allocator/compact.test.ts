import { describe, expect, it } from 'vitest';
import { allocate } from '../../allocator/allocate.ts';
import { outlinePlan } from '../../allocator/outline.ts';
import { renderInput, WHOLE_OVER_COMPACT } from '../../allocator/render.ts';
import type { ObjectText } from '../../allocator/types.ts';
import { getTokenizer } from '../../indexer/tokenizer.ts';
import type { Candidate } from '../../indexer/types.ts';
import { memorySource, obj, view } from './fixtures.ts';

const tok = getTokenizer('cl100k_base');
const structural = (c: Candidate): Candidate => ({ ...c, viaStructure: true, reason: 'structural: imported by the query' });
const fn = (id: string, n: number) =>
  obj(id, `pkg/${id}.py`, 1, [`def ${id}(x):`, ...Array.from({ length: n - 2 }, (_, i) => `    step_${i} = x + ${i}`), '    return x'], { name: id });

describe('compact forms only where they save: the fill\'s heads', () => {
  // A first further object of `n` lines, then more further objects than the budget holds (breadth runs out, so
  // nothing deepens afterwards): the first is whole when its whole is at most twice its 15-line head.
  it.each([
    { n: 18, whole: true },
    { n: 2 * 15, whole: true },
    { n: 2 * 15 + 3, whole: false },
    { n: 80, whole: false },
  ])('a structure-found object of $n lines in the fill: whole $whole', ({ n, whole }) => {
    const core = fn('core', 10);
    const first = fn('first', n);
    const others = Array.from({ length: 12 }, (_, k) => fn(`other_${k}`, 60));
    const objects = [core, first, ...others];
    // The others more likely than `first` (relevance): its growth is never worth more than their heads (growth.ts),
    // so breadth runs out first.
    const candidates = objects.map((o, k) => ({ ...structural(view(o, 100 - k)), relevance: o === first ? 0.5 : 1 }));
    const a = allocate(`from pkg import ${objects.map((o) => o.name).join(', ')}`, candidates, memorySource(objects), tok, { slots: '1+0', budget: 1500 });
    expect(a.totalTokens).toBeLessThanOrEqual(1500);
    expect(a.trace.fill!.skipped).toBeGreaterThan(0);
    const block = a.blocks.find((b) => b.object === 'first')!;
    expect(block).toMatchObject({ shownStartLine: 1, shownEndLine: whole ? n : 15 });
    // The others, longer than twice a head, are heads.
    for (const b of a.blocks.filter((x) => x.object.startsWith('other_'))) expect(b.shownEndLine).toBe(15);
  });
});

describe('compact forms only where they save: an outline\'s member listings', () => {
  const lines = [
    'class Writer:',
    '    """Writes migration files."""',
    '',
    '    @classmethod',
    '    def register(cls, kind, serializer):',
    '        Serializer.register(kind, serializer)',
    '',
    '    @property',
    '    def basedir(self):',
    '        """Where the file goes."""',
    ...Array.from({ length: 12 }, (_, i) => `        part_${i} = self.parts[${i}]`),
    '        return part_0',
  ];
  const members = [
    { id: 'register', start: 4, end: 6 },
    { id: 'basedir', start: 8, end: lines.length },
  ];
  const cls: ObjectText = {
    id: 'cls', path: 'pkg/writer.py', name: 'Writer', qualifiedName: 'Writer', kind: 'class', signature: 'class Writer',
    startLine: 1, endLine: lines.length, parentId: null, docstring: '"""Writes migration files."""', text: lines.join('\n'),
  };
  const objects: ObjectText[] = [cls, ...members.map((m) => ({
    id: m.id, path: cls.path, name: m.id, qualifiedName: `Writer.${m.id}`, kind: 'method' as const,
    signature: lines[m.start].trim().replace(/:$/, ''), startLine: m.start, endLine: m.end, parentId: 'cls',
    docstring: m.id === 'basedir' ? '"""Where the file goes."""' : null, text: lines.slice(m.start - 1, m.end).join('\n'),
  }))];

  it('lists each member with its decorators; a member at most twice its listing is listed whole', () => {
    const plan = outlinePlan(cls, renderInput(cls), objects);
    const listed = (id: string) => plan.members.find((m) => m.id === id)!.listing.map((i) => lines[i]);
    // decorator, declaration, and its one body line: 3 lines against a 2-line listing.
    expect(listed('register')).toEqual(lines.slice(3, 6));
    expect(3).toBeLessThanOrEqual(WHOLE_OVER_COMPACT * 2);
    // decorator, declaration and docstring line only: the body is far longer than that.
    expect(listed('basedir')).toEqual(['    @property', '    def basedir(self):', '        """Where the file goes."""']);
  });

  it('an outline of the class shows the short member whole and the long one by its listing', () => {
    const a = allocate('w = Writer()', [structural({ ...view(cls, 5), receiver: true })], memorySource(objects), tok, { slots: '1+0', budget: 90, noFill: true, headLines: 0 });
    const b = a.blocks[0];
    expect(b.outline).toBe(true);
    const shown = b.text.split('\n');
    for (const l of lines.slice(3, 6)) expect(shown).toContain(l);
    expect(shown).toContain('    @property');
    expect(shown).toContain('        """Where the file goes."""');
    expect(shown).not.toContain('        part_0 = self.parts[0]');
  });
});

describe('compact forms only where they save: a container whose member the fill finds after its head', () => {
  // A class of `n` methods of 8 lines: its head is 15 lines; its outline that head, every listing and the found
  // member whole. Further objects afterwards use what is left, so nothing deepens it later.
  it.each([
    { n: 7, whole: true },
    { n: 30, whole: false },
  ])('a class of $n methods: whole $whole', ({ n, whole }) => {
    const lines = ['class Shape:', '    """A shape."""'];
    const methods: ObjectText[] = [];
    for (let k = 0; k < n; k++) {
      const start = lines.length + 1;
      lines.push(`    def op_${k}(self, other):`, `        """Operation ${k}."""`, `        a = self.v + ${k}`, '        b = other.v * a', '        c = a - b', '        d = c * 2', '        return a + b + c + d', '');
      methods.push({
        id: `m${k}`, path: 'pkg/shape.py', name: `op_${k}`, qualifiedName: `Shape.op_${k}`, kind: 'method', signature: `def op_${k}(self, other)`,
        startLine: start, endLine: start + 6, parentId: 'cls', docstring: `"""Operation ${k}."""`, text: lines.slice(start - 1, start + 6).join('\n'),
      });
    }
    const cls: ObjectText = {
      id: 'cls', path: 'pkg/shape.py', name: 'Shape', qualifiedName: 'Shape', kind: 'class', signature: 'class Shape',
      startLine: 1, endLine: lines.length, parentId: null, docstring: '"""A shape."""', text: lines.join('\n'),
    };
    const core = fn('core', 10);
    const others = Array.from({ length: 12 }, (_, k) => fn(`other_${k}`, 60));
    const found = methods[n - 2];
    const objects = [core, cls, ...methods, ...others];
    const ranked = [core, cls, found, ...others].map((o, k) => structural(view(o, 100 - k)));
    const a = allocate('from pkg import core, Shape', ranked, memorySource(objects), tok, { slots: '1+0', budget: 1800 });
    expect(a.totalTokens).toBeLessThanOrEqual(1800);
    const block = a.blocks.find((b) => b.object === 'Shape')!;
    expect(block.outline).toBe(whole ? undefined : true);
    if (whole) expect([block.shownStartLine, block.shownEndLine]).toEqual([1, lines.length]);
    // Either way the found member is shown whole.
    for (const l of lines.slice(found.startLine - 1, found.endLine)) expect(block.text.split('\n')).toContain(l);
    expect(a.blocks.filter((b) => b.path === 'pkg/shape.py')).toHaveLength(1);
  });
});
