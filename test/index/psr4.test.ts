// PHP resolution through composer.json's PSR-4 roots: unit rules, then a real index where the
// path-suffix convention alone cannot tell two same-named classes apart.
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { indexRepository } from '../../indexer/index-repository.ts';
import { buildModuleIndex } from '../../indexer/resolve/modules.ts';
import { psr4Candidates, psr4Roots } from '../../indexer/resolve/psr4.ts';
import { loadLanguage } from '../../indexer/languages/registry.ts';
import { loadQueryLanguages } from '../../indexer/retrieve/query-reading.ts';
import { structureOf, structureSettled } from '../../indexer/retrieve/structure-cache.ts';
import { createStructuralRetriever } from '../../indexer/retrieve/structural.ts';
import type { DB } from '../../indexer/store/open.ts';
import { indexInPlace, tempDir, writeTree } from '../helpers/repo.ts';

const COMPOSER = JSON.stringify({
  name: 'acme/shop',
  autoload: { 'psr-4': { 'Acme\\Shop\\': 'src/', 'Acme\\Util\\': ['lib/util/', 'lib/extra'] } },
  'autoload-dev': { 'psr-4': { 'Acme\\Shop\\Tests\\': 'tests/' } },
});

describe('PSR-4 roots', () => {
  it('reads autoload and autoload-dev, folders relative to the composer.json that declares them', () => {
    expect(psr4Roots('composer.json', COMPOSER)).toEqual([
      { prefix: 'Acme\\Shop\\', dir: 'src' },
      { prefix: 'Acme\\Util\\', dir: 'lib/util' },
      { prefix: 'Acme\\Util\\', dir: 'lib/extra' },
      { prefix: 'Acme\\Shop\\Tests\\', dir: 'tests' },
    ]);
    expect(psr4Roots('packages/cart/composer.json', '{"autoload":{"psr-4":{"Cart\\\\":"src"}}}')).toEqual([{ prefix: 'Cart\\', dir: 'packages/cart/src' }]);
  });
  it('declares nothing for a file that is not JSON or not composer-shaped', () => {
    expect(psr4Roots('composer.json', '{ "autoload": ')).toEqual([]);
    expect(psr4Roots('composer.json', '{"autoload":{"psr-4":{"A\\\\":3}}}')).toEqual([]);
  });
  it('maps a class to the file below the longest matching prefix', () => {
    const roots = psr4Roots('composer.json', COMPOSER);
    expect(psr4Candidates(roots, 'Acme\\Shop\\Tests\\CartTest')).toEqual(['tests/CartTest.php', 'src/Tests/CartTest.php']);
    expect(psr4Candidates(roots, '\\Acme\\Util\\Str')).toEqual(['lib/util/Str.php', 'lib/extra/Str.php']);
    expect(psr4Candidates(roots, 'Other\\Thing')).toEqual([]);
  });
  it('wins over the path-suffix convention when both name a file', () => {
    const files = ['src/Cart.php', 'tests/Cart.php', 'lib/extra/Str.php'];
    const roots = { psr4: psr4Roots('composer.json', COMPOSER) };
    expect(buildModuleIndex(files).resolve('Acme\\Shop\\Cart', 'src/App.php', 'php')).toEqual([]);
    expect(buildModuleIndex(files, roots).resolve('Acme\\Shop\\Cart', 'src/App.php', 'php')).toEqual(['src/Cart.php']);
    expect(buildModuleIndex(files, roots).resolve('Acme\\Shop\\Tests\\Cart', 'src/App.php', 'php')).toEqual(['tests/Cart.php']);
    expect(buildModuleIndex(files, roots).resolve('Acme\\Util\\Str', 'src/App.php', 'php')).toEqual(['lib/extra/Str.php']);
  });
});

