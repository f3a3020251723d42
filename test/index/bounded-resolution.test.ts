import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { indexRepository } from '../../indexer/index-repository.ts';
import { ftsStatistics } from '../../indexer/store/fts.ts';
import { openStore, type DB } from '../../indexer/store/open.ts';
import { resolveStore, type ResolutionBounds } from '../../indexer/store/resolution.ts';
import { isTestPath } from '../../indexer/paths.ts';
import { checkConsistency, copyFixture, dumpIndex, writeTree } from '../helpers/repo.ts';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

/** One reference per batch and no file text kept between views: the tightest bounds a pass can run with. */
const TIGHT: ResolutionBounds = { batch: 1, textChars: 1 };
/** One batch and every file kept: the pass as it was before it was bounded. */
const LOOSE: ResolutionBounds = { batch: Number.MAX_SAFE_INTEGER, textChars: Infinity };

/**
 * Everything a query can read, by row id where ids are assigned by the pass (views and their full-text rows): the
 * dump, the rows in id order, each full-text row's every token (fts5vocab), BM25's statistics and rankings.
 */
function everything(db: DB): unknown {
  db.exec('CREATE VIRTUAL TABLE IF NOT EXISTS temp.vocab USING fts5vocab(main, views_fts, instance)');
  const terms = db.prepare('SELECT term FROM temp.vocab GROUP BY term ORDER BY count(*) DESC, term LIMIT 40').pluck().all() as string[];
  const rank = db.prepare("SELECT rowid, round(bm25(views_fts), 9) AS score FROM views_fts WHERE views_fts MATCH ? ORDER BY rank, rowid");
  return {
    dump: dumpIndex(db),
    views: db.prepare('SELECT v.id, o.id AS object, v.file_id, v.kind, v.derived, v.start_line, v.end_line FROM views v JOIN objects o ON o.key = v.object ORDER BY v.id').all(),
    refs: db.prepare('SELECT r.id, t.id AS target FROM refs r LEFT JOIN objects t ON t.key = r.target ORDER BY r.id').all(),
    tokens: db.prepare('SELECT doc, col, offset, term FROM temp.vocab ORDER BY doc, col, offset').all(),
    statistics: ftsStatistics(db),
    rankings: terms.map((t) => rank.all(`"${t.replace(/"/g, '""')}"`)),
  };
}

/**
 * The order a first build inserts derived views in (their ids): the (object, view kind) lists in the order their
 * first use comes among references by id, each list by path and line. Read from the references, not from the pass.
 */
function insertionOrder(db: DB): string[] {
  const uses = db
    .prepare(
      `SELECT t.id AS target, r.kind, f.path, r.line FROM refs r JOIN objects o ON o.key = r.source JOIN files f ON f.id = o.file_id
       JOIN objects t ON t.key = r.target ORDER BY r.id`,
    )
    .all() as { target: string; kind: string; path: string; line: number }[];
  const lists = new Map<string, Set<string>>();
  for (const u of uses) {
    const kind = u.kind === 'import' ? 'import' : isTestPath(u.path) ? 'testref' : 'callsite';
    const key = `${u.target} ${kind}`;
    if (!lists.has(key)) lists.set(key, new Set());
    lists.get(key)!.add(`${u.path}:${u.line}`);
  }
  const byPathLine = (a: string, b: string) => {
    const [pa, la] = [a.slice(0, a.lastIndexOf(':')), Number(a.slice(a.lastIndexOf(':') + 1))];
    const [pb, lb] = [b.slice(0, b.lastIndexOf(':')), Number(b.slice(b.lastIndexOf(':') + 1))];
    return pa < pb ? -1 : pa > pb ? 1 : la - lb;
  };
  return [...lists].flatMap(([key, at]) => [...at].sort(byPathLine).slice(0, 5).map((a) => `${key} ${a}`));
}

async function indexed(fixture: string, resolution: ResolutionBounds): Promise<{ repo: string; db: DB }> {
  const repo = copyFixture(fixture);
  dirs.push(repo);
  const db = openStore(path.join(repo, '.allot', 'index.db'));
  await indexRepository({ repo, db, workers: 0, resolution });
  return { repo, db };
}

describe('resolution in bounded batches', () => {
  for (const fixture of ['mixed', 'python', 'typescript']) {
    it(`builds the same index of the ${fixture} fixture as one pass holding everything`, async () => {
      const tight = await indexed(fixture, TIGHT);
      const loose = await indexed(fixture, LOOSE);
      try {
        const a = everything(tight.db) as { views: { derived: number }[]; refs: { target: string | null }[] };
        // The fixture has what the bounds split: derived views and resolved references.
        expect(a.views.filter((v) => v.derived).length).toBeGreaterThan(3);
        expect(a.refs.filter((r) => r.target).length).toBeGreaterThan(3);
        expect(a).toEqual(everything(loose.db));
        const derived = tight.db
          .prepare(`SELECT o.id || ' ' || v.kind || ' ' || f.path || ':' || v.start_line FROM views v JOIN objects o ON o.key = v.object JOIN files f ON f.id = v.file_id WHERE v.derived = 1 ORDER BY v.id`)
          .pluck()
          .all();
        expect(derived).toEqual(insertionOrder(tight.db));
        expect(checkConsistency(tight.db)).toEqual([]);
      } finally {
        tight.db.close();
        loose.db.close();
      }
    });
  }

  it('reconciles stored derived views after edits as one pass holding everything does', async () => {
    const tight = await indexed('mixed', LOOSE);
    const loose = await indexed('mixed', LOOSE);
    try {
      for (const { repo, db } of [tight, loose]) {
        const bounds = db === tight.db ? TIGHT : LOOSE;
        // Lines shift in one file that uses others (its derived views move), and a new use comes in another file.
        const shift = (file: string) => fs.writeFileSync(path.join(repo, file), `// moved down\n\n${fs.readFileSync(path.join(repo, file), 'utf8')}`.replace(/^\/\//, file.endsWith('.py') ? '#' : '//'));
        shift('shop/pricing.py');
        writeTree(repo, { 'shop/receipt.py': 'from .cart import Cart\n\n\ndef receipt(cart: Cart):\n    return cart.total()\n' });
        await indexRepository({ repo, db, workers: 0, resolution: bounds });
        // Then lines shift in every code file: a whole pass matches stored views of rewritten files by their text.
        for (const file of fs.readdirSync(repo, { recursive: true }) as string[]) if (/\.(py|ts)$/.test(file)) shift(file);
        expect((await indexRepository({ repo, db, workers: 0, resolution: bounds })).resolution?.mode).toBe('full');
        resolveStore(db, { full: true, ...bounds });
      }
      expect(everything(tight.db)).toEqual(everything(loose.db));
      expect(checkConsistency(tight.db)).toEqual([]);
    } finally {
      tight.db.close();
      loose.db.close();
    }
  });
});
