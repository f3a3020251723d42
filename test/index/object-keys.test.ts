import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { indexRepository } from '../../indexer/index-repository.ts';
import { loadMigrations, openStore } from '../../indexer/store/open.ts';
import { findObjectsByName, objectReferences, objectViews } from '../../indexer/store/read.ts';
import { ftsStatistics } from '../../indexer/store/fts.ts';
import { referencesTo } from '../../indexer/store/references.ts';
import { viewTexts, type StoredView } from '../../indexer/store/view-texts.ts';
import { checkConsistency, copyFixture, dumpIndex, freshDump, scratchDirs, writeTree } from '../helpers/repo.ts';

const dir = scratchDirs('allot-keys-');

/**
 * Turns an index back into schema 15's layout, where views, references and parents held the objects' text ids
 * (what every index built before schema 17 looks like), keeping its rows.
 */
function downgradeToSchema15(file: string): void {
  // Schema 15 kept each derived view's line as its text.
  const db = openStore(file);
  const texts = viewTexts(db);
  const derived = (
    db.prepare('SELECT v.id, o.id AS objectId, v.file_id AS fileId, v.kind, v.derived, v.start_line AS startLine, v.end_line AS endLine FROM views v JOIN objects o ON o.key = v.object WHERE v.derived = 1').all() as (StoredView & { id: number })[]
  ).map((v) => [v.id, texts(v)] as const);
  db.close();
  const raw = new Database(file);
  raw.pragma('foreign_keys = OFF');
  raw.exec(`
    CREATE TABLE objects_15 (
      id TEXT PRIMARY KEY, file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE, parent_id TEXT,
      kind TEXT NOT NULL, name TEXT NOT NULL, qualified_name TEXT NOT NULL, start_line INTEGER NOT NULL,
      end_line INTEGER NOT NULL, start_byte INTEGER NOT NULL, end_byte INTEGER NOT NULL, signature TEXT NOT NULL,
      docstring TEXT, embed_hash TEXT);
    INSERT INTO objects_15 SELECT o.id, o.file_id, p.id, o.kind, o.name, o.qualified_name, o.start_line, o.end_line,
      o.start_byte, o.end_byte, o.signature, o.docstring, o.embed_hash FROM objects o LEFT JOIN objects p ON p.key = o.parent;
    CREATE TABLE views_15 (
      id INTEGER PRIMARY KEY, object_id TEXT NOT NULL REFERENCES objects(id) ON DELETE CASCADE,
      file_id INTEGER NOT NULL REFERENCES files(id) ON DELETE CASCADE, kind TEXT NOT NULL,
      derived INTEGER NOT NULL DEFAULT 0, start_line INTEGER NOT NULL, end_line INTEGER NOT NULL, text TEXT);
    INSERT INTO views_15 SELECT v.id, o.id, v.file_id, v.kind, v.derived, v.start_line, v.end_line, NULL
      FROM views v JOIN objects o ON o.key = v.object;
    CREATE TABLE refs_15 (
      id INTEGER PRIMARY KEY, source_id TEXT NOT NULL REFERENCES objects(id) ON DELETE CASCADE, kind TEXT NOT NULL,
      name TEXT NOT NULL, qualifier TEXT, module TEXT, alias TEXT, line INTEGER NOT NULL, target_id TEXT);
    INSERT INTO refs_15 SELECT r.id, s.id, r.kind, r.name, r.qualifier, r.module, r.alias, r.line, t.id
      FROM refs r JOIN objects s ON s.key = r.source LEFT JOIN objects t ON t.key = r.target;
    DROP TABLE views; DROP TABLE refs; DROP TABLE objects;
    ALTER TABLE objects_15 RENAME TO objects; ALTER TABLE views_15 RENAME TO views; ALTER TABLE refs_15 RENAME TO refs;
    CREATE INDEX objects_file ON objects(file_id, start_line);
    CREATE INDEX objects_name ON objects(name);
    CREATE INDEX objects_parent ON objects(parent_id);
    CREATE INDEX objects_embed_hash ON objects(embed_hash);
    CREATE INDEX views_object ON views(object_id);
    CREATE INDEX views_file ON views(file_id);
    CREATE INDEX refs_source ON refs(source_id);
    CREATE INDEX refs_target ON refs(target_id) WHERE target_id IS NOT NULL;
  `);
  const setText = raw.prepare('UPDATE views SET text = ? WHERE id = ?');
  for (const [id, text] of derived) setText.run(text, id);
  expect(derived.length).toBeGreaterThan(0);
  raw.pragma('user_version = 15');
  raw.close();
  fs.rmSync(`${file}-clean`, { force: true });
}


