import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderInput, sourceLines } from '../../allocator/render.ts';
import { indexRepository } from '../../indexer/index-repository.ts';
import { storeObjectSource } from '../../indexer/store/object-source.ts';
import { openStore } from '../../indexer/store/open.ts';
import { scratchDirs, writeTree } from '../helpers/repo.ts';

const scratch = scratchDirs();

describe('object sources hand out lines that render as the text does', () => {
  it('lines only where splitting the text gives them back: not for a line ending in a lone CR', async () => {
    const repo = scratch();
    writeTree(repo, {
      'plain.py': 'class Box:\n    """A box."""\n\n    def size(self):\n        return 1\n',
      'crlf.py': 'def area(w, h):\r\n    return w * h\r\n',
      // `def width(b):\r\r\n`: the line keeps one CR, which the joined text would lose when split again.
      'stray.py': 'def width(b):\r\r\n    return b.w\n\n\ndef height(b):\n    return b.h\n',
    });
    const file = path.join(repo, '.allot', 'index.db');
    const db = openStore(file);
    await indexRepository({ repo, db, workers: 0 });
    const ids = db.prepare('SELECT id FROM objects ORDER BY id').pluck().all() as string[];
    const objects = [...storeObjectSource(db).objects(ids).values()];
    expect(objects.length).toBeGreaterThan(5);
    let withLines = 0;
    for (const o of objects) {
      if (o.lines) {
        withLines++;
        expect(o.lines).toEqual(sourceLines(o.text, o.endLine - o.startLine + 1));
      }
      // Rendering from the lines is rendering from the text.
      expect(renderInput(o)).toEqual(renderInput({ ...o, lines: undefined }));
    }
    expect(withLines).toBeGreaterThan(0);
    const width = objects.find((o) => o.name === 'width')!;
    expect(width.lines).toBeUndefined();
    expect(objects.find((o) => o.name === 'height')!.lines).toEqual(['def height(b):', '    return b.h']);
    db.close();
  });
});
