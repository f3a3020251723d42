import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { indexRepository } from '../../indexer/index-repository.ts';
import { openStore } from '../../indexer/store/open.ts';
import { findObjectsByName } from '../../indexer/store/read.ts';
import { checkConsistency, copyFixture, dumpIndex, freshDump, tempDir, writeTree } from '../helpers/repo.ts';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));


describe('incremental indexing', () => {
  it('equals a fresh index after edits, additions, renames and deletions', async () => {
    const repo = copyFixture('mixed');
    dirs.push(repo);
    const db = openStore(path.join(repo, '.allot', 'index.db'));
    await indexRepository({ repo, db, workers: 0 });
    const cartId = findObjectsByName(db, 'Cart.subtotal')[0].id;

    const steps: (() => void)[] = [
      // edit: change a function and add one
      () => fs.appendFileSync(path.join(repo, 'shop/pricing.py'), '\n\ndef round_price(amount):\n    return round(with_tax(amount), 2)\n'),
      // rename a module that others import
      () => fs.renameSync(path.join(repo, 'shop/pricing.py'), path.join(repo, 'shop/prices.py')),
      // delete a file and add a new one that calls into the package
      () => {
        fs.rmSync(path.join(repo, 'web/format.ts'));
        writeTree(repo, { 'shop/receipt.py': 'from .cart import Cart\n\n\ndef receipt(cart: Cart):\n    return cart.total()\n' });
      },
      // bring the renamed module back under its old name with different content
      () => writeTree(repo, { 'shop/pricing.py': 'def apply_discount(amount, percent):\n    return amount\n' }),
    ];
    for (const step of steps) {
      step();
      const summary = await indexRepository({ repo, db, workers: 0 });
      expect(checkConsistency(db)).toEqual([]);
      expect(dumpIndex(db)).toEqual(await freshDump(repo));
      expect(summary.parsed).toBeLessThanOrEqual(2);
    }
    // An object in a file that never changed keeps its id.
    expect(findObjectsByName(db, 'Cart.subtotal')[0].id).toBe(cartId);
    db.close();
  });

  it('re-parses nothing when nothing changed', async () => {
    const repo = copyFixture('mixed');
    dirs.push(repo);
    const db = openStore(path.join(repo, '.allot', 'index.db'));
    const first = await indexRepository({ repo, db, workers: 0 });
    const second = await indexRepository({ repo, db, workers: 0 });
    expect(first.parsed).toBe(8);
    expect(second).toMatchObject({ parsed: 0, unchanged: 8, removed: 0 });
    // touching a file without changing its bytes is not a change
    const now = new Date(Date.now() + 5000);
    fs.utimesSync(path.join(repo, 'shop/cart.py'), now, now);
    expect((await indexRepository({ repo, db, workers: 0 })).parsed).toBe(0);
    db.close();
  });
});
