import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bm25Match, bm25Retriever } from '../../indexer/retrieve/bm25.ts';
import { queryTerms } from '../../indexer/retrieve/fts-query.ts';
import { chooseTerms, DF_CAP, LONG_QUERY_TERMS, termStatistics, type TermStatistics } from '../../indexer/retrieve/term-selection.ts';
import { indexRepository } from '../../indexer/index-repository.ts';
import { openStore, type DB } from '../../indexer/store/open.ts';
import { indexInPlace, tempDir, writeTree } from '../helpers/repo.ts';

const stats = (df: Record<string, number>, rows = 100_000): TermStatistics => ({ rows, df: (t, limit = DF_CAP) => Math.min(df[t] ?? 0, limit) });

describe('term selection for long queries', () => {
  it('searches a short query whole, in order, but for the repository\'s own stop words while two others remain', () => {
    const terms = queryTerms('parse expr');
    expect(chooseTerms(terms, stats({}), { prose: true })).toEqual(['parse', 'expr', 'parse_expr', 'parseexpr']);
    // `return` is in a fifth of the rows (a stop word here), `vector` in 2% of them (not one).
    const df = { returns: 20_000, return: 20_000, vector: 2_000, otherframe: 3 };
    expect(chooseTerms(queryTerms('Returns a vector in otherframe'), stats(df), { prose: true })).toEqual(['vector', 'otherframe']);
    expect(chooseTerms(queryTerms('return vector'), stats(df), { prose: true })).toEqual(['return', 'vector', 'return_vector', 'returnvector']);
  });

  it('keeps a long code query\'s rarest identifiers, leaves out common terms and what the index lacks, and caps the count', () => {
    const common = ['self', 'return', 'value', 'result', 'items', 'data', 'index', 'count', 'name', 'other'];
    const rare = Array.from({ length: 30 }, (_, i) => `helper_${String.fromCharCode(97 + (i % 26))}${i}`);
    const query = [`import ${rare.slice(0, 5).join(', ')}`, ...common.map((c, i) => `    ${c} = ${rare[5 + i]}(${c})`), ...rare.slice(15).map((r) => `    ${r}(self)`), '    missing_thing()'].join('\n');
    const df: Record<string, number> = { missing_thing: 0 };
    for (const c of common) df[c] = DF_CAP;
    rare.forEach((r, i) => (df[r] = 5 + i));
    for (const t of queryTerms(query)) df[t.term] ??= 50; // parts of the identifiers: more common than the identifiers
    const chosen = chooseTerms(queryTerms(query), stats(df), { prose: false });
    expect(chosen.length).toBe(LONG_QUERY_TERMS);
    for (const c of common) expect(chosen).not.toContain(c);
    expect(chosen).not.toContain('missing_thing');
    expect(chosen.filter((t) => t.startsWith('helper_')).length).toBeGreaterThanOrEqual(20);
  });

  it('prefers terms near the cursor in code and near the title in prose', () => {
    const lines = Array.from({ length: 30 }, (_, i) => `word${String.fromCharCode(97 + (i % 26))}${i}`);
    const df = Object.fromEntries(lines.map((w) => [w, 10]));
    const code = chooseTerms(queryTerms(lines.map((w) => `${w}()`).join('\n')), stats(df), { prose: false }, 5);
    expect(code).toEqual(lines.slice(-5).reverse());
    const prose = chooseTerms(queryTerms(lines.join(' ')), stats(df), { prose: true }, 5);
    // An import the code has not used yet counts as if it were on the last line.
    const imported = queryTerms(`import ${lines[0]}\n` + lines.slice(1).map((w) => `${w}()`).join('\n'));
    expect(chooseTerms(imported, stats(df), { prose: false, pending: new Set([lines[0]]) }, 2)).toEqual([lines[0], lines.at(-1)]);
    expect(prose).toEqual(lines.slice(0, 5));
  });
});

