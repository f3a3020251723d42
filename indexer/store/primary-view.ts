import type { ViewKind } from '../types.ts';
import { prepared, type DB } from './open.ts';

export interface PrimaryView {
  id: number;
  kind: ViewKind;
  startLine: number;
  endLine: number;
}

/**
 * The view that stands for a whole object when a retriever finds the object rather than one of its views:
 * its signature, else its body, else any of its own (non-derived) views.
 * @example primaryViewReader(db)('a1b2c3d4e5f60718') // { id: 42, kind: 'signature', startLine: 10, endLine: 10 }
 */
export function primaryViewReader(db: DB): (objectId: string) => PrimaryView | undefined {
  const get = prepared(
    db,
    `SELECT v.id, v.kind, v.start_line AS startLine, v.end_line AS endLine FROM views v
     WHERE v.object = (SELECT key FROM objects WHERE id = ?) AND +v.derived = 0 ORDER BY CASE v.kind WHEN 'signature' THEN 0 WHEN 'body' THEN 1 ELSE 2 END, v.id LIMIT 1`,
  );
  return (id) => get.get(id) as PrimaryView | undefined;
}
