import type { ObjectKind, ViewKind } from '../types.ts';

/**
 * What a view's text is, given its file's lines: the one rule that extraction (to index a view) and the store (to
 * read it back, or to delete its full-text row) share, so the store keeps views as line ranges and never copies text.
 */

/** A view's text is cut at this many characters (pathological lines must not cost megabytes per view). */
export const MAX_VIEW_CHARS = 60_000;
/** A derived view (call site, import, test reference) shows its line, trimmed, cut at this many characters. */
export const MAX_USE_CHARS = 240;
/** Kinds whose own text excludes their members. */
export const CONTAINERS: ReadonlySet<ObjectKind> = new Set<ObjectKind>(['class', 'interface', 'struct', 'enum', 'trait', 'module', 'namespace']);

/**
 * The lines (1-based) of [start, end] not covered by any child span, in order, stopping after the one that reaches
 * the size cap: the lines an own text is made of (`ownText`), the last of them possibly cut.
 */
export function ownLines(lines: readonly string[], start: number, end: number, children: readonly (readonly [number, number])[]): number[] {
  const out: number[] = [];
  let size = 0;
  const take = (line: number) => {
    out.push(line);
    size += (lines[line - 1] ?? '').length + 1;
    return size < MAX_VIEW_CHARS;
  };
  const sorted = [...children].sort((a, b) => a[0] - b[0]);
  let line = start;
  for (const [s, e] of sorted) {
    for (; line < s && line <= end; line++) if (!take(line)) return out;
    line = Math.max(line, e + 1);
  }
  for (; line <= end; line++) if (!take(line)) break;
  return out;
}

/** The lines of [start, end] (1-based) not covered by any child span, stopping once the size cap is reached. */
export function ownText(lines: readonly string[], start: number, end: number, children: readonly (readonly [number, number])[]): string {
  return ownLines(lines, start, end, children).map((l) => lines[l - 1] ?? '').join('\n').slice(0, MAX_VIEW_CHARS);
}

/**
 * The lines an own text holds whole, as written in the file: every line of `ownLines` but one the size cap cuts.
 * A literal on any other line of the file is not in the full-text index (see retrieve/literal-search.ts).
 */
export function wholeLines(lines: readonly string[], start: number, end: number, children: readonly (readonly [number, number])[]): number[] {
  let size = 0;
  // Joined with '\n', line k ends at (sum of lengths up to k) + (k - 1): whole while that is within the cap.
  return ownLines(lines, start, end, children).filter((l) => (size += (lines[l - 1] ?? '').length + 1) - 1 <= MAX_VIEW_CHARS);
}

/** The object a view belongs to, as far as its text depends on it. */
export interface ViewTextObject {
  kind: ObjectKind;
  startLine: number;
  endLine: number;
  signature: string;
  docstring: string | null;
}

/**
 * The text of a view: a signature or docstring is the object's; a body is the object's own lines (a container's
 * without its members' spans, `children`); a window is its lines; a derived view is its one line, trimmed.
 */
export function viewText(
  view: { kind: ViewKind; startLine: number; endLine: number },
  lines: readonly string[],
  object: ViewTextObject,
  children: readonly (readonly [number, number])[] = [],
): string {
  switch (view.kind) {
    case 'signature':
      return object.signature;
    case 'docstring':
      return (object.docstring ?? '').slice(0, MAX_VIEW_CHARS);
    case 'body':
      return ownText(lines, view.startLine, view.endLine, CONTAINERS.has(object.kind) ? children : []);
    case 'window':
      return ownText(lines, view.startLine, view.endLine, []);
    default:
      return (lines[view.startLine - 1] ?? '').trim().slice(0, MAX_USE_CHARS);
  }
}

/**
 * The lines of its file a view's text holds whole: a body's own lines (a container's without its members' spans), a
 * window's lines, as long as the size cap leaves them whole. A signature, a docstring or a derived view: none counted.
 */
export function viewWholeLines(
  view: { kind: ViewKind; startLine: number; endLine: number },
  lines: readonly string[],
  object: { kind: ObjectKind },
  children: readonly (readonly [number, number])[] = [],
): number[] {
  if (view.kind === 'body') return wholeLines(lines, view.startLine, view.endLine, CONTAINERS.has(object.kind) ? children : []);
  if (view.kind === 'window') return wholeLines(lines, view.startLine, view.endLine, []);
  return [];
}
