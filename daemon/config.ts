/**
 * Where a repository's daemon keeps its files and what `daemon.json` says:
 * how to reach the daemon (loopback port or Unix socket) and the access token.
 * `daemon.json` is written atomically with mode 0600, so a client never reads
 * half a file and other users never read the token.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { z } from 'zod';

/** allot's version, from package.json (the daemon cannot import the CLI's copy). */
export const DAEMON_VERSION: string = createRequire(import.meta.url)('../package.json').version;

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

/** Writes `daemon.json` (mode 0600) through a temporary file and a rename. */
export function writeDaemonInfo(file: string, info: DaemonInfo): void {
  DaemonInfoSchema.parse(info);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.rmSync(tmp, { force: true });
  fs.writeFileSync(tmp, JSON.stringify(info, null, 2) + '\n', { mode: 0o600, flag: 'wx' });
  fs.renameSync(tmp, file);
}

/** `daemon.json` if present and well-formed; null otherwise (absent, partial, foreign). */
export function readDaemonInfo(file: string): DaemonInfo | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
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