describe('PSR-4 in a real index', () => {
  const roots: string[] = [];
  const dbs: DB[] = [];
  afterAll(() => {
    for (const db of dbs) db.close();
    for (const r of roots) fs.rmSync(r, { recursive: true, force: true });
  });
  const tree = (composer: string) => ({
    'composer.json': composer,
    'src/Cart.php': '<?php\nnamespace Acme\\Shop;\n\nclass Cart\n{\n    public static function make(): self { return new self(); }\n}\n',
    'tests/Cart.php': '<?php\nnamespace Acme\\Shop\\Tests;\n\nclass Cart\n{\n    public static function make(): self { return new self(); }\n}\n',
    'src/Http/Checkout.php': '<?php\nnamespace Acme\\Shop\\Http;\n\nuse Acme\\Shop\\Cart;\n\nclass Checkout\n{\n    public function run() { return Cart::make(); }\n}\n',
  });
  const importOf = async (composer: string) => {
    const root = tempDir('allot-psr4-');
    roots.push(root);
    writeTree(root, tree(composer));
    const db = await indexInPlace(root);
    dbs.push(db);
    return db
      .prepare(
        `SELECT r.kind, tf.path AS targetPath, t.qualified_name AS target FROM refs r
         JOIN objects s ON s.key = r.source JOIN files sf ON sf.id = s.file_id
         LEFT JOIN objects t ON t.key = r.target LEFT JOIN files tf ON tf.id = t.file_id
         WHERE sf.path = 'src/Http/Checkout.php' AND (r.kind = 'import' OR r.name = 'make') ORDER BY r.kind DESC`,
      )
      .all();
  };
  it('resolves `use` through composer.json to the class its root names', async () => {
    expect(await importOf(COMPOSER)).toEqual([
      { kind: 'import', targetPath: 'src/Cart.php', target: 'Cart' },
      { kind: 'call', targetPath: 'src/Cart.php', target: 'Cart.make' },
    ]);
  });
  it('falls back to path suffixes, which cannot choose between the two classes, when composer.json is broken', async () => {
    expect((await importOf('{ not json'))[0]).toEqual({ kind: 'import', targetPath: null, target: null });
  });
});

describe('PSR-4 at query time', () => {
  // A code query in a new file: `use Acme\Shop\Cart` names src/Cart.php through composer.json alone (tests/Cart.php
  // declares a `Cart` with a `make` too), so the structural retriever must read the same roots the index did.
  const QUERY = '<?php\nnamespace Acme\\Shop\\Http;\n\nuse Acme\\Shop\\Cart;\n\nfunction pay() { return Cart::make(); }\n';
  let root: string;
  let db: DB;
  let grammars: Awaited<ReturnType<typeof loadQueryLanguages>>;
  afterAll(() => {
    db?.close();
    if (root) fs.rmSync(root, { recursive: true, force: true });
  });
  const top = (reader: DB) =>
    createStructuralRetriever(reader, grammars, { path: 'tests/Http/PayTest.php' })
      .retrieve(QUERY, 5)
      .filter((c) => c.reason === 'structural: called in the query as Cart.make')
      .map((c) => `${c.path} ${c.objectName}`);

  it('resolves a query\'s `use` through composer.json, and follows a change to it', async () => {
    root = tempDir('allot-psr4-query-');
    writeTree(root, {
      'composer.json': COMPOSER,
      'src/Cart.php': '<?php\nnamespace Acme\\Shop;\n\nclass Cart\n{\n    public static function make(): self { return new self(); }\n}\n',
      'tests/Cart.php': '<?php\nnamespace Acme\\Shop\\Tests;\n\nclass Cart\n{\n    public static function make(): self { return new self(); }\n}\n',
    });
    db = await indexInPlace(root);
    // PHP is not among the grammars loaded up front (a first query loads it for the next ones).
    grammars = new Map([...(await loadQueryLanguages()), ['php', await loadLanguage('php')]]);
    expect(top(db)).toEqual(['src/Cart.php Cart.make']);
    // Without the roots (composer.json broken), the path-suffix convention cannot choose the file: no import target.
    writeTree(root, { 'composer.json': '{ not json' });
    await indexRepository({ repo: root, db, workers: 0 });
    structureOf(db);
    await structureSettled(db);
    expect(top(db)).toEqual([]);
    // The roots come back with the file: the structure follows them, as a fresh one over the same index would.
    writeTree(root, { 'composer.json': COMPOSER });
    await indexRepository({ repo: root, db, workers: 0 });
    structureOf(db);
    await structureSettled(db);
    expect(top(db)).toEqual(['src/Cart.php Cart.make']);
  });
});
