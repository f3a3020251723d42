/**
 * allot's own files: the `.allot/` folder, the database with its -wal, -shm
 * and -journal, the daemon's log, pid file, `daemon.json` and socket. A
 * repository is untrusted input, and a committed `.allot/daemon.log` symlink
 * would otherwise make allot write wherever it points. So these files are
 * never followed through a symbolic link: `.allot/` must be a real folder
 * (mode 0700), each file a regular file (created 0600, opened with
 * O_NOFOLLOW, checked with lstat where SQLite opens it), and anything else is
 * refused with a one-line error that names the file.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The folder allot keeps its files in, inside a repository. */
export const OWN_DIR = '.allot';

/** allot's record that its writer closed the database cleanly (see clean-close.ts). */
export const CLEAN_CLOSE_SUFFIX = '-clean';

/** The folder of a database's tree snapshots (tree-snapshots.ts): its name and this suffix (`.allot/index.db-trees`). */
export const TREES_SUFFIX = '-trees';

/** Files kept beside a database: SQLite's, and allot's record of a clean close. */
export const DB_SIDE_FILES = ['-wal', '-shm', '-journal', CLEAN_CLOSE_SUFFIX] as const;

/** An own file that is not what allot created: a symlink, a folder, a device. Nothing was written. */
export class OwnFileError extends Error {
  override name = 'OwnFileError';
}

const { O_NOFOLLOW, O_CREAT, O_EXCL, O_WRONLY, O_APPEND, O_RDONLY, O_NONBLOCK } = fs.constants;

function refusal(file: string, what: string): OwnFileError {
  return new OwnFileError(`refusing to use ${file}: it is ${what} (allot never follows links or opens anything but its own regular files there); remove it and try again`);
}

function kindOf(st: fs.Stats): string {
  if (st.isSymbolicLink()) return 'a symbolic link';
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a named pipe';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return st.isFile() ? 'a regular file' : 'not a regular file';
}

