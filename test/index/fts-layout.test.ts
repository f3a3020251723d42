import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FTS_LAYOUT, ftsColumns } from '../../indexer/store/fts.ts';

// Rows are deleted by repeating the columns they were inserted with, so a change to what ftsColumns produces must
// come with a new FTS_LAYOUT (and a migration): the store then rebuilds rows built by the old code. This digest of
// the columns of sample views fails whenever the columns change, as a reminder.
const SAMPLES: [Parameters<typeof ftsColumns>[0], Parameters<typeof ftsColumns>[1]][] = [
  [{ kind: 'signature', text: 'def parse_config_file(path: str) -> Config:' }, { name: 'parse_config_file', qualifiedName: 'config.parse_config_file', kind: 'function', path: 'pkg/config.py' }],
  [{ kind: 'body', text: 'class HTTPServer:\n    def serveForever(self): ...' }, { name: 'HTTPServer', qualifiedName: 'HTTPServer', kind: 'class', path: 'srv.py' }],
  [{ kind: 'window', text: '# Notes\nSee os.path and foo-bar.' }, { name: 'notes.md', qualifiedName: 'docs/notes.md', kind: 'file', path: 'docs/notes.md' }],
  [{ kind: 'callsite', text: 'cart.total()' }, { name: 'total', qualifiedName: 'shop.cart.Cart.total', kind: 'method', path: 'shop/cart.py' }],
];

describe('full-text layout', () => {
  it('names the layout its columns were built with', () => {
    const digest = crypto.createHash('sha1').update(JSON.stringify(SAMPLES.map(([v, o]) => ftsColumns(v, o)))).digest('hex');
    expect({ layout: FTS_LAYOUT, digest }).toEqual({ layout: '1', digest: 'da8ab54b5f8c87213e429573330a6df40a5e8cbb' });
  });
});
