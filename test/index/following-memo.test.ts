import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { indexRepository } from '../../indexer/index-repository.ts';
import { followingMemo, storeObjectSource } from '../../indexer/store/object-source.ts';
import { openStore } from '../../indexer/store/open.ts';
import { findObjectsByName } from '../../indexer/store/read.ts';
import { copyFixture, tempDir, writeTree } from '../helpers/repo.ts';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** The repository indexed, a read-only connection to its index, and a memo following it. */
async function indexed(repo: string) {
  const file = path.join(repo, '.allot', 'index.db');
  const db = openStore(file);
  await indexRepository({ repo, db, workers: 0 });
  const reader = openStore(file, { readonly: true });
  const idOf = (name: string) => findObjectsByName(reader, name)[0].id;
  return { db, reader, memo: followingMemo(reader), idOf };
}

describe('object sources remembered across queries', () => {
  it('hand out what the index holds now: a changed file is read again, an unchanged one is not', async () => {
    const repo = copyFixture('mixed');
    dirs.push(repo);
    const { db, reader, memo, idOf } = await indexed(repo);
    const cart = idOf('Cart.subtotal');
    const tax = idOf('with_tax');
    const first = storeObjectSource(reader, memo());
    const cartText = first.objects([cart]).get(cart)!.text;
    expect(first.objects([tax]).get(tax)!.text).toContain('def with_tax');
    const pricingFiber = first.fiberObjects('shop/pricing.py').map((o) => o.qualifiedName);

    // The fiber and the text of an edited file change; the other file's are the ones remembered.
    fs.appendFileSync(path.join(repo, 'shop/pricing.py'), '\n\ndef round_price(amount):\n    return round(with_tax(amount), 2)\n');
    await indexRepository({ repo, db, workers: 0 });
    const remembered = memo();
    expect(remembered.lines.has('shop/pricing.py')).toBe(false);
    const cartPath = storeObjectSource(reader).infos([cart]).get(cart)!.path;
    expect(remembered.lines.has(cartPath)).toBe(true);
    const next = storeObjectSource(reader, remembered);
    expect(next.fiberObjects('shop/pricing.py').map((o) => o.qualifiedName)).toEqual([...pricingFiber, 'round_price']);
    expect(next.objects([cart]).get(cart)!.text).toBe(cartText);
    // Everything it answers equals a source that remembers nothing.
    const fresh = storeObjectSource(reader);
    const ids = [cart, tax, idOf('round_price')];
    expect([...next.objects(ids)]).toEqual([...fresh.objects(ids)]);
    expect(next.fiberObjects(cartPath)).toEqual(fresh.fiberObjects(cartPath));
    reader.close();
    db.close();
  });

  it('count the characters of CRLF files as they remember them, and give them back when the file changes', async () => {
    const repo = tempDir();
    dirs.push(repo);
    const crlf = (lines: string[]) => lines.map((l) => `${l}\r\n`).join('');
    const text = crlf(['def area(w, h):', '    return w * h', '', '', 'def perimeter(w, h):', '    return 2 * (w + h)']);
    writeTree(repo, { 'geo.py': text, 'unix.py': 'def ident(x):\n    return x\n' });
    const { db, reader, memo, idOf } = await indexed(repo);
    const source = storeObjectSource(reader, memo());
    // Lines without their terminators: no '\r' reaches a rendering.
    expect(source.objects([idOf('perimeter')]).get(idOf('perimeter'))!.text).toBe('def perimeter(w, h):\n    return 2 * (w + h)');
    const afterGeo = memo().chars;
    // Six lines of geo.py, each with one terminator counted (not two for \r\n, nor an empty seventh line).
    expect(afterGeo).toBe(['def area(w, h):', '    return w * h', '', '', 'def perimeter(w, h):', '    return 2 * (w + h)'].reduce((n, l) => n + l.length + 1, 0));
    source.objects([idOf('ident')]);
    expect(memo().chars).toBe(afterGeo + 'def ident(x):'.length + 1 + '    return x'.length + 1);
    // Dropping the changed file gives back exactly what it added.
    fs.writeFileSync(path.join(repo, 'geo.py'), `${text}\r\ndef volume(w, h, d):\r\n    return w * h * d\r\n`);
    await indexRepository({ repo, db, workers: 0 });
    expect(memo().chars).toBe('def ident(x):'.length + 1 + '    return x'.length + 1);
    reader.close();
    db.close();
  });
});
