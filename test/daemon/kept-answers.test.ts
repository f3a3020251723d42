// Context answers kept across edits (daemon/kept-answers.ts), on a real index: an edit that cannot change an answer
// keeps it, one that changes what it read recomputes it, and after every edit the answer equals a fresh engine's.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllocateOptions } from '../../allocator/options.ts';
import { relevant } from '../../allocator/allocate.ts';
import { quotient } from '../../allocator/quotient.ts';
import { BYTES_PER_TOKEN, createKeptAnswers, readCandidates, sameStops } from '../../daemon/kept-answers.ts';
import type { Candidate } from '../../indexer/types.ts';
import { createQueryEngine, type QueryEngine } from '../../daemon/queries.ts';
import type { ContextAnswer } from '../../daemon/types.ts';
import { indexRepository } from '../../indexer/index-repository.ts';
import { openStore, type DB } from '../../indexer/store/open.ts';
import { recordChanges } from '../../indexer/store/changes.ts';
import { getGeneration } from '../../indexer/store/write.ts';
import { copyFixture, indexInPlace, scratchDirs } from '../helpers/repo.ts';

describe('answers kept across edits', () => {
  const scratch = scratchDirs();
  let repo: string;
  let writer: DB;
  let reader: DB;
  const kept = () => createKeptAnswers<ContextAnswer>(reader);
  let memory: ReturnType<typeof kept>;
  let engine: QueryEngine;
  const options = parseAllocateOptions({ budget: '512' });
  // The lines at a cursor: a code query's candidates carry fused ranks and structure's relevance, which an unrelated
  // edit leaves as they were. (A prose query's carry each list's relative BM25 scores, which every edit moves, so its
  // answer is recomputed.)
  const query = 'from ledger.accounts import Account, quantize\n\nacct = Account("savings")\nacct.post(quantize(12))\n';
  const fresh = () => createQueryEngine(reader, repo, { keptAnswers: kept() }).context(query, options);
  const edit = async (rel: string, text: string) => {
    const before = getGeneration(reader);
    fs.writeFileSync(path.join(repo, rel), text);
    await indexRepository({ repo, db: writer, workers: 0, paths: [rel] });
    expect(getGeneration(reader)).toBeGreaterThan(before);
  };

  beforeAll(async () => {
    repo = copyFixture('python');
    writer = await indexInPlace(repo);
    reader = openStore(path.join(repo, '.allot/index.db'), { readonly: true });
    memory = kept();
    engine = createQueryEngine(reader, repo, { answerCache: false, keptAnswers: memory });
  });

  afterAll(() => {
    reader?.close();
    writer?.close();
  });

  it('keeps an answer through an edit of a file it never read, and recomputes it when a file it read changes', async () => {
    const first = await engine.context(query, options);
    expect(first.blocks.some((b) => b.path === 'ledger/accounts.py')).toBe(true);
    expect(memory.stats).toEqual({ recalled: 0, allocated: 1 });

    // A new file the answer does not read: same candidates, nothing read changed.
    await edit('ledger/probe.py', 'def unrelated_probe(flag):\n    return not flag\n');
    const kept = await engine.context(query, options);
    expect(memory.stats).toEqual({ recalled: 1, allocated: 1 });
    expect(kept).toEqual(await fresh());

    // The file of the answer's objects: its new text must show.
    const accounts = fs.readFileSync(path.join(repo, 'ledger/accounts.py'), 'utf8');
    const changed = accounts.replace(/(def post\([^\n]*\n)/, '$1        # amount_posted_marker: an amount is posted to the account\n');
    expect(changed).not.toBe(accounts);
    await edit('ledger/accounts.py', changed);
    const after = await engine.context(query, options);
    expect(memory.stats.allocated).toBe(2);
    expect(after.text).toContain('amount_posted_marker');
    expect(after).toEqual(await fresh());
  });

  it('keeps the generation through a resolution pass that changed nothing queries read, and moves it when one did', async () => {
    // A new function that uses nothing: the file's write is one generation, its resolution pass retargets nothing.
    const g0 = getGeneration(reader);
    await edit('ledger/quiet.py', 'def quiet_probe(flag):\n    return flag\n');
    expect(getGeneration(reader)).toBe(g0 + 1);
    const first = await engine.context(query, options);
    expect(first).toEqual(await fresh());

    // A use of quantize elsewhere: the pass resolves it (a reference retargeted, a derived view written), so the
    // generation moves past the write's, and the answer is the one a fresh engine computes after it.
    const g1 = getGeneration(reader);
    await edit('ledger/quiet.py', 'from ledger.accounts import quantize\n\n\ndef quiet_probe(flag):\n    return quantize(flag)\n');
    expect(getGeneration(reader)).toBeGreaterThan(g1 + 1);
    const used = 'quantize amount rounding';
    const answer = await engine.context(used, options);
    expect(answer).toEqual(await createQueryEngine(reader, repo, { keptAnswers: kept() }).context(used, options));
    expect(await engine.context(query, options)).toEqual(await fresh());
  });

  it('keeps a prose answer through an edit that moves BM25 statistics only, and recomputes it when new text matches', async () => {
    // A question in words: its candidates carry relative BM25 scores, which the new rows below move.
    const prose = 'how is an amount posted to an account';
    const g = createKeptAnswers<ContextAnswer>(reader);
    const own = createQueryEngine(reader, repo, { answerCache: false, keptAnswers: g });
    const freshProse = () => createQueryEngine(reader, repo, { keptAnswers: kept() }).context(prose, options);
    const first = await own.context(prose, options);
    expect(g.stats).toEqual({ recalled: 0, allocated: 1 });

    // Rows without a word of the query: the row count and lengths move every BM25 score, the comparisons stay.
    await edit('ledger/noise.py', 'def noise_probe(flag, other):\n    """Flip the flag twice."""\n    return not (not flag or other)\n');
    const recalled = await own.context(prose, options);
    expect(g.stats).toEqual({ recalled: 1, allocated: 1 });
    expect(recalled).toEqual(first);
    expect(recalled).toEqual(await freshProse());

    // A function that answers the question: the answer must show it (a stale answer would not).
    await edit('ledger/noise.py', 'def post_amount_to_account(account, amount):\n    """How an amount is posted to an account: added to its balance."""\n    account.balance += amount\n');
    const changed = await own.context(prose, options);
    expect(g.stats.allocated).toBe(2);
    expect(changed.blocks.some((b) => b.object.endsWith('post_amount_to_account'))).toBe(true);
    expect(changed).not.toEqual(first);
    expect(changed).toEqual(await freshProse());
  });

  it('recalls an answer only for the same candidates and while no file it read changed', () => {
    const db = openStore(path.join(scratch(), 'index.db'));
    const at = (...scores: number[]) => readCandidates(scores.map((s, i) => candidate(`o${i}`, s)), 0.3);
    try {
      const m = createKeptAnswers<string>(db);
      m.keep('q', { candidates: at(2, 1), generation: 3, paths: new Set(['a.py', 'b.py']), answer: 'A', tokens: 1 });
      expect(m.recall('q', at(2, 1), 3)).toBe('A');
      expect(m.recall('other', at(2, 1), 3)).toBeUndefined();
      recordChanges(db, 4, ['c.py']);
      expect(m.recall('q', at(2, 1), 4)).toBe('A');
      expect(m.recall('q', at(1, 2), 4)).toBeUndefined(); // other candidates drop it
      m.keep('q', { candidates: at(2, 1), generation: 4, paths: new Set(['a.py', 'b.py']), answer: 'A', tokens: 1 });
      recordChanges(db, 5, ['b.py']);
      expect(m.recall('q', at(2, 1), 5)).toBeUndefined();
      expect(m.stats.recalled).toBe(2);

      // The memory is a token budget (an answer's tokens and its digest's): the least recently used answers go once
      // the kept answers weigh more. This one holds two of them.
      const weight = 4 + Math.ceil(at(2, 1).digest.length / BYTES_PER_TOKEN);
      const small = createKeptAnswers<string>(db, 2 * weight + 1);
      for (const [key, tokens] of [['a', 4], ['b', 4], ['c', 4]] as const) small.keep(key, { candidates: at(2, 1), generation: 5, paths: new Set(), answer: key, tokens });
      expect(small.recall('a', at(2, 1), 5)).toBeUndefined();
      expect(small.recall('b', at(2, 1), 5)).toBe('b');
      small.keep('d', { candidates: at(2, 1), generation: 5, paths: new Set(), answer: 'd', tokens: 4 });
      expect(small.recall('c', at(2, 1), 5)).toBeUndefined(); // b was used since, c was not
      expect([small.recall('b', at(2, 1), 5), small.recall('d', at(2, 1), 5)]).toEqual(['b', 'd']);
    } finally {
      db.close();
    }
  });

  it('takes two readings for the same answer only when the relevance stop admits the same positions at every K', () => {
    // Supports as a prose query's (relative scores in 0..1), moved by edits small and large; whenever sameStops says
    // the readings allocate alike, the stop must admit the same positions whichever K and rest the allocation has.
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const share = 0.3;
    let same = 0;
    let differ = 0;
    for (let round = 0; round < 400; round++) {
      const n = 2 + Math.floor(rand() * 10);
      const a = Array.from({ length: n }, () => (rand() < 0.2 ? 0 : Math.round(rand() * 100) / 100));
      const spread = round % 2 ? 0.001 : 0.5;
      const b = a.map((x) => x * (1 + (rand() - 0.5) * spread));
      const ca = a.map((r, i) => ({ ...candidate(`o${i}`, 1 / (i + 1)), relevance: r }));
      const cb = b.map((r, i) => ({ ...candidate(`o${i}`, 1 / (i + 1)), relevance: r }));
      const kept = sameStops(readCandidates(ca, share), readCandidates(cb, share));
      const [pa, pb] = [quotient(ca), quotient(cb)];
      let alike = true;
      for (let K = 1; K <= n; K++) {
        for (let from = 0; from < n; from++) {
          const keys = (ps: ReturnType<typeof quotient>) => relevant(ps.slice(from), ps, K, share).map((p) => p.key);
          if (JSON.stringify(keys(pa)) !== JSON.stringify(keys(pb))) alike = false;
        }
      }
      if (kept) {
        expect(alike).toBe(true);
        same++;
      } else if (!alike) differ++;
    }
    // both outcomes occur, and readings told apart include ones the stop really tells apart
    expect(same).toBeGreaterThan(50);
    expect(differ).toBeGreaterThan(20);
    // everything but relevance is still compared exactly
    expect(sameStops(readCandidates([candidate('x', 1)], share), readCandidates([candidate('y', 1)], share))).toBe(false);
  });
});

function candidate(objectId: string, score: number): Candidate {
  return { viewId: objectId.length, objectId, fiber: 'a.py', path: 'a.py', objectName: objectId, objectKind: 'function', viewKind: 'body', startLine: 1, endLine: 2, score, reason: 'bm25' };
}
