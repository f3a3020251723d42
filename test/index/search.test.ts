import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bm25Match } from '../../indexer/retrieve/bm25.ts';
import { search } from '../../indexer/retrieve/search.ts';
import type { DB } from '../../indexer/store/open.ts';
import { indexInPlace, tempDir, writeTree } from '../helpers/repo.ts';

let repo: string;
let db: DB;
beforeAll(async () => {
  repo = tempDir();
  writeTree(repo, {
    'camel.ts': 'export function parseConfigFile(path: string) {\n  return path;\n}\n',
    'snake.py': 'def parse_config_file(path):\n    return path\n',
    'other.py': 'def render_page(title):\n    return title\n\n\ndef parse(text):\n    return text\n',
    'notes.md': '# Notes\nSee os.path and foo-bar, NOT that.\n',
  });
  db = await indexInPlace(repo);
});
afterAll(() => {
  db.close();
  fs.rmSync(repo, { recursive: true, force: true });
});

const objects = (q: string, k = 20) => [...new Set(search(db, q, k).map((h) => h.object))];

describe('search by identifier parts', () => {
  it('finds camelCase and snake_case identifiers by one of their parts', () => {
    expect(objects('parse')).toEqual(expect.arrayContaining(['parseConfigFile', 'parse_config_file', 'parse']));
    expect(objects('config')).toEqual(expect.arrayContaining(['parseConfigFile', 'parse_config_file']));
    expect(objects('config')).not.toContain('render_page');
  });

  it('matches whole identifiers, ranking the exact one first', () => {
    expect(objects('parseConfigFile')[0]).toBe('parseConfigFile');
    expect(objects('parse_config_file')[0]).toBe('parse_config_file');
    expect(objects('renderPage')[0]).toBe('render_page');
  });

  it('treats FTS syntax in queries as text', () => {
    // Every term quoted, OR-ed: FTS5 operators and punctuation in the query are never syntax.
    expect(bm25Match(db, 'NEAR os.path foo-bar "x" AND')).toBe('"near" OR "os" OR "path" OR "foo" OR "bar" OR "x"');
    expect(objects('os.path foo-bar NOT')).toContain('notes.md');
    expect(search(db, '!!! ---', 5)).toEqual([]);
  });

  it('returns the documented fields, best first', () => {
    const hits = search(db, 'parse config', 5);
    expect(Object.keys(hits[0]).slice(0, 7)).toEqual(['path', 'object', 'kind', 'view', 'startLine', 'endLine', 'score']);
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1].score).toBeGreaterThanOrEqual(hits[i].score);
  });
});
