// Context answers kept across edits (daemon/kept-answers.ts), on a real index: an edit that cannot change an answer
// keeps it, one that changes what it read recomputes it, and after every edit the answer equals a fresh engine's.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllocateOptions } from '../../allocator/options.ts';
import { createKeptAnswers } from '../../daemon/kept-answers.ts';
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

  it('recalls an answer only for the same candidates and while no file it read changed', () => {
    const db = openStore(path.join(scratch(), 'index.db'));
    try {
      const m = createKeptAnswers<string>(db);
      m.keep('q', { candidates: '[1,2]', generation: 3, paths: new Set(['a.py', 'b.py']), answer: 'A' });
      expect(m.recall('q', '[1,2]', 3)).toBe('A');
      expect(m.recall('other', '[1,2]', 3)).toBeUndefined();
      recordChanges(db, 4, ['c.py']);
      expect(m.recall('q', '[1,2]', 4)).toBe('A');
      expect(m.recall('q', '[2,1]', 4)).toBeUndefined(); // other candidates drop it
      m.keep('q', { candidates: '[1,2]', generation: 4, paths: new Set(['a.py', 'b.py']), answer: 'A' });
      recordChanges(db, 5, ['b.py']);
      expect(m.recall('q', '[1,2]', 5)).toBeUndefined();
      expect(m.stats.recalled).toBe(2);
    } finally {
      db.close();
    }
  });
});
