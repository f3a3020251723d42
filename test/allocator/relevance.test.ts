import { describe, expect, it } from 'vitest';
import { allocate, relevant } from '../../allocator/allocate.ts';
import type { Position } from '../../allocator/types.ts';
import { getTokenizer } from '../../indexer/tokenizer.ts';
import type { Candidate } from '../../indexer/types.ts';
import { memorySource, obj, view } from './fixtures.ts';

const tok = getTokenizer('cl100k_base');
const at = (key: string, score: number): Position => ({ key, objectId: key, fiber: 'a.py', score, rank: 0, span: null, views: [], origin: 'retrieved' });

describe('the fill\'s relevance stop: further objects only while their score is a share of the K-th ranked one\'s', () => {
  const ranked = [at('a', 1), at('b', 0.8), at('c', 0.6), at('d', 0.3), at('e', 0.1)];
  const rest = ranked.slice(2);
  it.each([
    ['no stop', 2, 0, ['c', 'd', 'e']],
    ['half the K-th (0.8): 0.4 and above', 2, 0.5, ['c']],
    ['a quarter of the K-th: 0.2 and above', 2, 0.25, ['c', 'd']],
    ['the K-th itself is the bar at share 1', 3, 1, ['c']],
    ['fewer positions than K: no bar', 6, 0.9, ['c', 'd', 'e']],
  ])('%s', (_name, K, share, kept) => {
    expect(relevant(rest, ranked, K, share).map((p) => p.key)).toEqual(kept);
  });

  it('stops on the relevance the retriever reports when there is one, not on the score that ranks', () => {
    const withRel = (key: string, score: number, relevance: number): Position => ({ ...at(key, score), relevance });
    // Reciprocal-rank scores fall slowly; the lists' own relevance falls after the second object.
    const r = [withRel('a', 0.2, 1), withRel('b', 0.18, 0.9), withRel('c', 0.17, 0.2), withRel('d', 0.16, 0.05)];
    expect(relevant(r.slice(2), r, 2, 0.4).map((p) => p.key)).toEqual([]);
    expect(relevant(r.slice(2), r, 2, 0.2).map((p) => p.key)).toEqual(['c']);
    const scoreOnly = r.map(({ relevance: _r, ...p }) => p);
    expect(relevant(scoreOnly.slice(2), scoreOnly, 2, 0.4).map((p) => p.key)).toEqual(['c', 'd']);
  });

  it('an allocation offers the fill only what passes the stop, counts the others as not considered, and spends less', () => {
    const fn = (id: string) => obj(id, `pkg/${id}.py`, 1, [`def ${id}(x):`, ...Array.from({ length: 10 }, (_, i) => `    v${i} = x * ${i}`), '    return x'], { name: id });
    const objects = ['k1', 'k2', 'near', 'far1', 'far2'].map(fn);
    const structural = (c: Candidate): Candidate => ({ ...c, viaStructure: true, reason: 'structural: imported by the query' });
    const scores = [1, 0.9, 0.6, 0.2, 0.1];
    const candidates = objects.map((o, k) => structural(view(o, scores[k])));
    const query = 'from pkg import k1, k2, near, far1, far2';
    const all = allocate(query, candidates, memorySource(objects), tok, { slots: '2+0', budget: 4096, fillRelevance: 0 });
    expect(all.blocks.map((b) => b.object)).toEqual(['k1', 'k2', 'near', 'far1', 'far2']);
    const stopped = allocate(query, candidates, memorySource(objects), tok, { slots: '2+0', budget: 4096, fillRelevance: 0.5 });
    expect(stopped.blocks.map((b) => b.object)).toEqual(['k1', 'k2', 'near']);
    expect(stopped.trace.fill).toMatchObject({ notConsidered: 2 });
    expect(stopped.totalTokens).toBeLessThan(all.totalTokens);
    // --no-fill is unchanged by it: the K slots only.
    const strict = allocate(query, candidates, memorySource(objects), tok, { slots: '2+0', noFill: true, fillRelevance: 0.5 });
    expect(strict.blocks.map((b) => b.object)).toEqual(['k1', 'k2']);
  });
});
