import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexRepository } from '../../indexer/index-repository.ts';
import { openStore, type DB } from '../../indexer/store/open.ts';
import { fiberObjects, findObjectsByName, objectReferences, objectViews } from '../../indexer/store/read.ts';
import { objectId } from '../../indexer/store/write.ts';
import type { IndexSummary } from '../../indexer/types.ts';
import { checkConsistency, copyFixture } from '../helpers/repo.ts';

let repo: string;
let db: DB;
let summary: IndexSummary;

beforeAll(async () => {
  repo = copyFixture('mixed');
  db = openStore(path.join(repo, '.allot', 'index.db'));
  summary = await indexRepository({ repo, db, workers: 2 });
});
afterAll(() => {
  db.close();
  fs.rmSync(repo, { recursive: true, force: true });
});

const one = (name: string) => {
  const hits = findObjectsByName(db, name);
  expect(hits, name).toHaveLength(1);
  return hits[0];
};

describe('index of the mixed fixture', () => {
  it('indexes every file by language and reports no problem', () => {
    expect(summary.filesByLanguage).toEqual({ python: 4, typescript: 2, text: 2 });
    expect(summary.problems).toEqual([]);
    expect(checkConsistency(db)).toEqual([]);
  });

  it('extracts the exact objects of a Python module, qualified by class', () => {
    const objs = fiberObjects(db, 'shop/cart.py').map((o) => `${o.kind} ${o.qualifiedName} ${o.startLine}-${o.endLine}`);
    expect(objs).toEqual([
      'module shop.cart 1-24',
      'class Cart 4-19',
      'method Cart.__init__ 7-8',
      'method Cart.add_item 10-12',
      'method Cart.subtotal 14-15',
      'method Cart.total 17-19',
      'class GiftCart 22-24',
      'method GiftCart.total 23-24',
    ]);
  });

  it('gives objects stable ids from path, qualified name and kind', () => {
    expect(one('Cart.total').id).toBe(objectId('shop/cart.py', 'Cart.total', 'method'));
  });

  it('records the provenance fiber: file and enclosing object', () => {
    const total = one('Cart.total');
    expect(total.path).toBe('shop/cart.py');
    expect(total.parentId).toBe(one('Cart').id);
    expect(one('Cart').parentId).toBe(objectId('shop/cart.py', 'shop.cart', 'module'));
  });

  it('keeps signature, body and docstring views with their line spans', () => {
    const views = objectViews(db, one('apply_discount').id).map((v) => `${v.kind} ${v.path}:${v.startLine}-${v.endLine}`);
    expect(views).toContain('signature shop/pricing.py:6-6');
    expect(views).toContain('body shop/pricing.py:6-10');
    expect(views).toContain('docstring shop/pricing.py:7-7');
    const body = objectViews(db, one('apply_discount').id).find((v) => v.kind === 'body')!;
    expect(body.text.split('\n')[0]).toBe('def apply_discount(amount, percent):');
    expect(body.tokens).toBeGreaterThan(10);
  });

  it('adds call-site, import and test-reference views from resolved references', () => {
    const views = objectViews(db, one('apply_discount').id).map((v) => `${v.kind} ${v.path}:${v.startLine} ${v.text}`);
    expect(views).toContain('callsite shop/cart.py:19 return with_tax(apply_discount(self.subtotal(), discount_percent))');
    expect(views).toContain('import shop/cart.py:1 from shop.pricing import apply_discount, with_tax');
    expect(views).toContain('import shop/__init__.py:3 from .pricing import apply_discount as discount');
    const cartViews = objectViews(db, one('Cart').id).map((v) => `${v.kind} ${v.path}:${v.startLine}`);
    expect(cartViews).toContain('testref shop/tests/test_cart.py:5');
  });

  it('resolves references through imports, aliases, self and inheritance', () => {
    const target = (from: string, name: string) =>
      objectReferences(db, one(from).id, 'from')
        .filter((r) => r.name === name)
        .map((r) => r.targetId);
    expect(target('Cart.total', 'apply_discount')).toEqual([one('apply_discount').id]);
    expect(target('Cart.total', 'subtotal')).toEqual([one('Cart.subtotal').id]);
    expect(target('GiftCart', 'Cart')).toEqual([one('Cart').id]);
    expect(target('ReceiptRenderer.render', 'formatPrice')).toEqual([one('formatPrice').id]);
    const callers = objectReferences(db, one('with_tax').id, 'to').map((r) => `${r.path}:${r.line}`);
    expect(callers).toEqual(['shop/cart.py:1', 'shop/cart.py:19']);
  });

  it('indexes other text files as file objects with window views', () => {
    const [doc] = fiberObjects(db, 'docs/usage.md');
    expect(doc.kind).toBe('file');
    expect(objectViews(db, doc.id).map((v) => `${v.kind} ${v.startLine}-${v.endLine}`)).toEqual(['window 1-4']);
  });
});
