// The extraction cache restores exactly what parsing gives, under any path, and never outlives the code that made it.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeText, extractFile, readRepoFile } from '../../indexer/extract/extract-file.ts';
import { fromCached, toCached } from '../../indexer/extract/reuse.ts';
import { indexRepository } from '../../indexer/index-repository.ts';
import { cacheStats, extractionCache } from '../../indexer/store/extraction-cache.ts';
import { openStore } from '../../indexer/store/open.ts';
import { setState } from '../../indexer/store/write.ts';
import { listFiles } from '../helpers/random-edits.ts';
import { copyFixture, scratchDirs, writeTree } from '../helpers/repo.ts';

const dir = scratchDirs('allot-xcache-');

describe('extraction cache', () => {
  // Extraction depends on a file's path only through its module object: a content restored under another path
  // must equal that content extracted there. A language whose extraction read the path elsewhere fails here.
  for (const fixture of ['python', 'typescript', 'tsx', 'javascript', 'java', 'go', 'rust', 'mixed']) {
    it(`restores every file of the ${fixture} fixture under another path exactly as extracting it there`, async () => {
      const repo = copyFixture(fixture);
      try {
        let compared = 0;
        for (const rel of listFiles(repo)) {
          const out = await extractFile(repo, rel, { maxFileBytes: 1 << 20 });
          if (out.status !== 'extracted') continue;
          const moved = `elsewhere/deeper/${rel.replace(/\//g, '_')}`;
          writeTree(repo, { [moved]: fs.readFileSync(path.join(repo, rel)) });
          const there = await extractFile(repo, moved, { maxFileBytes: 1 << 20 });
          const read = readRepoFile(repo, moved, 1 << 20);
          if (there.status !== 'extracted' || read.status !== 'read') throw new Error(`${moved}: not extracted`);
          const { status: _, ...file } = read;
          // Through the cache's stored form, as a row would hold it.
          const cached = JSON.parse(JSON.stringify(toCached(out.file)));
          expect(fromCached(cached, file, decodeText(read.bytes).text), moved).toEqual(there.file);
          compared++;
        }
        expect(compared).toBeGreaterThan(2);
      } finally {
        fs.rmSync(repo, { recursive: true, force: true });
      }
    });
  }

  it('drops rows made by other extraction code, and takes a damaged row for a miss', async () => {
    const repo = copyFixture('mixed');
    try {
      const db = openStore(path.join(dir(), 'index.db'));
      await indexRepository({ repo, db, workers: 0 });
      const { entries } = cacheStats(db);
      expect(entries).toBeGreaterThan(3);
      // A damaged row: the file is parsed again, and the row rewritten.
      const victim = db.prepare('SELECT f.path FROM files f JOIN extractions x ON x.hash = f.hash LIMIT 1').pluck().get() as string;
      db.prepare("UPDATE extractions SET data = x'00ff' WHERE hash = (SELECT hash FROM files WHERE path = ?)").run(victim);
      fs.renameSync(path.join(repo, victim), path.join(repo, `${victim}.moved${path.extname(victim)}`));
      const s = await indexRepository({ repo, db, workers: 0 });
      expect(s).toMatchObject({ parsed: 1, restored: 0 });
      // Rows of another extractor (an older allot, other queries) go when the cache is opened.
      setState(db, 'extraction_cache_extractor', 'older');
      extractionCache(db);
      expect(cacheStats(db).entries).toBe(0);
      db.close();
    } finally {
      fs.rmSync(repo, { recursive: true, force: true });
    }
  });
});