describe('term selection over a real index', () => {
  let repo: string;
  let db: DB;
  beforeAll(async () => {
    repo = tempDir();
    const files: Record<string, string> = {};
    // Forty modules that all use `self`, `value` and `result`; one defines the rare names the query ends with.
    for (let i = 0; i < 40; i++) {
      files[`pkg/mod${i}.py`] = `class Thing${i}:\n    def run(self, value):\n        result = value + ${i}\n        return result\n`;
    }
    files['pkg/ledger.py'] = 'def reconcile_ledger(entries, opening_balance):\n    """Reconcile the ledger entries against the opening balance."""\n    return sum(entries) - opening_balance\n';
    writeTree(repo, files);
    db = await indexInPlace(repo);
  });
  afterAll(() => {
    db.close();
    fs.rmSync(repo, { recursive: true, force: true });
  });

  it('counts document frequencies through the tokenizer (stemmed), once per generation', () => {
    const s = termStatistics(db);
    expect(s.df('reconcile_ledger')).toBe(s.df('reconcile_ledger'));
    expect(s.df('results')).toBe(s.df('result')); // porter: results -> result
    expect(s.df('result')).toBeGreaterThanOrEqual(40);
    expect(s.df('result', 10)).toBe(10); // a bounded count
    expect(s.df('result', 100_000)).toBe(s.df('result'));
    expect(s.df('nowhere_at_all')).toBe(0);
  });

  it('finds the same best object for a long code query as searching every term does', () => {
    const lines = [];
    for (let i = 0; i < 20; i++) lines.push(`    result = self.value_${i} + value`, '    return result');
    lines.push('    balance = reconcile_ledger(entries, opening_balance)');
    const query = lines.join('\n');
    const match = bm25Match(db, query)!;
    expect(match.split(' OR ').length).toBeLessThanOrEqual(LONG_QUERY_TERMS);
    expect(match).toContain('"reconcile_ledger"');
    expect(bm25Retriever(db).retrieve(query, 5)[0].objectName).toBe('reconcile_ledger');
  });
});

describe('document frequencies kept across edits', () => {
  it('gives after every edit the counts a fresh connection gives, common terms kept as bounds while few rows went', async () => {
    const FILES = 400;
    const repo = tempDir();
    const files: Record<string, string> = {};
    // More rows hold `result` than a count's slack past its limit: its count is a bound, kept across edits.
    for (let i = 0; i < FILES; i++) files[`pkg/mod${i}.py`] = `def run_${i}(value):\n    result = value + ${i}\n    return result\n`;
    writeTree(repo, files);
    const writer = await indexInPlace(repo);
    const dbFile = path.join(repo, '.allot/index.db');
    const reader = openStore(dbFile, { readonly: true });
    const asked: [string, number][] = [['result', 10], ['result', 100], ['result', 1000], ['run_3', 1000], ['reconcile_ledger', 1000], ['value', 5]];
    const same = () => {
      const fresh = openStore(dbFile, { readonly: true });
      try {
        const kept = termStatistics(reader);
        const counted = termStatistics(fresh);
        for (const [t, limit] of asked) expect([t, limit, kept.df(t, limit)]).toEqual([t, limit, counted.df(t, limit)]);
      } finally {
        fresh.close();
      }
    };
    const reindex = async (paths: string[]) => indexRepository({ repo, db: writer, workers: 0, paths });
    try {
      same();
      expect(termStatistics(reader).df('result', 10_000)).toBeGreaterThan(10 + 256);
      // One file goes: `result` is still in more than 10 rows (a bound kept), `run_3` is gone (an exact count redone).
      fs.rmSync(path.join(repo, 'pkg/mod3.py'));
      await reindex(['pkg/mod3.py']);
      same();
      // A new file holds a term no row held.
      fs.writeFileSync(path.join(repo, 'pkg/ledger.py'), 'def reconcile_ledger(entries):\n    return sum(entries)\n');
      await reindex(['pkg/ledger.py']);
      same();
      // Most files go: `result` falls below the bound it was kept at, and must be counted again.
      const gone = Array.from({ length: FILES }, (_, i) => `pkg/mod${i}.py`).filter((p) => p !== 'pkg/mod3.py' && !p.endsWith('mod7.py'));
      for (const p of gone) fs.rmSync(path.join(repo, p));
      await reindex(gone);
      same();
      expect(termStatistics(reader).df('result', 10)).toBeLessThan(10);
    } finally {
      reader.close();
      writer.close();
      fs.rmSync(repo, { recursive: true, force: true });
    }
  });
});
