import { describe, expect, it } from 'vitest';
import { NONE, ObjectTable } from '../../indexer/resolve/object-table.ts';
import { PairTable } from '../../indexer/resolve/pair-table.ts';
import { SuffixIndex } from '../../indexer/resolve/suffix-index.ts';
import { derivedSelection, DERIVED_PER_KIND } from '../../indexer/store/derived-selection.ts';

/** A seeded pseudo-random sequence (mulberry32), so a failure repeats. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('PairTable', () => {
  it('holds what a Map of pairs holds through adds and deletes, first value kept', () => {
    const rnd = random(1);
    const table = new PairTable(4);
    const map = new Map<string, number>();
    for (let i = 0; i < 20_000; i++) {
      const a = Math.floor(rnd() * 300);
      const b = Math.floor(rnd() * 50);
      const key = `${a},${b}`;
      if (rnd() < 0.35) {
        table.delete(a, b);
        map.delete(key);
      } else {
        table.addIfAbsent(a, b, i);
        if (!map.has(key)) map.set(key, i);
      }
    }
    expect(table.size).toBe(map.size);
    for (let a = 0; a < 300; a++) for (let b = 0; b < 50; b++) expect(table.get(a, b)).toBe(map.get(`${a},${b}`) ?? -1);
  });
});

describe('ObjectTable', () => {
  it('answers members, parents and unique names as files come and go', () => {
    const t = new ObjectTable();
    // A child listed before its parent (same start) still becomes its member.
    t.addAll([
      { id: 'c1', parentId: 'm1', kind: 'class', name: 'A' },
      { id: 'm1', parentId: null, kind: 'module', name: 'a' },
      { id: 'f1', parentId: 'c1', kind: 'function', name: 'run' },
      { id: 'f2', parentId: 'c1', kind: 'function', name: 'run' },
    ]);
    t.addAll([
      { id: 'm2', parentId: null, kind: 'module', name: 'b' },
      { id: 'f3', parentId: 'm2', kind: 'function', name: 'run' },
      { id: 'g', parentId: 'm2', kind: 'function', name: 'helper' },
    ]);
    expect(t.id(t.member(t.slot('m1'), 'A'))).toBe('c1');
    expect(t.id(t.member(t.slot('c1'), 'run'))).toBe('f1');
    expect(t.id(t.parent(t.slot('f1')))).toBe('c1');
    expect(t.isScope(t.slot('c1'))).toBe(true);
    expect(t.unique('run')).toBe(NONE);
    expect(t.id(t.unique('helper'))).toBe('g');
    expect(t.unique('a')).toBe(NONE); // modules are not named objects
    t.removeFile(['c1', 'm1', 'f1', 'f2']);
    expect(t.slot('c1')).toBe(NONE);
    expect(t.id(t.unique('run'))).toBe('f3');
    expect(t.unique('A')).toBe(NONE);
    // Slots freed by the removal are taken again without old members showing through.
    t.addAll([{ id: 'm3', parentId: null, kind: 'module', name: 'c' }, { id: 'x', parentId: 'm3', kind: 'function', name: 'other' }]);
    expect(t.member(t.slot('m3'), 'A')).toBe(NONE);
    expect(t.member(t.slot('m3'), 'run')).toBe(NONE);
    expect(t.id(t.member(t.slot('m3'), 'other'))).toBe('x');
  });
});

describe('SuffixIndex', () => {
  it('finds what a map from every trailing run of segments finds, in the order values were added', () => {
    const keys = ['a/b/c', 'x/b/c', 'c', 'a/bc', 'b/c/d', 'core/basic', 'sympy/core/basic', 'basic'];
    const entries = keys.map((k, i) => [k, `v${i}`] as const);
    const runs = new Map<string, string[]>();
    for (const [k, v] of entries) {
      const segs = k.split('/');
      for (let i = 0; i < segs.length; i++) {
        const run = segs.slice(i).join('/');
        runs.set(run, [...(runs.get(run) ?? []), v]);
      }
    }
    const index = new SuffixIndex(entries);
    for (const run of [...runs.keys(), 'bc/x', 'zz', 'asic']) expect(index.get(run)).toEqual(runs.get(run));
  });
});

describe('derivedSelection', () => {
  it('keeps each (object, kind) list first uses by path and line, in the order lists began', () => {
    const rank = new Map([[1, 1], [2, 0], [3, 2]]);
    const s = derivedSelection(rank);
    const use = (fileId: number, line: number, kind = 'call') => ({ kind, path: fileId === 3 ? 'tests/test_x.py' : `f${fileId}.py`, fileId, line });
    for (let line = 20; line > 0; line--) s.want(use(1, line), 'o1');
    s.want(use(2, 50), 'o2');
    s.want(use(2, 7), 'o1');
    s.want(use(2, 7), 'o1');
    s.want(use(3, 1), 'o1');
    s.want(use(1, 3, 'import'), 'o2');
    const taken = s.take();
    const views = Array.from(taken.unstored(), (e) => taken.view(e));
    expect(views.map((v) => `${v.objectId} ${v.kind} ${v.fileId}:${v.line}`)).toEqual([
      'o1 callsite 2:7',
      ...[1, 2, 3, 4].map((l) => `o1 callsite 1:${l}`),
      'o2 callsite 2:50',
      'o1 testref 3:1',
      'o2 import 1:3',
    ]);
    expect(views.filter((v) => v.objectId === 'o1' && v.kind === 'callsite')).toHaveLength(DERIVED_PER_KIND);
    expect(taken.match('o1', 1, 'callsite', 2)).toBe(true);
    expect(taken.match('o1', 1, 'callsite', 2)).toBe(false);
    expect(taken.match('o1', 1, 'callsite', 9)).toBe(false);
    expect(taken.unstored()).toHaveLength(7);
  });
});