function lstatOrNull(file: string): fs.Stats | null {
  try {
    return fs.lstatSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** Throws unless `file` is absent or a regular file (a socket when `socket` is set); never follows it. */
export function checkOwnFile(file: string, opts: { socket?: boolean } = {}): fs.Stats | null {
  const st = lstatOrNull(file);
  if (st && !(opts.socket ? st.isSocket() : st.isFile())) throw refusal(file, kindOf(st));
  return st;
}

/** A database and the files SQLite keeps beside it: absent or regular files, never links. */
export function checkDatabaseFiles(file: string): void {
  for (const suffix of ['', ...DB_SIDE_FILES]) checkOwnFile(file + suffix);
}

/** True for errors that mean "this file system or folder cannot be written to", not "this is wrong". */
export function isUnwritable(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException)?.code;
  return code === 'EACCES' || code === 'EPERM' || code === 'EROFS';
}

/**
 * Makes an existing own file or folder private to its owner: group and other bits are cleared, the owner's are
 * left as they are (a read-only index stays read-only). Read-only file systems and other owners' files are left alone.
 */
function makePrivate(file: string, st: fs.Stats): void {
  if ((st.mode & 0o077) === 0) return;
  try {
    fs.chmodSync(file, st.mode & 0o700);
  } catch (err) {
    if (!isUnwritable(err)) throw err;
  }
}

/**
 * Makes sure `dir` (a repository's `.allot/`) is a real folder, mode 0700, holding a `.gitignore` of `*` so
 * nothing in it is committed. `create: false` only checks (read-only users of an index).
 */
export function ensureOwnDir(dir: string, opts: { create?: boolean } = {}): void {
  let st = lstatOrNull(dir);
  if (!st) {
    if (opts.create === false) return;
    makeFolder(dir);
    st = fs.lstatSync(dir);
  }
  if (st.isSymbolicLink()) throw refusal(dir, 'a symbolic link');
  if (!st.isDirectory()) throw new OwnFileError(`refusing to use ${dir}: it is ${kindOf(st)}, where allot keeps its folder; remove it and try again`);
  if (opts.create === false) return;
  makePrivate(dir, st);
  writeGitignore(dir);
}

/** `.allot/.gitignore` = `*`, once; an existing one (or a link in its place) is left alone, never written through. */
function writeGitignore(dir: string): void {
  const file = path.join(dir, '.gitignore');
  if (lstatOrNull(file)) return;
  let fd: number;
  try {
    fd = fs.openSync(file, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW, 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST' || isUnwritable(err)) return;
    throw err;
  }
  try {
    fs.writeSync(fd, '# allot\'s own files (the index, the daemon\'s token and log): never committed\n*\n');
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The folder a database goes in: a repository's `.allot/` is made private (see ensureOwnDir); any other folder
 * (`--db` elsewhere) is created 0700 when missing and otherwise left as the user has it.
 */
export function ensureDatabaseDir(file: string, opts: { create: boolean }): void {
  const dir = path.dirname(file);
  if (path.basename(dir) === OWN_DIR) ensureOwnDir(dir, opts);
  else if (opts.create) makeFolder(dir);
}

/** `mkdir -p` (new folders 0700), saying which part of the path is a file when one is. */
function makeFolder(dir: string): void {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST' && code !== 'ENOTDIR') throw err;
    let file = dir;
    while (path.dirname(file) !== file && !fs.existsSync(file)) file = path.dirname(file);
    throw Object.assign(new Error(`${file} is a file, not a folder`), { code: 'ENOTDIR' });
  }
}

/** Opens an own file without following a link: `append` and `create` make it (0600) when missing; `read` only reads. */
export function openOwnFile(file: string, how: 'append' | 'create' | 'read'): number {
  const flags = how === 'read' ? O_RDONLY | O_NONBLOCK : how === 'append' ? O_WRONLY | O_APPEND | O_CREAT : O_WRONLY | O_CREAT | O_EXCL;
  let fd: number;
  try {
    fd = fs.openSync(file, flags | O_NOFOLLOW, 0o600);
  } catch (err) {
    // O_NOFOLLOW on a link fails with ELOOP: say what is there instead.
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') throw refusal(file, 'a symbolic link');
    throw err;
  }
  const st = fs.fstatSync(fd);
  if (!st.isFile()) {
    fs.closeSync(fd);
    throw refusal(file, kindOf(st));
  }
  if (how !== 'read' && (st.mode & 0o077) !== 0) {
    try {
      fs.fchmodSync(fd, st.mode & 0o700);
    } catch (err) {
      if (!isUnwritable(err)) throw err;
    }
  }
  return fd;
}

/** The text of a small own file (pid file, daemon.json), or null when absent or not a regular file. Never blocks on a pipe. */
export function readOwnFile(file: string, maxBytes = 64 * 1024): string | null {
  let fd: number;
  try {
    fd = openOwnFile(file, 'read');
  } catch {
    return null;
  }
  try {
    const buf = Buffer.alloc(Math.min(maxBytes, Math.max(0, fs.fstatSync(fd).size)));
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    return buf.toString('utf8', 0, n);
  } finally {
    fs.closeSync(fd);
  }
}

/** Writes an own file whole through a temporary file and a rename (a link in its place is replaced, never written through). */
export function writeOwnFileAtomic(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.rmSync(tmp, { force: true });
  const fd = openOwnFile(tmp, 'create');
  try {
    fs.writeSync(fd, text);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
}

/**
 * Creates an empty database file (0600) for SQLite to fill, so SQLite never creates one itself through a link;
 * an existing one is checked and made private. Returns its inode, which must still be the file SQLite opened.
 */
export function prepareDatabaseFile(file: string, opts: { readonly: boolean }): number | null {
  checkDatabaseFiles(file);
  if (opts.readonly) return checkOwnFile(file)?.ino ?? null;
  const fd = openOwnFile(file, 'append');
  try {
    return fs.fstatSync(fd).ino;
  } finally {
    fs.closeSync(fd);
  }
}

/** After SQLite opened (and maybe created -wal/-shm): still the same regular file, no links beside it, side files private. */
export function verifyDatabaseFiles(file: string, ino: number | null): void {
  const st = checkOwnFile(file);
  if (ino !== null && st && st.ino !== ino) throw new OwnFileError(`refusing to use ${file}: it was replaced while it was being opened`);
  for (const suffix of DB_SIDE_FILES) {
    const side = checkOwnFile(file + suffix);
    if (side) makePrivate(file + suffix, side);
  }
}

/**
 * Moves a database and the files SQLite keeps beside it aside as `<file>.bad-<time>[-wal|-shm|-journal]`
 * (renames: nothing is deleted, and a link is refused, never followed). Returns the new name of the database,
 * or null when there was none.
 */
export function moveDatabaseAside(file: string, now = new Date()): string | null {
  checkDatabaseFiles(file);
  if (!lstatOrNull(file)) return null;
  const aside = `${file}.bad-${now.toISOString().replace(/[:.]/g, '-')}`;
  for (const suffix of ['', ...DB_SIDE_FILES]) {
    if (lstatOrNull(file + suffix)) fs.renameSync(file + suffix, aside + suffix);
  }
  return aside;
}

/**
 * Deletes a database and the files SQLite keeps beside it (links refused, never followed): for an index allot did
 * not build in place (open.ts), whose contents nothing may read. It is derived data, rebuilt from the repository.
 */
export function discardDatabase(file: string): void {
  checkDatabaseFiles(file);
  for (const suffix of ['', ...DB_SIDE_FILES]) fs.rmSync(file + suffix, { force: true });
  // Its tree snapshots are copies of it (a link in the folder's place is removed, never followed).
  fs.rmSync(file + TREES_SUFFIX, { recursive: true, force: true });
}

/** A WAL with frames in it: the main file alone is not the database, and a writer may have stopped half-way. */
export function walHoldsFrames(file: string): boolean {
  return (checkOwnFile(`${file}-wal`)?.size ?? 0) > 0;
}
