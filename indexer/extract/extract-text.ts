import type { ExtractedObject, ExtractedView } from '../types.ts';
import { moduleObject, type SourceLines } from './source.ts';
import { viewText } from './view-text.ts';

/** Lines per window view of a non-code text file. */
export const WINDOW_LINES = 40;

/**
 * A text file that allot does not parse (Markdown, YAML, JSON, other languages)
 * becomes one `file` object with line-window views, so it stays searchable.
 */
export function extractText(path: string, src: SourceLines): { objects: ExtractedObject[]; views: ExtractedView[] } {
  const file = moduleObject(path, src, 'file');
  const views: ExtractedView[] = [];
  for (let start = 1; start <= src.lines.length; start += WINDOW_LINES) {
    const end = Math.min(src.lines.length, start + WINDOW_LINES - 1);
    const text = viewText({ kind: 'window', startLine: start, endLine: end }, src.lines, file);
    if (text.trim()) views.push({ object: 0, kind: 'window', startLine: start, endLine: end, text });
  }
  return { objects: [file], views };
}
