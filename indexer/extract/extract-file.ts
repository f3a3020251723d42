import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { languageOf, loadLanguage } from '../languages/registry.ts';
import type { FileExtraction, Language, SkipReason } from '../types.ts';
import { extractCode } from './extract-code.ts';
import { extractText } from './extract-text.ts';
import { capViews, minifiedReason, type FileLimit } from './limits.ts';
import { moduleObject, sourceLines } from './source.ts';

/** Default limit above which a file is skipped as too large. */
export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024;
const BINARY_SNIFF = 8000;

export type FileOutcome =
  /** `restored`: taken from the extraction cache, not parsed. */
  | { status: 'extracted'; file: FileExtraction; restored?: boolean }
  | { status: 'unchanged'; path: string; hash: string; mtimeMs: number }
  | { status: 'skipped'; path: string; reason: SkipReason; message: string };

export interface ExtractOptions {
  maxFileBytes: number;
  /** The hash already in the index: an equal hash means nothing to re-parse. */
  knownHash?: string;
}

/**
 * A file's modification time as the index records it: -1 when it is within 2 s of when the file was read (a
 * change in the same tick could keep size and time), so that the next run reads the file rather than trust its
 * time, as git does with racy entries.
 */
function recordedMtime(stat: fs.Stats): number {
  return Date.now() - stat.mtimeMs < 2000 ? -1 : Math.trunc(stat.mtimeMs);
}

/** sha-1 of a file's bytes (or of a text's UTF-8): the key that decides re-parsing, and that caches vectors. */
export function contentHash(bytes: Uint8Array | string): string {
  return crypto.createHash('sha1').update(bytes).digest('hex');
}

/** A NUL byte in the first 8000 bytes marks a binary file, as git decides. */
export function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, BINARY_SNIFF);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}

/** The warning of a parse given up (its step budget spent, `parse-budget.ts`); never cached, since the wall-clock backstop can be what ended it. */
export const PARSE_ABANDONED = 'parse abandoned (its step budget spent): indexed as plain text';

/** A repository file read for indexing: its bytes, their hash and the modification time to record. */
export interface ReadFile {
  path: string;
  bytes: Uint8Array;
  hash: string;
  mtimeMs: number;
}

/** A file read, or why it is left out. */
export type ReadOutcome = ({ status: 'read' } & ReadFile) | Extract<FileOutcome, { status: 'skipped' }>;

/** Reads from `fd` into `buf` from `at` until `buf` is full or the file ends; returns where it stopped. */
function readInto(fd: number, buf: Buffer, at: number): number {
  while (at < buf.length) {
    const n = fs.readSync(fd, buf, at, buf.length - at, at);
    if (n === 0) break;
    at += n;
  }
  return at;
}

const { O_RDONLY, O_NOFOLLOW, O_NONBLOCK } = fs.constants;
const realRoots = new Map<string, string>();

/**
 * Where an open file really is, or null when that cannot be told: on Linux the kernel's name of the descriptor,
 * so a folder swapped for a link after the file was found is seen in what was actually opened.
 */
function openedPath(fd: number, abs: string): string | null {
  try {
    return fs.readlinkSync(`/proc/self/fd/${fd}`);
  } catch {
    try {
      return path.join(fs.realpathSync(path.dirname(abs)), path.basename(abs));
    } catch {
      return null;
    }
  }
}

/**
 * Reads and hashes one repository file, opening it once: its first bytes tell a binary file (images, archives)
 * before the rest is read. Every problem becomes a skip with the path and a reason; nothing throws.
 * Discovery found a regular file, but the tree may change before the read: the open never follows a link
 * (O_NOFOLLOW), never waits on a FIFO (O_NONBLOCK), and what it opened must be a regular file at exactly
 * `root/rel` (no folder on the way became a link), so nothing outside the repository is ever read.
 */
