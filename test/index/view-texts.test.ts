import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { extractFile } from '../../indexer/extract/extract-file.ts';
import { objectId } from '../../indexer/store/write.ts';
import { fiberObjects, indexedFiles, objectViews } from '../../indexer/store/read.ts';
import type { DB } from '../../indexer/store/open.ts';
import { copyFixture, indexInPlace } from '../helpers/repo.ts';
import { lineAt, lineStarts, sourceLines } from '../../indexer/extract/source.ts';

const opened: { repo: string; db: DB }[] = [];
afterAll(() => opened.splice(0).forEach(({ repo, db }) => (db.close(), fs.rmSync(repo, { recursive: true, force: true }))));

// The store keeps own views as line ranges and rebuilds their text when read: it must be exactly the text
// extraction indexed (the full-text rows are deleted by repeating it), in every language and for text files.
describe('views as line ranges', () => {
  for (const fixture of ['python', 'typescript', 'tsx', 'javascript', 'java', 'go', 'rust', 'mixed']) {
    it(`reads back every own view of the ${fixture} fixture as extraction produced it`, async () => {
      const repo = copyFixture(fixture);
      const db = await indexInPlace(repo);
      opened.push({ repo, db });
      let compared = 0;
      for (const { path: rel } of indexedFiles(db)) {
        const out = await extractFile(repo, rel, { maxFileBytes: 1 << 20 });
        if (out.status !== 'extracted') throw new Error(`${rel}: ${out.status}`);
        const { objects, views } = out.file;
        const seen = new Map<string, number>();
        const ids = objects.map((o) => {
          const key = `${o.qualifiedName}\0${o.kind}`;
          seen.set(key, (seen.get(key) ?? 0) + 1);
          return objectId(rel, o.qualifiedName, o.kind, seen.get(key)! - 1);
        });
        const stored = new Map(fiberObjects(db, rel).flatMap((o) => objectViews(db, o.id).filter((v) => v.path === rel)).map((v) => [`${v.objectId} ${v.kind} ${v.startLine}-${v.endLine}`, v.text]));
        for (const v of views) {
          expect(stored.get(`${ids[v.object]} ${v.kind} ${v.startLine}-${v.endLine}`), `${rel} ${v.kind} ${v.startLine}`).toBe(v.text);
          compared++;
        }
      }
      expect(compared).toBeGreaterThan(5);
    });
  }
});

describe('a line read alone', () => {
  it('is the line sourceLines splits, for every line of texts of \\n, \\r\\n and lone \\r endings', () => {
    const pieces = ['a', 'bc', ' x = f(y)  ', '', '\r', '\n', '\r\n', '\n\n', '\r\r\n', 'é'];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) % pieces.length;
    const texts = ['', '\n', '\r\n', 'a', 'a\n', 'a\r\n', 'a\r', '\n\na', ...Array.from({ length: 300 }, () => Array.from({ length: next() + next() }, () => pieces[next()]).join(''))];
    for (const text of texts) {
      const { lines } = sourceLines(text);
      const starts = lineStarts(text);
      expect(starts.length).toBe(lines.length);
      for (let n = 0; n <= lines.length + 1; n++) expect(lineAt(text, starts, n)).toBe(lines[n - 1] ?? '');
    }
  });
});
