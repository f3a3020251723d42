/**
 * Containment: an allocated object whose lines lie inside another allocated
 * object's takes no block of its own. The outermost one renders for both, whole
 * or as an outline around the nested ones, so no repository line is shown twice.
 */
import { normalizePath } from '../indexer/paths.ts';
import type { Selected } from './companion.ts';
import type { ObjectInfo } from './types.ts';

/** Allocated positions that render as one block: the outermost object and those nested in it, best first. */
export interface Group {
  /** The outermost object's position (its role and rank stand for the group's). */
  root: Selected;
  /** Nested positions in the order they were allocated. */
  nested: Selected[];
}

type Span = Pick<ObjectInfo, 'path' | 'startLine' | 'endLine'>;

/** `inner`'s lines lie within `outer`'s (same file). */
export function within(inner: Span, outer: Span): boolean {
  return normalizePath(inner.path) === normalizePath(outer.path) && outer.startLine <= inner.startLine && inner.endLine <= outer.endLine;
}

/** Two spans of one file share a line. */
export function overlapping(a: Span, b: Span): boolean {
  return normalizePath(a.path) === normalizePath(b.path) && a.startLine <= b.endLine && b.startLine <= a.endLine;
}

// Containment rule: positions in allocation order join the group of an allocated object they nest in (or that
// nests in them, which then becomes the group's root, keeping the group's place and best role).
// An object that overlaps an allocated one without nesting (never two objects of one parse) is left out.
export function groupNested(selected: readonly Selected[], infos: ReadonlyMap<string, Span>): Group[] {
  const groups: Group[] = [];
  for (const s of selected) {
    const span = infos.get(s.position.objectId)!;
    const g = groups.find((x) => {
      const root = infos.get(x.root.position.objectId)!;
      return within(span, root) || within(root, span);
    });
    if (!g && groups.some((x) => overlapping(span, infos.get(x.root.position.objectId)!))) continue;
    if (!g) {
      groups.push({ root: s, nested: [] });
      continue;
    }
    const root = infos.get(g.root.position.objectId)!;
    if (within(span, root)) g.nested.push(s);
    else {
      // The new object contains the group: it becomes the root, in the group's place and with its role.
      g.nested.unshift({ ...g.root });
      g.root = { position: s.position, role: g.root.role };
      // Other groups it also contains merge into this one.
      for (let k = groups.length - 1; k >= 0; k--) {
        const other = groups[k];
        if (other === g || !within(infos.get(other.root.position.objectId)!, span)) continue;
        g.nested.push(other.root, ...other.nested);
        groups.splice(k, 1);
      }
    }
  }
  return groups;
}