describe('integer object keys (schema 17)', () => {
  it('upgrades an index of text ids in place: the same objects, ids, views and references, then indexes on', async () => {
    const repo = copyFixture('mixed');
    const file = path.join(dir(), 'old.db');
    let db = openStore(file);
    await indexRepository({ repo, db, workers: 0 });
    const before = dumpIndex(db);
    db.close();
    downgradeToSchema15(file);
    {
      const raw = new Database(file, { readonly: true });
      expect(raw.prepare("SELECT count(*) FROM pragma_table_info('refs') WHERE name = 'target_id'").pluck().get()).toBe(1);
      expect(raw.prepare('SELECT count(*) FROM views WHERE derived = 1 AND text IS NOT NULL').pluck().get()).toBeGreaterThan(0);
      raw.close();
    }

    db = openStore(file);
    expect(db.pragma('user_version', { simple: true })).toBe(loadMigrations().at(-1)!.version);
    expect(checkConsistency(db)).toEqual([]);
    expect(dumpIndex(db)).toEqual(before);
    // Keys are integers everywhere an object is referred to; the public ids stay the 16-character hashes.
    const types = db
      .prepare(
        `SELECT (SELECT group_concat(DISTINCT typeof(object)) FROM views) AS views, (SELECT group_concat(DISTINCT typeof(source)) FROM refs) AS sources,
                (SELECT group_concat(DISTINCT typeof(target)) FROM refs WHERE target IS NOT NULL) AS targets,
                (SELECT group_concat(DISTINCT typeof(parent)) FROM objects WHERE parent IS NOT NULL) AS parents`,
      )
      .get();
    expect(types).toEqual({ views: 'integer', sources: 'integer', targets: 'integer', parents: 'integer' });
    // No view keeps a copy of its text.
    expect(db.prepare("SELECT count(*) FROM pragma_table_info('views') WHERE name = 'text'").pluck().get()).toBe(0);
    const [subtotal] = findObjectsByName(db, 'Cart.subtotal');
    expect(subtotal.id).toMatch(/^[0-9a-f]{16}$/);
    expect(subtotal.parentId).toBe(findObjectsByName(db, 'Cart')[0].id);
    expect(objectViews(db, subtotal.id).map((v) => v.objectId)).toContain(subtotal.id);
    const uses = referencesTo(db, [subtotal.id], { limit: 10 });
    expect(uses.total).toBeGreaterThan(0);
    expect(objectReferences(db, subtotal.id, 'to').every((r) => r.targetId === subtotal.id)).toBe(true);

    // The upgraded index follows edits like a fresh one.
    fs.appendFileSync(path.join(repo, 'shop/pricing.py'), '\n\ndef round_price(amount):\n    return round(with_tax(amount), 2)\n');
    writeTree(repo, { 'shop/receipt.py': 'from .cart import Cart\n\n\ndef receipt(cart: Cart):\n    return cart.subtotal()\n' });
    await indexRepository({ repo, db, workers: 0 });
    expect(checkConsistency(db)).toEqual([]);
    expect(dumpIndex(db)).toEqual(await freshDump(repo));
    // Rows of derived views made before the upgrade were deleted with the texts they were inserted with.
    const fresh = openStore(path.join(dir(), 'fresh-stats.db'));
    await indexRepository({ repo, db: fresh, workers: 0 });
    expect(ftsStatistics(db)).toEqual(ftsStatistics(fresh));
    fresh.close();
    db.close();
    fs.rmSync(repo, { recursive: true, force: true });
  });

  it('never gives a key to another object: a reference left pointing at a removed object cannot reach a newcomer', async () => {
    const repo = copyFixture('mixed');
    const db = openStore(path.join(dir(), 'keys.db'));
    await indexRepository({ repo, db, workers: 0 });
    const last = db.prepare('SELECT f.path FROM objects o JOIN files f ON f.id = o.file_id ORDER BY o.key DESC LIMIT 1').pluck().get() as string;
    const maxKey = db.prepare('SELECT max(key) FROM objects').pluck().get() as number;
    fs.rmSync(path.join(repo, last));
    await indexRepository({ repo, db, workers: 0 });
    writeTree(repo, { 'shop/late.py': 'def late():\n    return 1\n' });
    await indexRepository({ repo, db, workers: 0 });
    const newKeys = db.prepare("SELECT o.key FROM objects o JOIN files f ON f.id = o.file_id WHERE f.path = 'shop/late.py'").pluck().all() as number[];
    expect(newKeys.length).toBeGreaterThan(0);
    expect(Math.min(...newKeys)).toBeGreaterThan(maxKey);
    expect(checkConsistency(db)).toEqual([]);
    db.close();
    fs.rmSync(repo, { recursive: true, force: true });
  });
});
