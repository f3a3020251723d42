import type { ExtractedObject, ObjectKind } from '../types.ts';

/** A file's text split into lines (terminators removed, `\r\n` and `\n` alike), with UTF-8 byte offsets. */
export interface SourceLines {
  text: string;
  lines: string[];
  /** Lines start..end (1-based, inclusive) joined with `\n`. */
  slice(start: number, end: number): string;
  /** UTF-8 byte offset of a (0-based row, UTF-16 column) position. */
  byteOffset(row: number, column: number): number;
}

export function sourceLines(text: string): SourceLines {
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  let lineBytes: number[] | undefined;
  return {
    text,
    lines,
    slice: (start, end) => lines.slice(start - 1, end).join('\n'),
    byteOffset(row, column) {
      if (!lineBytes) {
        lineBytes = [0];
        // Offsets in the original text: a CRLF terminator is two bytes.
        let offset = 0;
        let at = 0;
        for (const l of lines) {
          const len = Buffer.byteLength(l);
          at += l.length;
          const crlf = text.charCodeAt(at) === 13;
          at += crlf ? 2 : 1;
          offset += len + (crlf ? 2 : 1);
          lineBytes.push(offset);
        }
      }
      const line = lines[row] ?? '';
      return (lineBytes[row] ?? lineBytes.at(-1)!) + Buffer.byteLength(line.slice(0, column));
    },
  };
}

/**
 * The dotted module path of a file: `sympy/core/basic.py` -> `sympy.core.basic`,
 * `src/util/index.ts` -> `src.util`; package markers (`__init__`, `index`, `mod`) name their folder.
 */
export function modulePath(path: string): string {
  const parts = path.replace(/\.[^./]+$/, '').split('/');
  if (parts.length > 1 && ['__init__', 'index', 'mod'].includes(parts.at(-1)!)) parts.pop();
  return parts.join('.');
}

/** The object standing for a whole file: a `module` for code, a `file` for other text. */
export function moduleObject(path: string, src: SourceLines, kind: Extract<ObjectKind, 'module' | 'file'>): ExtractedObject {
  const qualifiedName = kind === 'module' ? modulePath(path) : path;
  return {
    parent: null,
    kind,
    name: kind === 'module' ? qualifiedName.split('.').at(-1)! : path.split('/').at(-1)!,
    qualifiedName,
    startLine: 1,
    endLine: Math.max(1, src.lines.length),
    startByte: 0,
    endByte: Buffer.byteLength(src.text),
    signature: '',
    docstring: null,
  };
}

/** Where each line of `text` starts, as `sourceLines` splits it (a final terminator ends a line, starts none). */
export function lineStarts(text: string): Uint32Array {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  if (starts.length > 1 && starts.at(-1) === text.length) starts.pop();
  return Uint32Array.from(starts);
}

/** Line `n` (1-based) of `text` as `sourceLines` gives it (cut at `\n`, one `\r` before it dropped); '' past the last. */
export function lineAt(text: string, starts: Uint32Array, n: number): string {
  if (n < 1 || n > starts.length) return '';
  const start = starts[n - 1];
  const nl = text.indexOf('\n', start);
  let end = nl === -1 ? text.length : nl;
  if (nl !== -1 && end > start && text.charCodeAt(end - 1) === 13) end--;
  return text.slice(start, end);
}
