import { describe, expect, it } from 'vitest';
import { allocate } from '../../allocator/allocate.ts';
import { getTokenizer } from '../../indexer/tokenizer.ts';
import type { Candidate } from '../../indexer/types.ts';
import { memorySource, obj, view } from './fixtures.ts';

const tok = getTokenizer('cl100k_base');

// Two small slots, then a further function larger than b_obj (as a long document section or function) and a small one.
const small = (id: string) => obj(id, `pkg/${id}.py`, 1, [`def ${id}(cookie):`, '    """Sign the cookie."""', '    return sign(cookie)'], { name: id });
const big = obj('big', 'pkg/big.py', 1, [
  'def big(cookie):',
  ...Array.from({ length: 400 }, (_, i) => (i === 300 ? '    secret = derive_signing_key(cookie)' : `    step_${i} = transform(step_${Math.max(0, i - 1)}, ${i})`)),
  '    return secret',
], { name: 'big' });
const objects = [small('k1'), small('k2'), big, small('after')];
const scores = [1, 0.9, 0.8, 0.7];
const candidates = (question: boolean): Candidate[] =>
  objects.map((o, k) => ({ ...view(o, scores[k]), relevance: scores[k], ...(question ? { question: true } : {}) }));
const query = 'how is the signing key derived for a cookie';
const run = (question: boolean) => allocate(query, candidates(question), memorySource(objects), tok, { slots: '2+0', budget: 8192 });
const blockOf = (a: ReturnType<typeof run>, id: string) => a.blocks.find((b) => b.object === id);

describe('the fill gives a question\'s further objects at most b_obj (Eq. 4)', () => {
  it('a code query\'s fill shows a large further object whole', () => {
    const a = run(false);
    const b = blockOf(a, 'big')!;
    expect(b.tokens).toBeGreaterThan(1024);
    expect([b.shownStartLine, b.shownEndLine]).toEqual([big.startLine, big.endLine]);
  });

  it('a question\'s fill gives it no block (it would pass b_obj, and the fill never cuts), and the next object still comes', () => {
    const a = run(true);
    expect(blockOf(a, 'big')).toBeUndefined();
    expect(a.trace.fill!.skipped).toBeGreaterThan(0);
    expect(blockOf(a, 'after')).toBeDefined();
    expect(a.totalTokens).toBeLessThan(run(false).totalTokens);
  });

  it('what is left does not deepen a question\'s fill block past b_obj', () => {
    const a = run(true);
    for (const b of a.blocks) expect(b.tokens).toBeLessThanOrEqual(1024);
    expect(a.trace.fill!.remaining).toBeGreaterThan(0);
  });
});