export function readRepoFile(root: string, rel: string, maxFileBytes: number): ReadOutcome {
  const tooLarge = (n: number) => ({ status: 'skipped', path: rel, reason: 'too-large', message: `${n} bytes > ${maxFileBytes}` }) as const;
  let fd: number | undefined;
  try {
    const abs = path.join(root, rel);
    fd = fs.openSync(abs, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) return { status: 'skipped', path: rel, reason: 'unreadable', message: 'not a regular file (a FIFO, device or folder took its place)' };
    let realRoot = realRoots.get(root);
    if (realRoot === undefined) realRoots.set(root, (realRoot = fs.realpathSync(root)));
    const opened = openedPath(fd, abs);
    if (opened !== path.join(realRoot, rel)) {
      if (opened?.endsWith(' (deleted)')) return { status: 'skipped', path: rel, reason: 'vanished', message: 'deleted while indexing' };
      const inside = opened !== null && opened.startsWith(realRoot + path.sep);
      return { status: 'skipped', path: rel, reason: inside ? 'symlink' : 'symlink-outside', message: `a folder on its path became a symbolic link while indexing: not followed (it led to ${opened ?? 'an unknown place'})` };
    }
    if (stat.size > maxFileBytes) return tooLarge(stat.size);
    const buf = Buffer.allocUnsafe(stat.size);
    let end = readInto(fd, buf.subarray(0, Math.min(buf.length, BINARY_SNIFF)), 0);
    if (looksBinary(buf.subarray(0, end))) return { status: 'skipped', path: rel, reason: 'binary', message: 'binary content' };
    // The size it had when opened, as readFileSync reads (a file written meanwhile is read again on its next event).
    if (end === Math.min(buf.length, BINARY_SNIFF)) end = readInto(fd, buf, end);
    const bytes = buf.subarray(0, end);
    return { status: 'read', path: rel, bytes, hash: contentHash(bytes), mtimeMs: recordedMtime(stat) };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { status: 'skipped', path: rel, reason: 'vanished', message: 'deleted while indexing' };
    if (code === 'ELOOP') return { status: 'skipped', path: rel, reason: 'symlink', message: 'became a symbolic link while indexing: not followed' };
    return { status: 'skipped', path: rel, reason: 'unreadable', message: (err as Error).message };
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** A file read and decoded: what extraction needs (the bytes stay with the thread that read and hashed them). */
export interface DecodedFile {
  path: string;
  hash: string;
  mtimeMs: number;
  size: number;
  text: string;
  /** What decoding had to say (invalid UTF-8). */
  warnings: string[];
}

/** Decodes a file read once, so neither the thread that asks the cache nor the parser decodes it again. */
export function decodeRead(read: ReadFile): DecodedFile {
  const { text, warnings } = decodeText(read.bytes);
  return { path: read.path, hash: read.hash, mtimeMs: read.mtimeMs, size: read.bytes.length, text, warnings };
}

/** A file's text as indexed: UTF-8 with undecodable bytes replaced (and said), the byte-order mark removed. */
export function decodeText(bytes: Uint8Array): { text: string; warnings: string[] } {
  const warnings: string[] = [];
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    text = new TextDecoder('utf-8').decode(bytes);
    warnings.push('invalid UTF-8: undecodable bytes replaced with U+FFFD');
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return { text, warnings };
}

/**
 * Reads, hashes and extracts one repository file. Every problem becomes an
 * outcome with the path and a reason; nothing here throws for bad input.
 */
export async function extractFile(root: string, rel: string, opts: ExtractOptions): Promise<FileOutcome> {
  const read = readRepoFile(root, rel, opts.maxFileBytes);
  if (read.status !== 'read') return read;
  if (opts.knownHash === read.hash) return { status: 'unchanged', path: rel, hash: read.hash, mtimeMs: read.mtimeMs };
  return extractRead(decodeRead(read));
}

/** Extracts a file already read and decoded (`decodeRead`): code or text extraction. */
export async function extractRead(file: DecodedFile): Promise<FileOutcome> {
  const { path: rel, hash, size, text } = file;
  const warnings = [...file.warnings];
  const src = sourceLines(text);
  let language = languageOf(rel, text);
  let code = null;
  let limit: FileLimit | null = null;
  const minified = language !== 'text' ? minifiedReason(text) : null;
  if (minified) {
    // One file object, no parse and no windows: its lines are too long to be worth views (a 1 MB one-line bundle
    // gave 80,190 views of megabytes each).
    language = 'text';
    limit = { reason: 'minified', message: minified };
    code = { objects: [moduleObject(rel, src, 'file')], views: [], references: [], parseErrors: 0 };
  } else if (language !== 'text') {
    code = extractCode(rel, src, await loadLanguage(language));
    if (!code) {
      warnings.push(PARSE_ABANDONED);
      language = 'text';
    }
  }
  const parts = code ?? { ...extractText(rel, src), references: [], parseErrors: 0 };
  if (parts.parseErrors > 0) warnings.push(`${parts.parseErrors} syntax error node(s): indexed what parses`);
  const capped = capViews(parts.views, size);
  limit ??= capped.limit;
  return {
    status: 'extracted',
    file: {
      path: rel,
      language,
      hash,
      size,
      mtimeMs: file.mtimeMs,
      lineCount: src.lines.length,
      text,
      parseErrors: parts.parseErrors,
      warnings,
      objects: parts.objects,
      views: capped.views,
      references: parts.references,
      limit,
    },
  };
}
