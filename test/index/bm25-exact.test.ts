import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { indexRepository } from '../../indexer/index-repository.ts';
import { seededRandom } from '../../indexer/random.ts';
import { bm25Retriever } from '../../indexer/retrieve/bm25.ts';
import { ftsStatistics } from '../../indexer/store/fts.ts';
import { APPLICATION_ID, BUILT_HERE, fileStamp, loadMigrations, openStore } from '../../indexer/store/open.ts';
import { bm25Fingerprint, randomEdit } from '../helpers/random-edits.ts';
import { checkConsistency, scratchDirs, writeTree } from '../helpers/repo.ts';

const dir = scratchDirs();

const WORDS = ['parse', 'config', 'token', 'render', 'cache', 'price', 'cart', 'node', 'tree', 'walk', 'load', 'save', 'user', 'page'];

/** A package of modules that import and call each other, so edits also move derived views (call sites, imports). */
function randomPackage(rand: () => number, modules: number): Record<string, string> {
  const word = () => WORDS[Math.floor(rand() * WORDS.length)];
  const files: Record<string, string> = { 'pkg/__init__.py': '' };
  const names: string[][] = [];
  for (let m = 0; m < modules; m++) {
    const fns = Array.from({ length: 2 + Math.floor(rand() * 4) }, (_, i) => `${word()}_${word()}_${i}`);
    names.push(fns);
    const lines: string[] = [`"""Module ${m}: ${word()} and ${word()}."""`];
    if (m > 0) {
      const dep = Math.floor(rand() * m);
      lines.push(`from .mod${dep} import ${names[dep][0]}`);
    }
    lines.push('', '', `class ${word()[0].toUpperCase()}${word()}Thing${m}:`, `    """A ${word()} of ${word()}."""`, '');
    lines.push(`    def ${word()}(self, ${word()}):`, `        return ${word()} + ${m}`, '');
    for (const fn of fns) {
      lines.push('', `def ${fn}(${word()}, ${word()}):`, `    """${word()} the ${word()}."""`);
      lines.push(m > 0 ? `    return ${names[Math.floor(rand() * m)][0]}(${word()}, ${word()})` : `    return ${word()}`);
    }
    files[`pkg/mod${m}.py`] = lines.join('\n') + '\n';
  }
  files['README.md'] = `# ${WORDS.join(' ')}\n\n${Array.from({ length: 60 }, word).join(' ')}\n`;
  return files;
}

const QUERIES = [...WORDS, 'parse config', 'render page cache', 'Thing', 'user_save', 'token tree walk', 'return'];

async function freshFingerprint(repo: string) {
  const db = openStore(path.join(dir(), 'fresh.db'));
  await indexRepository({ repo, db, workers: 0 });
  const f = bm25Fingerprint(db, QUERIES, 100_000);
  db.close();
  return f;
}

describe('BM25 after edits', () => {
  it('ranks exactly as a fresh index of the same tree after random edits (same scores, same hits, same statistics)', async () => {
    for (const seed of [1, 2]) {
      const rand = seededRandom(seed);
      const repo = dir();
      writeTree(repo, randomPackage(rand, 14));
      const db = openStore(path.join(repo, '.allot', 'index.db'));
      await indexRepository({ repo, db, workers: 0 });
      for (let step = 0; step < 30; step++) {
        // Several edits per run, as a watcher batch or a checkout brings them.
        for (let e = Math.floor(rand() * 3); e >= 0; e--) randomEdit(repo, rand);
        await indexRepository({ repo, db, workers: 0 });
        if (step % 10 === 9) {
          expect(checkConsistency(db)).toEqual([]);
          const views = (db.prepare('SELECT count(*) AS n FROM views').pluck().get() as number);
          expect(ftsStatistics(db).rows).toBe(views);
          expect(bm25Fingerprint(db, QUERIES, 100_000)).toEqual(await freshFingerprint(repo));
        }
      }
      db.close();
    }
  });

  it('a database whose FTS rows counted deleted views is rebuilt exact when opened', async () => {
    const repo = dir();
    writeTree(repo, randomPackage(seededRandom(7), 6));
    const file = path.join(dir(), 'old.db');
    // An index as schema 5 wrote it: contentless_delete rows, deleted by rowid, still counted.
    const raw = new Database(file);
    for (const m of loadMigrations().filter((m) => m.version <= 5)) raw.exec(m.sql);
    raw.pragma(`application_id = ${APPLICATION_ID}`);
    raw.pragma('user_version = 5');
    // Built in this file by an allot that stamps it (an unstamped one is rebuilt, not upgraded).
    raw.prepare('INSERT INTO state (key, value) VALUES (?, ?)').run(BUILT_HERE, fileStamp(file));
    raw.close();
    {
      // Rows go in through a table of the old definition: what schema 5 had.
      const db = new Database(file);
      db.prepare("INSERT INTO files (path, language, hash, size, mtime_ms, line_count) VALUES ('a.py', 'python', 'h', 1, 0, 3)").run();
      db.prepare("INSERT INTO file_texts (file_id, text) VALUES (1, 'def parse_config(): pass')").run();
      db.prepare(
        "INSERT INTO objects (id, file_id, parent_id, kind, name, qualified_name, start_line, end_line, start_byte, end_byte, signature) VALUES ('o1', 1, NULL, 'function', 'parse_config', 'parse_config', 1, 1, 0, 24, 'def parse_config():')",
      ).run();
      const insView = db.prepare("INSERT INTO views (object_id, file_id, kind, start_line, end_line, text, tokens) VALUES ('o1', 1, 'body', 1, 1, ?, 5)");
      const insFts = db.prepare('INSERT INTO views_fts (rowid, name, text, parts) VALUES (?, ?, ?, ?)');
      for (let i = 0; i < 10; i++) insFts.run(insView.run(`def parse_config(): pass ${'x '.repeat(i)}`).lastInsertRowid, 'parse_config', 'parse_config x', 'parse config');
      for (let id = 1; id <= 8; id++) {
        db.prepare('DELETE FROM views_fts WHERE rowid = ?').run(id);
        db.prepare('DELETE FROM views WHERE id = ?').run(id);
      }
      expect(ftsStatistics(db).rows).toBe(10);
      db.close();
    }
    const db = openStore(file);
    expect(db.pragma('user_version', { simple: true })).toBe(loadMigrations().at(-1)!.version);
    expect(ftsStatistics(db).rows).toBe(2);
    expect(bm25Retriever(db).retrieve('parse', 10).map((c) => c.viewId).sort((a, b) => a - b)).toEqual([9, 10]);
    expect(checkConsistency(db)).toEqual([]);
    db.close();
  });
});
