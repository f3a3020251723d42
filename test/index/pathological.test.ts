import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_VIEWS_PER_FILE, minifiedReason } from '../../indexer/extract/limits.ts';
import { indexRepository } from '../../indexer/index-repository.ts';
import { seededRandom } from '../../indexer/random.ts';
import { openStore } from '../../indexer/store/open.ts';
import { fiberObjects, objectViews } from '../../indexer/store/read.ts';
import { search } from '../../indexer/retrieve/search.ts';
import { checkConsistency, FIXTURES, scratchDirs, writeTree } from '../helpers/repo.ts';

const dir = scratchDirs();

/** A bundle as minifiers write it: one line of about `bytes` characters, thousands of tiny functions. */
function oneLineBundle(bytes: number): string {
  const rand = seededRandom(3);
  const id = () => String.fromCharCode(97 + Math.floor(rand() * 26)) + Math.floor(rand() * 1000).toString(36);
  const parts: string[] = ['!function(e){'];
  let n = 0;
  while (n < bytes) {
    const p = `function ${id()}(${id()},${id()}){return ${id()}(${id()})+${id()}.${id()}}var ${id()}={${id()}:function(){return ${id()}}};`;
    parts.push(p);
    n += p.length;
  }
  return parts.join('') + '}(window);\n';
}

describe('pathological files', () => {
  it('indexes a 1 MB one-line bundle (not named .min.js) as one file object without views, and says so', async () => {
    const repo = dir();
    writeTree(repo, { 'vendor/bundle.js': oneLineBundle(1_000_000), 'app.py': 'def parse_bundle(text):\n    return text\n' });
    const file = path.join(dir(), 'index.db');
    const db = openStore(file);
    const started = performance.now();
    const s = await indexRepository({ repo, db, workers: 0 });
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(s.limited).toEqual({ minified: 1 });
    expect(s.limitedPaths[0]).toMatchObject({ path: 'vendor/bundle.js', reason: 'minified' });
    const objects = fiberObjects(db, 'vendor/bundle.js');
    expect(objects.map((o) => `${o.kind} ${o.qualifiedName}`)).toEqual(['file vendor/bundle.js']);
    expect(objectViews(db, objects[0].id)).toEqual([]);
    expect(search(db, 'parse_bundle', 5)[0].object).toBe('parse_bundle');
    expect(checkConsistency(db)).toEqual([]);
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    expect(fs.statSync(file).size).toBeLessThan(4_000_000);
  });

  it('caps a file with too many views, keeping signatures first, and reports it', async () => {
    const repo = dir();
    const n = 7000;
    writeTree(repo, { 'many.py': Array.from({ length: n }, (_, i) => `def handler_${i}(event):\n    return event + ${i}\n`).join('\n') });
    const db = openStore(path.join(dir(), 'index.db'));
    const s = await indexRepository({ repo, db, workers: 0 });
    expect(s.limited).toEqual({ views: 1 });
    expect(s.limitedPaths[0].message).toMatch(/^kept 10000 of 14000 views/);
    expect(s.views).toBe(MAX_VIEWS_PER_FILE);
    const kinds = db.prepare('SELECT kind, count(*) AS n FROM views GROUP BY kind ORDER BY kind').all();
    expect(kinds).toEqual([{ kind: 'body', n: MAX_VIEWS_PER_FILE - n }, { kind: 'signature', n }]);
    expect(checkConsistency(db)).toEqual([]);
    db.close();
  });

  it('takes for minified the bundles minifiers write, and never hand-written or generated code of the fixtures', () => {
    expect(minifiedReason(oneLineBundle(20_000))).toMatch(/minified or generated/);
    // Lines wrapped at about 500 characters, as some minifiers do, are minified too.
    expect(minifiedReason(oneLineBundle(20_000).replace(/(.{500})/g, '$1\n'))).toMatch(/minified/);
    // A data table: long lines, but spaced like code.
    const table = Array.from({ length: 60 }, (_, i) => `ROW_${i} = [${Array.from({ length: 60 }, (_, j) => `${i * j} * x**${j}`).join(', ')}]`).join('\n');
    expect(minifiedReason(table)).toBeNull();
    // Brackets nested thousands deep make long lines of no words: parsed as code (the parser's error recovery copes).
    expect(minifiedReason(`x = ${'['.repeat(9000)}1${']'.repeat(9000)}\n`)).toBeNull();
    const sources = (d: string): string[] =>
      fs.readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(path.join(d, e.name)) : [path.join(d, e.name)]));
    const code = sources(FIXTURES).filter((f) => /\.(py|ts|tsx|js|java|go|rs)$/.test(f));
    expect(code.length).toBeGreaterThan(20);
    for (const f of code) expect(minifiedReason(fs.readFileSync(f, 'utf8')), f).toBeNull();
  });
});
