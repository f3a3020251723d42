import { describe, expect, it } from 'vitest';
import { receiverMembers } from '../../indexer/retrieve/structural.ts';
import type { StructureObject } from '../../indexer/retrieve/structure.ts';

// A class `Shape` with members in declaration order; the query's reading and the repository's uses vary per case.
const names = ['area', 'perimeter', 'rotate', 'scale', 'translate', 'reflect', 'encloses', 'render'];
const cls = { id: 'C', path: 'geo/shape.py', parentId: null, kind: 'class', name: 'Shape', qualifiedName: 'Shape', startLine: 1, endLine: 200 };
const members = names.map((name, k) => ({ id: `m:${name}`, path: cls.path, parentId: 'C', kind: 'method', name, qualifiedName: `Shape.${name}`, startLine: 10 + 20 * k, endLine: 28 + 20 * k }));
const s = {
  objects: new Map<string, StructureObject>([cls, ...members].map((o) => [o.id, o as StructureObject])),
  byFile: new Map([[cls.path, [cls.id, ...members.map((m) => m.id)]]]),
};

type Case = [string, { recency: [string, number][]; parts?: [string, number][]; called?: string[]; uses?: [string, number][] }, string | null];

describe('members of a receiver the next line may call', () => {
  it.each<Case>([
    ['no word, no use, no call: nothing offered', { recency: [['sh', 1]] }, null],
    ['the member the repository calls most, when the query has just used the receiver', { recency: [['sh', 1]], uses: [['m:scale', 40], ['m:area', 3]] }, 'scale'],
    ['the neighbour of a member the query calls through it (declared next to it)', { recency: [['sh', 1]], called: ['m:translate'] }, 'reflect'],
    ['words of the query near its end outrank both', { recency: [['sh', 1]], parts: [['encloses', 1]], uses: [['m:scale', 40]] }, 'encloses'],
  ])('%s', (_name, c, best) => {
    const out = receiverMembers(
      s,
      new Map([['C', { how: 'sh: Shape', locals: ['sh'] }]]),
      { recency: new Map(c.recency), recentParts: new Map(c.parts ?? []) },
      new Set(c.called ?? []),
      () => new Map(c.uses ?? []),
    );
    if (best === null) expect(out).toEqual([]);
    else expect(out[0][0]).toBe(`m:${best}`);
    // The member the query already calls is a seed of its own, never offered again.
    for (const id of c.called ?? []) expect(out.map((x) => x[0])).not.toContain(id);
    expect(out.length).toBeLessThanOrEqual(6);
  });

  it('a receiver the query has not used in its code brings no member by use alone (only by its words)', () => {
    const out = receiverMembers(s, new Map([['C', { how: 'Shape.', locals: ['Shape'] }]]), { recency: new Map(), recentParts: new Map() }, new Set(), () => new Map([['m:scale', 40]]));
    expect(out).toEqual([]);
  });

  it('an imported module the query has not used yet is about to be: its most used member is offered', () => {
    const out = receiverMembers(s, new Map([['C', { how: 'shape.', locals: ['shape'], pending: true }]]), { recency: new Map(), recentParts: new Map() }, new Set(), () => new Map([['m:scale', 40], ['m:area', 2]]));
    expect(out.map((x) => x[0])).toEqual(['m:scale', 'm:area']);
    expect(out[0][1]).toBeGreaterThan(out[1][1]);
  });
});
