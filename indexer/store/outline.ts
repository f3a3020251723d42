/**
 * A file's outline (`file_outline`): its objects as a tree (classes holding
 * their methods, functions their nested definitions), each with kind,
 * signature and lines. The object standing for the whole file is the tree's
 * frame, not a node.
 */
import type { CodeObject } from '../types.ts';
import { fiberObjects } from './read.ts';
import type { DB } from './open.ts';

export type OutlineNode = Pick<CodeObject, 'id' | 'name' | 'qualifiedName' | 'kind' | 'signature' | 'startLine' | 'endLine'> & { children: OutlineNode[] };

/** The objects of one file (in source order) as a tree. Pure. */
export function outlineTree(objects: readonly CodeObject[]): OutlineNode[] {
  const nodes = new Map<string, OutlineNode>();
  for (const o of objects) {
    if (o.kind === 'module' || o.kind === 'file') continue;
    nodes.set(o.id, { id: o.id, name: o.name, qualifiedName: o.qualifiedName, kind: o.kind, signature: o.signature, startLine: o.startLine, endLine: o.endLine, children: [] });
  }
  const roots: OutlineNode[] = [];
  for (const o of objects) {
    const node = nodes.get(o.id);
    if (!node) continue;
    const parent = o.parentId ? nodes.get(o.parentId) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

/** The outline of an indexed file, or null when the path is not indexed. */
export function fileOutline(db: DB, path: string): { objects: OutlineNode[]; count: number } | null {
  const objects = fiberObjects(db, path);
  if (!objects.length) return null;
  const tree = outlineTree(objects);
  return { objects: tree, count: objects.filter((o) => o.kind !== 'module' && o.kind !== 'file').length };
}
