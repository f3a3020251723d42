import { sourceLines } from '../extract/source.ts';
import { MAX_VIEW_CHARS, viewWholeLines } from '../extract/view-text.ts';
import type { ObjectKind, ViewKind } from '../types.ts';
import { prepared, type DB } from './open.ts';

/**
 * Which lines of a file the full-text index holds whole, in one row: lines in the text of one of the file's own
 * bodies or windows (a container's without its members' spans), uncut. Most files' bodies partition them. Some
 * lines are not held when a view's text was cut at its size cap (a 300 KB table of rules), when a file's views were
 * capped in number or text, or when it was indexed as one object without views (minified code): a literal search
 * looks for a quote in those lines whatever the index says (retrieve/literal-search.ts).
 */

interface OwnView {
  kind: ViewKind;
  startLine: number;
  endLine: number;
  object: number;
  objectKind: ObjectKind;
}

/** The file's bodies and windows, and its objects' spans by their parent's key (the members a container's body leaves out). */
function ownViews(db: DB, fileId: number): { views: OwnView[]; members: Map<number, [number, number][]> } {
  const views = prepared(
    db,
    `SELECT v.kind, v.start_line AS startLine, v.end_line AS endLine, o.key AS object, o.kind AS objectKind FROM views v
     JOIN objects o ON o.key = v.object WHERE v.file_id = ? AND v.derived = 0 AND v.kind IN ('body', 'window')`,
  ).all(fileId) as OwnView[];
  const members = new Map<number, [number, number][]>();
  if (views.length) {
    const spans = prepared(db, 'SELECT parent, start_line, end_line FROM objects WHERE file_id = ? AND parent IS NOT NULL', 'raw').all(fileId) as [number, number, number][];
    for (const [parent, s, e] of spans) (members.get(parent) ?? members.set(parent, []).get(parent)!).push([s, e]);
  }
  return { views, members };
}

/** Marks the lines the views hold whole, given the file's lines (only their lengths count: where the cap cuts). */
function heldLines(own: ReturnType<typeof ownViews>, lines: readonly string[], lineCount: number): Uint8Array {
  const held = new Uint8Array(lineCount + 1);
  for (const v of own.views) {
    for (const line of viewWholeLines(v, lines, { kind: v.objectKind }, own.members.get(v.object) ?? [])) if (line <= lineCount) held[line] = 1;
  }
  return held;
}

/**
 * Whether every line of a file is held, known without its text: a file shorter than the size cap has no view cut,
 * so its views' line ranges (less members' spans) covering every line, blank ones too, is enough. False: not known.
 * @example heldWithoutText(db, { id, size: 2_000, lineCount: 60 }) // true for most hand-written files
 */
export function heldWithoutText(db: DB, file: { id: number; size: number; lineCount: number }): boolean {
  // A view's text is at most the file's characters (at most its bytes) and a line break: never cut below the cap.
  if (file.size + 1 >= MAX_VIEW_CHARS) return false;
  const held = heldLines(ownViews(db, file.id), [], file.lineCount);
  for (let line = 1; line <= file.lineCount; line++) if (!held[line]) return false;
  return true;
}

/**
 * The lines of a file (with something on them) the full-text index does not hold whole.
 * @example linesNotHeld(db, fileId, text) // 2048 lines of SymPy's integrals/rubi/rules/sine.py, none for most files
 */
export function linesNotHeld(db: DB, fileId: number, text: string): string[] {
  const { lines } = sourceLines(text);
  const held = heldLines(ownViews(db, fileId), lines, lines.length);
  return lines.filter((l, i) => held[i + 1] !== 1 && l.trim() !== '');
}
