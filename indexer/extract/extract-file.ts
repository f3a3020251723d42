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

/** Whether a file's first bytes mark it binary (false when it cannot be read: extraction then says why). */
export function fileLooksBinary(abs: string): boolean {
  let fd: number | undefined;
  try {
    fd = fs.openSync(abs, 'r');
    const head = Buffer.alloc(BINARY_SNIFF);
    return looksBinary(head.subarray(0, fs.readSync(fd, head, 0, BINARY_SNIFF, 0)));
  } catch {
    return false;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** The warning of a parse given up (a timeout): the outcome depends on the machine's speed, so it is never cached. */
export const PARSE_ABANDONED = 'parse abandoned after a timeout: indexed as plain text';

/** A repository file read for indexing: its bytes, their hash and the modification time to record. */
export interface ReadFile {
  path: string;
  bytes: Uint8Array;
  hash: string;
  mtimeMs: number;
}

/** A file read, or why it is left out. */
export type ReadOutcome = ({ status: 'read' } & ReadFile) | Extract<FileOutcome, { status: 'skipped' }>;

/** Reads and hashes one repository file. Every problem becomes a skip with the path and a reason; nothing throws. */
export function readRepoFile(root: string, rel: string, maxFileBytes: number): ReadOutcome {
  const abs = path.join(root, rel);
  let bytes: Buffer;
  let stat: fs.Stats;
  try {
    stat = fs.statSync(abs);
    if (stat.size > maxFileBytes) return { status: 'skipped', path: rel, reason: 'too-large', message: `${stat.size} bytes > ${maxFileBytes}` };
    bytes = fs.readFileSync(abs);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { status: 'skipped', path: rel, reason: 'vanished', message: 'deleted while indexing' };
    return { status: 'skipped', path: rel, reason: 'unreadable', message: (err as Error).message };
  }
  if (bytes.length > maxFileBytes) return { status: 'skipped', path: rel, reason: 'too-large', message: `${bytes.length} bytes > ${maxFileBytes}` };
  if (looksBinary(bytes)) return { status: 'skipped', path: rel, reason: 'binary', message: 'binary content' };
  return { status: 'read', path: rel, bytes, hash: contentHash(bytes), mtimeMs: recordedMtime(stat) };
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
  return extractRead(read);
}

/** Extracts a file already read (`readRepoFile`): decode, then code or text extraction. */
export async function extractRead(read: ReadFile): Promise<FileOutcome> {
  const { path: rel, bytes, hash } = read;
  const { text, warnings } = decodeText(bytes);
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
  const capped = capViews(parts.views, bytes.length);
  limit ??= capped.limit;
  return {
    status: 'extracted',
    file: {
      path: rel,
      language,
      hash,
      size: bytes.length,
      mtimeMs: read.mtimeMs,
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
