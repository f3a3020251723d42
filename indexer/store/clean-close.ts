/**
 * The record of a clean close, `<db>-clean`: what lets a writable open skip `PRAGMA quick_check`, which reads the
 * whole database (O(size): most of a no-change `allot index`). When allot's writer closes an index with its WAL
 * checkpointed away, the record keeps the database file's identity: size, mtime and ctime in nanoseconds, inode,
 * device and the 100-byte SQLite header (its change counter, page count and schema cookie). A writable open
 * trusts the file without the check only when it still has exactly that identity and no WAL holds frames; every
 * writable open removes the record before it writes, so a writer killed mid-write never leaves one behind.
 *
 * What the skip trusts: that nothing but allot's own SQLite connection changed the file while it was open, and
 * that whatever changed it since went through the file system. Writing into the file moves its ctime, which no
 * user can set back (utimes moves it too), so damage written mid-file, even with the old mtime restored, is
 * caught; so is a copy put in its place (inode), a truncation or an append (size) and an unfinished write (WAL
 * frames). Not caught: the disk's medium rotting under an unchanged inode, or damage written while allot's
 * writer held the file open; SQLite reports those pages as corrupt when it reads them, and `allot index --check`
 * checks everything.
 */
import fs from 'node:fs';
import { CLEAN_CLOSE_SUFFIX as CLEAN_SUFFIX, openOwnFile, readOwnFile, walHoldsFrames, writeOwnFileAtomic } from './own-files.ts';

/** What the record holds; a record matches only when it has exactly these fields, equal to the file's now. */
interface Identity {
  version: 1;
  size: string;
  mtimeNs: string;
  ctimeNs: string;
  ino: string;
  dev: string;
  /** The 100-byte SQLite header in hex: change counter, page count, schema cookie. */
  header: string;
}

/** The database file's identity now, read through one descriptor (never following a link); null when it has no full header. */
export function fileIdentity(file: string): Identity | null {
  const fd = openOwnFile(file, 'read');
  try {
    const st = fs.fstatSync(fd, { bigint: true });
    const header = Buffer.alloc(100);
    if (fs.readSync(fd, header, 0, 100, 0) < 100) return null;
    return {
      version: 1,
      size: String(st.size),
      mtimeNs: String(st.mtimeNs),
      ctimeNs: String(st.ctimeNs),
      ino: String(st.ino),
      dev: String(st.dev),
      header: header.toString('hex'),
    };
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * At a writable open, before anything is written: whether the file is exactly as allot's writer last closed it
 * (and so was checked then), with the record removed either way. A record that does not parse counts as none.
 */
export function takeCleanClose(file: string): boolean {
  const mark = file + CLEAN_SUFFIX;
  const text = readOwnFile(mark);
  if (text === null) return false;
  fs.rmSync(mark, { force: true });
  if (walHoldsFrames(file)) return false;
  const now = fileIdentity(file);
  return now !== null && sameIdentity(text, now);
}

/**
 * The record's text against the identity now, field by field (a record that does not parse matches nothing).
 * Checked by hand rather than with a zod schema: loading zod costs 64 ms of CPU, a fifth of a no-change run,
 * and an exact comparison with a value built here validates it as fully.
 */
function sameIdentity(text: string, now: Identity): boolean {
  let recorded: unknown;
  try {
    recorded = JSON.parse(text);
  } catch {
    return false;
  }
  if (typeof recorded !== 'object' || recorded === null || Array.isArray(recorded)) return false;
  const fields = Object.keys(now) as (keyof Identity)[];
  return Object.keys(recorded).length === fields.length && fields.every((k) => (recorded as Record<string, unknown>)[k] === now[k]);
}

/**
 * After allot's writer closed the database: records its identity when the WAL is gone or empty. Best effort: a
 * record that cannot be written (a full disk, say) only means the next open runs the check.
 */
export function recordCleanClose(file: string): void {
  try {
    if (walHoldsFrames(file)) return;
    const identity = fileIdentity(file);
    if (identity) writeOwnFileAtomic(file + CLEAN_SUFFIX, JSON.stringify(identity) + '\n');
  } catch {
    // no record: the next writable open checks the whole file, as without one
  }
}
