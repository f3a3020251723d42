/**
 * Where a repository's daemon keeps its files and what `daemon.json` says:
 * how to reach the daemon (loopback port or Unix socket) and the access token.
 * `daemon.json` is written atomically with mode 0600, so a client never reads
 * half a file and other users never read the token.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { ensureOwnDir, readOwnFile, writeOwnFileAtomic } from '../indexer/store/own-files.ts';

/** allot's version, from package.json. */
export { VERSION as DAEMON_VERSION } from './package.ts';

/** Debounce of file changes: quiet time before a batch is indexed, and the longest a change may wait. */
export const DEFAULT_QUIET_MS = 75;
export const DEFAULT_MAX_WAIT_MS = 2_000;
/** Largest request body accepted (queries are short; this only stops abuse). */
export const MAX_BODY_BYTES = 256 * 1024;

export interface DaemonPaths {
  dir: string;
  info: string;
  pid: string;
  log: string;
}

/** The daemon's files for a repository: `<repo>/.allot/daemon.{json,pid,log}`. */
export function daemonPaths(repo: string): DaemonPaths {
  const dir = path.join(repo, '.allot');
  return { dir, info: path.join(dir, 'daemon.json'), pid: path.join(dir, 'daemon.pid'), log: path.join(dir, 'daemon.log') };
}

export const DaemonInfoSchema = z.object({
  version: z.string(),
  pid: z.number().int().positive(),
  repo: z.string(),
  db: z.string(),
  /** Loopback TCP: host is always 127.0.0.1. */
  host: z.literal('127.0.0.1').nullable(),
  port: z.number().int().min(1).max(65535).nullable(),
  /** Unix socket path, when the daemon listens on one instead of TCP. */
  socket: z.string().nullable(),
  token: z.string().min(32),
  startedAt: z.string(),
}).refine((i) => (i.port !== null && i.host !== null) !== (i.socket !== null), 'exactly one of port or socket');

/** `daemon.json`: how to reach a running daemon. */
export type DaemonInfo = z.infer<typeof DaemonInfoSchema>;

/** A fresh bearer token: 256 random bits. */
export function newToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

/** A token a user chose (`ALLOT_TOKEN`): long and plain enough to be a bearer token; null when unset. */
export function chosenToken(value: string | undefined): string | null {
  if (value === undefined || value === '') return null;
  if (!/^[A-Za-z0-9._~+/=-]{32,512}$/.test(value)) throw new Error('ALLOT_TOKEN must be 32 to 512 characters of letters, digits and ._~+/=- (e.g. `openssl rand -base64 32`)');
  return value;
}

/** Writes `daemon.json` (mode 0600) through a temporary file and a rename, in a private `.allot/`, never through a link. */
export function writeDaemonInfo(file: string, info: DaemonInfo): void {
  DaemonInfoSchema.parse(info);
  ensureOwnDir(path.dirname(file));
  writeOwnFileAtomic(file, JSON.stringify(info, null, 2) + '\n');
}

/** `daemon.json` if present and well-formed; null otherwise (absent, partial, foreign, a link). */
export function readDaemonInfo(file: string): DaemonInfo | null {
  const text = readOwnFile(file);
  if (text === null) return null;
  try {
    const parsed = DaemonInfoSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The address a daemon listens on, for people: `127.0.0.1:4123` or `unix:/path`. */
export function describeAddress(info: Pick<DaemonInfo, 'host' | 'port' | 'socket'>): string {
  return info.socket ? `unix:${info.socket}` : `${info.host}:${info.port}`;
}

/**
 * One log line as written: control characters (newlines included) escaped, so a file or folder name cannot
 * forge or split lines of the daemon's log.
 * @example escapeControl('a\nb') // 'a\\nb'
 */
export function escapeControl(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => {
    if (c === '\n') return '\\n';
    if (c === '\r') return '\\r';
    if (c === '\t') return '\\t';
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

/** A daemon log line: ISO time, then the escaped message. */
export function logLine(message: string, now = new Date()): string {
  return `${now.toISOString()} ${escapeControl(message)}\n`;
}
