import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildContext } from '../../allocator/context.ts';
import { getTokenizer } from '../../indexer/tokenizer.ts';
import { indexRepository } from '../../indexer/index-repository.ts';
import { bm25Retriever } from '../../indexer/retrieve/bm25.ts';
import { storeObjectSource } from '../../indexer/store/object-source.ts';
import { openStore, type DB } from '../../indexer/store/open.ts';
import { allot } from '../helpers/cli.ts';
import { copyFixture, indexInPlace, tempDir, writeTree } from '../helpers/repo.ts';

let repo: string;
let db: DB;
beforeAll(async () => {
  repo = copyFixture('mixed');
  db = await indexInPlace(repo);
});
afterAll(() => {
  db.close();
  fs.rmSync(repo, { recursive: true, force: true });
});

const context = (q: string, opts = {}) => buildContext(q, bm25Retriever(db), storeObjectSource(db), opts);

describe('object allocation over the real index (worked examples)', () => {
  it('gives an object one slot however many of its views rank, which lets another object in', () => {
    const q = 'apply_discount percent amount';
    const views = bm25Retriever(db).retrieve(q, 50).filter((c) => c.objectName === 'apply_discount');
    // signature, body, docstring, call site and imports of apply_discount all match
    expect(new Set(views.map((v) => v.viewKind)).size).toBeGreaterThanOrEqual(3);
    // An object shown inside another's block (containment) counts as shown there.
    const shownObjects = (c: ReturnType<typeof context>) => c.blocks.flatMap((b) => [b.object, ...(b.contains ?? []).map((n) => n.object)]);
    const withQuotient = context(q, { slots: '4+0' });
    const objects = shownObjects(withQuotient);
    expect(objects.filter((o) => o === 'apply_discount')).toHaveLength(1);
    const fragments = context(q, { slots: '4+0', noQuotient: true });
    const fragmentObjects = shownObjects(fragments);
    expect(fragmentObjects.filter((o) => o === 'apply_discount').length).toBeGreaterThan(1);
    // an object the fragments crowded out now has a slot
    expect(objects.some((o) => !fragmentObjects.includes(o))).toBe(true);
  });

  it('renders verbatim source lines and never passes the budget', () => {
    const tok = getTokenizer();
    const cart = fs.readFileSync(path.join(repo, 'shop/cart.py'), 'utf8').split('\n');
    for (const budget of [0, 40, 200, 1000, 4096]) {
      const a = context('cart total discount tax', { budget });
      expect(tok.count(a.text)).toBeLessThanOrEqual(budget);
      expect(a.totalTokens).toBe(tok.count(a.text));
      for (const b of a.blocks.filter((b) => b.path === 'shop/cart.py' && b.shownStartLine > 0)) {
        const shown = b.text.split('\n').slice(1);
        // An outline shows the lines of its `shown` ranges, verbatim, with `⋮` lines for the hidden runs.
        if (b.outline) expect(shown.filter((l) => l.trim() !== '⋮')).toEqual(b.shown!.flatMap(([s, e]) => cart.slice(s - 1, e)));
        else expect(shown).toEqual(cart.slice(b.shownStartLine - 1, b.shownEndLine));
      }
    }
  });

  it('returns an empty context for a query nothing matches, and for an empty index', async () => {
    expect(context('zzqqxx_nothing').blocks).toEqual([]);
    const empty = tempDir();
    writeTree(empty, {});
    const edb = openStore(path.join(empty, 'index.db'));
    await indexRepository({ repo: empty, db: edb, workers: 0 });
    const a = buildContext('anything', bm25Retriever(edb), storeObjectSource(edb), {});
    expect(a).toMatchObject({ blocks: [], totalTokens: 0, text: '' });
    edb.close();
    fs.rmSync(empty, { recursive: true, force: true });
  });
});

describe('allot context (real process)', () => {
  it('prints the rendered context, its JSON and its trace', () => {
    const plain = allot(['context', 'apply discount to the cart total', '--budget', '600', '--repo', repo]);
    expect(plain.status).toBe(0);
    expect(plain.stdout).toMatch(/^### shop\/(cart|pricing)\.py:\d+/m);
    const json = JSON.parse(allot(['context', 'apply discount to the cart total', '--budget', '600', '--json', '--repo', repo]).stdout);
    expect(Object.keys(json)).toEqual(['query', 'budget', 'tokenizer', 'totalTokens', 'text', 'blocks', 'trace']);
    expect(json.totalTokens).toBeLessThanOrEqual(600);
    // Every block has the fields of the contract, in order; outlines and containers add theirs after them.
    for (const b of json.blocks) {
      expect(Object.keys(b).slice(0, 11)).toEqual(['path', 'object', 'kind', 'role', 'score', 'startLine', 'endLine', 'shownStartLine', 'shownEndLine', 'tokens', 'text']);
      for (const k of Object.keys(b).slice(11)) expect(['outline', 'shown', 'contains']).toContain(k);
    }
    expect(json.text).toBe(plain.stdout.replace(/\n$/, ''));
    const explained = allot(['context', 'apply discount to the cart total', '--explain', '--repo', repo]);
    expect(explained.stdout).toMatch(/token authority: B=4096/);
    expect(explained.stdout).toMatch(/min\(d=\d+, b_obj=1024/);
  });

  it('selects the tokenizer, slots and the chunk baseline', () => {
    const o200 = JSON.parse(allot(['context', 'format price', '--tokenizer', 'o200k_base', '--slots', '3+2', '--json', '--repo', repo]).stdout);
    expect(o200.tokenizer).toBe('o200k_base');
    expect(o200.trace.slots).toEqual({ core: 3, companion: 2 });
    const base = JSON.parse(allot(['context', 'format price', '--baseline', 'chunk-bm25', '--budget', '300', '--json', '--repo', repo]).stdout);
    expect(base.totalTokens).toBeLessThanOrEqual(300);
    expect(base.chunks.map((c: { path: string }) => c.path)).toContain('web/format.ts');
  });

  it('rejects bad options with a clear message and exit code 2', () => {
    const bad = allot(['context', 'x', '--slots', 'four', '--repo', repo]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/slots must look like core\+companions/);
    expect(allot(['context', 'x', '--tokenizer', 'gpt2', '--repo', repo]).status).toBe(2);
    expect(allot(['context', 'x', '--baseline', 'magic', '--repo', repo]).stderr).toMatch(/unknown baseline/);
    expect(allot(['context', 'x', '--line', '3', '--repo', repo]).stderr).toMatch(/--line needs --path/);
    expect(allot(['context', 'x', '--path', 'web/format.ts', '--line', '0', '--repo', repo]).status).toBe(2);
    expect(allot(['context', 'x', '--path', 'web/format.ts', '--line', '2', '--repo', repo]).status).toBe(0);
  });
});
