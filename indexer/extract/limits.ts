import type { ExtractedView, LimitReason, ViewKind } from '../types.ts';

/**
 * Per-file limits that keep a pathological file from costing what a repository costs: minified or generated code is
 * indexed as one file object (no parse, no windows), and any file's views are capped in number and in text.
 */

/** Files smaller than this are never taken for minified: a few kilobytes of anything are cheap. */
const MINIFIED_MIN_BYTES = 8192;
/**
 * Minified code (measured on npm bundles: react-dom, lodash, jQuery, d3, three, moment, bootstrap, vue, typescript):
 * lines of 300 to 500 characters and more on average, and 2-5% whitespace. Hand-written code averages 30-60
 * characters a line and 15-35% whitespace; the densest generated sources of SymPy and Django (expression tables,
 * rubi tests) average up to 820 characters with 9-14% whitespace, and stay code.
 */
const MINIFIED_MEAN_LINE = 200;
const MINIFIED_WHITESPACE = 0.06;
/** Lines this long on average are generated whatever their spacing (a one-line bundle, an inlined data table). */
const GENERATED_MEAN_LINE = 1000;
/**
 * Either way such a file names many things (npm bundles of 8 KB and more: 255 to thousands of distinct identifiers):
 * what costs is its many objects sharing long lines. Brackets or elements nested thousands deep make long lines of
 * a handful of names and few objects, and are parsed as code.
 */
const MINIFIED_MIN_NAMES = 100;

/** A file's views: at most this many... */
export const MAX_VIEWS_PER_FILE = 10_000;
/** ...holding at most this much text (characters) for a file of `size` bytes; hand-written code needs 1.2x on average, 2.5x at most. */
export function maxViewChars(size: number): number {
  return 4 * size + 65_536;
}

export interface FileLimit {
  reason: LimitReason;
  message: string;
}

/** Whether a code file is minified or generated, by its line lengths and whitespace density; null when it is not. */
export function minifiedReason(text: string): string | null {
  if (text.length < MINIFIED_MIN_BYTES) return null;
  let lines = 1;
  let space = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) lines++;
    if (c === 32 || c === 9 || c === 10 || c === 13) space++;
  }
  const mean = text.length / lines;
  const whitespace = space / text.length;
  if (mean < GENERATED_MEAN_LINE && (mean < MINIFIED_MEAN_LINE || whitespace >= MINIFIED_WHITESPACE)) return null;
  const names = new Set<string>();
  for (const m of text.matchAll(/[A-Za-z_$][\w$]*/g)) if (names.add(m[0]).size >= MINIFIED_MIN_NAMES) break;
  if (names.size >= MINIFIED_MIN_NAMES) {
    return `minified or generated (${Math.round(mean)} characters a line, ${(whitespace * 100).toFixed(1)}% whitespace): indexed as one file object`;
  }
  return null;
}

/** Which views go first when a file has too many: the small, telling ones. */
const PRIORITY: Record<ViewKind, number> = { signature: 0, docstring: 1, body: 2, window: 3, callsite: 4, import: 4, testref: 4 };

/** The views a file keeps under the caps (in their original order), and what was left out. */
export function capViews(views: ExtractedView[], size: number): { views: ExtractedView[]; limit: FileLimit | null } {
  const total = views.reduce((n, v) => n + v.text.length, 0);
  const maxChars = maxViewChars(size);
  if (views.length <= MAX_VIEWS_PER_FILE && total <= maxChars) return { views, limit: null };
  const order = views.map((v, i) => i).sort((a, b) => PRIORITY[views[a].kind] - PRIORITY[views[b].kind] || a - b);
  const keep = new Set<number>();
  let chars = 0;
  for (const i of order) {
    if (keep.size >= MAX_VIEWS_PER_FILE) break;
    if (chars + views[i].text.length > maxChars) continue;
    keep.add(i);
    chars += views[i].text.length;
  }
  return {
    views: views.filter((_, i) => keep.has(i)),
    limit: { reason: 'views', message: `kept ${keep.size} of ${views.length} views (${chars} of ${total} characters; caps ${MAX_VIEWS_PER_FILE} views, ${maxChars} characters)` },
  };
}
