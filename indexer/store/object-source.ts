import type { CodeObject } from '../types.ts';
import { prepared, type DB } from './open.ts';
import { fiberObjects, getObjects } from './read.ts';

/** An object with its verbatim source lines, as the allocator reads it. */
export interface ObjectWithText extends CodeObject {
  /** Lines startLine..endLine of the indexed text, joined with `\n`. */
  text: string;
}

/**
 * The store's side of the allocator's `ObjectSource`: objects with their
 * verbatim source from the indexed file texts (memoised per file for one query).
 */
export function storeObjectSource(db: DB): {
  objects(ids: string[]): Map<string, ObjectWithText>;
  infos(ids: string[]): Map<string, CodeObject>;
  fiberObjects(path: string): CodeObject[];
} {
  const textOf = prepared(db, 'SELECT t.text FROM file_texts t JOIN files f ON f.id = t.file_id WHERE f.path = ?', 'pluck');
  const lines = new Map<string, string[]>();
  const linesOf = (path: string) => {
    let l = lines.get(path);
    if (!l) {
      l = ((textOf.get(path) as string | undefined) ?? '').split(/\r?\n/);
      lines.set(path, l);
    }
    return l;
  };
  return {
    objects(ids) {
      const out = new Map<string, ObjectWithText>();
      for (const [id, o] of getObjects(db, ids)) out.set(id, { ...o, text: linesOf(o.path).slice(o.startLine - 1, o.endLine).join('\n') });
      return out;
    },
    infos: (ids) => getObjects(db, ids),
    fiberObjects: (path) => fiberObjects(db, path),
  };
}
