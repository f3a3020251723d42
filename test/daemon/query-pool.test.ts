// The query threads and the main thread's answers over them, on a real index: the answers equal the in-process
// engine's, repeated ones come from memory until the index changes, identical queries in flight are computed
// once, errors keep their class, and a session's memory stays with its thread.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllocateOptions } from '../../allocator/options.ts';
import { poolAnswers } from '../../daemon/answers.ts';
import { createQueryEngine } from '../../daemon/queries.ts';
import { createQueryPool, type QueryPool } from '../../daemon/query-pool.ts';
import { indexRepository } from '../../indexer/index-repository.ts';
import { RetrievalError } from '../../indexer/retrieve/select.ts';
import { openStore, type DB } from '../../indexer/store/open.ts';
import { copyFixture, indexInPlace } from '../helpers/repo.ts';

describe('query threads', () => {
  let repo: string;
  let dbFile: string;
  let writer: DB;
  let reader: DB;
  let pool: QueryPool;
  let calls: string[];
  let counted: QueryPool;

  beforeAll(async () => {
    repo = copyFixture('python');
    writer = await indexInPlace(repo);
    dbFile = path.join(repo, '.allot/index.db');
    reader = openStore(dbFile, { readonly: true });
    pool = createQueryPool({ repo, db: dbFile }, 2);
    await pool.start();
    calls = [];
    // The same pool, counting what reaches a thread.
    counted = { ...pool, call: (method, args, opts) => (calls.push(method), pool.call(method, args, opts)) };
  });

  afterAll(async () => {
    await pool?.close();
    reader?.close();
    writer?.close();
  });

  const options = parseAllocateOptions({ budget: '512' });

  it('answers as the in-process engine does, from memory when repeated, and once for identical queries in flight', async () => {
    const answers = poolAnswers(counted, reader);
    const local = createQueryEngine(reader, repo);
    const [a, b] = await Promise.all([answers.context('post an amount', options), answers.context('post an amount', options)]);
    expect(a).toBe(b);
    expect(calls.filter((c) => c === 'context')).toHaveLength(1);
    expect(a).toEqual(await local.context('post an amount', options));
    expect(await answers.context('post an amount', options)).toBe(a);
    expect(calls.filter((c) => c === 'context')).toHaveLength(1);
    expect(await answers.search('quantize', 3, { retriever: 'bm25' })).toEqual(await local.search('quantize', 3, { retriever: 'bm25' }));
  });

  it('computes anew once the index changes', async () => {
    const answers = poolAnswers(counted, reader);
    const before = await answers.search('reconcile_ledger', 5, { retriever: 'bm25' });
    expect(before.map((h) => h.object)).not.toContain('reconcile_ledger');
    fs.appendFileSync(path.join(repo, 'ledger/accounts.py'), '\n\ndef reconcile_ledger(entries):\n    return sum(entries)\n');
    await indexRepository({ repo, db: writer, workers: 0 });
    const after = await answers.search('reconcile_ledger', 5, { retriever: 'bm25' });
    expect(after.map((h) => h.object)).toContain('reconcile_ledger');
  });

  it('keeps the class of errors thrown on a thread', async () => {
    const answers = poolAnswers(pool, reader);
    await expect(answers.search('quantize', 3, { retriever: 'dense' })).rejects.toBeInstanceOf(RetrievalError);
    await expect(answers.search('quantize', 3, { retriever: 'dense' })).rejects.toThrow(/dense retrieval/);
  });

  it("keeps a session's memory on one thread", async () => {
    const answers = poolAnswers(pool, reader);
    const first = await answers.context('Account post balance', options, {}, 'task-1');
    expect(first.blocks.length).toBeGreaterThan(0);
    const again = await answers.context('Account post balance', options, {}, 'task-1');
    expect(again.alreadyShown?.length).toBeGreaterThan(0);
    const other = await answers.context('Account post balance', options, {}, 'task-2');
    expect(other.alreadyShown ?? []).toEqual([]);
  });
});
