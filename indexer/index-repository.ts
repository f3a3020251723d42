import { discoverFiles } from './discover.ts';
import { decodeRead, DEFAULT_MAX_FILE_BYTES, readRepoFile, type FileOutcome } from './extract/extract-file.ts';
import { languageOf } from './languages/registry.ts';
import { fromCached } from './extract/reuse.ts';
import { createParsePool, LARGE_FILE_BYTES } from './parse-pool.ts';
import { compactStore } from './store/compact.ts';
import { cacheMaxBytes, cacheStats, extractionCache, setCacheMaxBytes } from './store/extraction-cache.ts';
import { ftsStatistics, rebuildFts } from './store/fts.ts';
import { closeStore, openStore, type DB } from './store/open.ts';
import { storeCounts } from './store/read.ts';
import { FULL_PASS_SHARE, resolveStore, type ResolutionBounds, type ResolutionStats } from './store/resolution.ts';
import { findSnapshot, pruneSnapshots, restoreSnapshot, snapshotBytes, snapshotEntries, takeSnapshot, treeKey, type DiskFile, type SnapshotEntry } from './store/tree-snapshots.ts';
import { bumpGeneration, fileWriter, getState, setState } from './store/write.ts';
import { markFullBuild } from './store/full-build.ts';
import type { IndexSummary, Language, SkipReason } from './types.ts';

export interface IndexProgress {
  phase: 'discover' | 'parse' | 'resolve' | 'done';
  done: number;
  total: number;
  path?: string;
}

export interface IndexOptions {
  repo: string;
  /** An open store, or the database file to open. */
  db: DB | string;
  /** Parser worker threads; 0 parses in-process. */
  workers?: number;
  maxFileBytes?: number;
  onProgress?: (p: IndexProgress) => void;
  /** Only these repo-relative paths (a watcher batch); everything else is left as indexed. */
  paths?: string[];
  /** Stop early when this returns true (Ctrl-C); what was written stays consistent. */
  shouldStop?: () => boolean;
  /** Sets the extraction cache's bound (bytes; 0 turns it off), kept in the index for later runs. */
  cacheMaxBytes?: number;
  /** What the resolution pass holds at most (defaults: `REFERENCE_BATCH`, `TEXT_CHARS`); the index is the same whatever they are. */
  resolution?: ResolutionBounds;
}

/** Outcomes written per transaction: small enough to lose little on a kill, large enough to be fast. */
const BATCH = 64;

/**
 * Brings the index of a repository in line with its files: discovers them,
 * reads files whose size or time changed, restores those whose content was
 * extracted before (the extraction cache) and parses the others (on worker
 * threads), removes rows of files that are gone, then resolves the references
 * the changes reach. Every write is in a transaction that also records what
 * resolution must look at, so an interrupted run leaves a consistent database
 * and the next run finishes the job.
 */
export async function indexRepository(opts: IndexOptions): Promise<IndexSummary> {
  const started = performance.now();
  const maxFileBytes = opts.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const db = typeof opts.db === 'string' ? openStore(opts.db) : opts.db;
  const progress = opts.onProgress ?? (() => {});
  const skipped: Record<string, number> = {};
  const problems: IndexSummary['problems'] = [];
  const skippedPaths: IndexSummary['skippedPaths'] = [];
  const limited: Record<string, number> = {};
  const limitedPaths: IndexSummary['limitedPaths'] = [];
  const skip = (reason: SkipReason) => (skipped[reason] = (skipped[reason] ?? 0) + 1);
  let finished = false;

  try {
    const phases = { discover: 0, parse: 0, write: 0, resolve: 0, compact: 0, trees: 0 };
    let mark = performance.now();
    progress({ phase: 'discover', done: 0, total: 0 });
    const discovery = discoverFiles(opts.repo, { maxFileBytes });
    const onDisk = new Set(discovery.files);
    for (const s of discovery.skipped) {
      skip(s.reason);
      if (s.reason !== 'ignored') skippedPaths.push(s);
    }
    const readIndexed = () =>
      new Map(
        (db.prepare('SELECT path, hash, size, mtime_ms AS mtimeMs FROM files').all() as { path: string; hash: string; size: number; mtimeMs: number }[]).map(
          (r) => [r.path, r],
        ),
      );
    let indexed = readIndexed();
    // A file whose size and modification time are those indexed is not read again (a recorded time of -1, racy, is never trusted).
    const statUnchanged = (p: string) => {
      const r = indexed.get(p);
      return r !== undefined && r.mtimeMs >= 0 && r.mtimeMs === discovery.mtimes.get(p) && r.size === discovery.sizes.get(p);
    };
    /** Files read and found unchanged whose recorded time differs: recorded at the next write. */
    const retimed: [number, string][] = [];
    const scope = opts.paths ? new Set(opts.paths) : null;
    const inScope = (p: string) => !scope || scope.has(p);
    if (opts.cacheMaxBytes !== undefined) setCacheMaxBytes(db, opts.cacheMaxBytes);
    // A far switch of the whole tree (as many files changed as make resolution run whole): the tree left is kept,
    // and a tree kept before is copied back whole instead of written again.
    // Snapshots take what the extraction cache leaves of the bound.
    const snapshotRoom = () => cacheMaxBytes(db) - cacheStats(db).bytes;
    let trees: IndexSummary['trees'];
    let removedBySnapshot = 0;
    let restoredBySnapshot = 0;
    if (!scope && indexed.size > 0) {
      // A file recorded with a racy time (-1) is read again, but counts as changed only when its size changed too.
      const moved = (p: string) => {
        const r = indexed.get(p);
        return r === undefined || r.size !== discovery.sizes.get(p) || (r.mtimeMs >= 0 && r.mtimeMs !== discovery.mtimes.get(p));
      };
      const changedByStat = discovery.files.filter(moved).length + [...indexed.keys()].filter((p) => !onDisk.has(p)).length;
      if (changedByStat > FULL_PASS_SHARE * Math.max(indexed.size, discovery.files.length)) {
        const t0 = performance.now();
        // The tree on disk is looked up first, so keeping the tree left never evicts the one to go back to.
        const target = seenTree(db, opts.repo, discovery.files, statUnchanged, indexed, maxFileBytes);
        let kept = false;
        try {
          kept = takeSnapshot(db, snapshotRoom(), target?.entry.tree);
        } catch (err) {
          // A snapshot is a saving, never a condition of the run (a full disk, a link where its folder goes).
          problems.push({ path: '.', message: `the tree left was not kept: ${(err as Error).message}` });
        }
        if (target && restoreSnapshot(db, target.entry, target.disk)) {
          const before = indexed;
          trees = { kept, restored: true };
          indexed = readIndexed();
          restoredBySnapshot = [...indexed].filter(([p, r]) => before.get(p)?.hash !== r.hash).length;
          removedBySnapshot = [...before.keys()].filter((p) => !indexed.has(p)).length;
        } else trees = { kept, restored: false };
        phases.trees = (performance.now() - t0) / 1000;
      }
    }
    const known = new Map([...indexed].map(([p, r]) => [p, r.hash]));
    const writer = fileWriter(db);
    const cache = extractionCache(db);
    /** The language each file read this run asked for by its name: the cache's key. */
    const requested = new Map<string, Language>();

    // Files gone from disk (or now skipped) leave the index.
    const gone = [...known.keys()].filter((p) => inScope(p) && !onDisk.has(p));
    if (gone.length) {
      db.transaction(() => {
        for (const p of gone) writer.remove(p);
        setState(db, 'resolution_dirty', '1');
        bumpGeneration(db, gone);
      })();
    }

    const todo = discovery.files.filter(inScope);
    phases.discover = (performance.now() - mark) / 1000;
    mark = performance.now();
    let parsed = 0;
    let restored = 0;
    let unchanged = 0;
    let done = 0;
    let batch: FileOutcome[] = [];
    const setMtime = db.prepare('UPDATE files SET mtime_ms = ? WHERE path = ?');
    const flush = () => {
      if (retimed.length) db.transaction(() => retimed.splice(0).forEach(([m, p]) => setMtime.run(m, p)))();
      if (!batch.length) return;
      const outcomes = batch;
      batch = [];
      const t0 = performance.now();
      const changed: string[] = [];
      db.transaction(() => {
        for (const o of outcomes) {
          if (o.status === 'extracted') {
            writer.write(o.file);
            cache.record(o.file, requested.get(o.file.path)!, o.restored ?? false);
            requested.delete(o.file.path);
            changed.push(o.file.path);
          } else if (o.status === 'skipped' && writer.remove(o.path)) changed.push(o.path);
        }
        if (changed.length) {
          setState(db, 'resolution_dirty', '1');
          bumpGeneration(db, changed);
        }
        cache.prune();
      })();
      phases.write += (performance.now() - t0) / 1000;
    };

    const pool = createParsePool(opts.workers);
    /**
     * One file's outcome: read and hashed here; unchanged content is told at once, content extracted before (under
     * any path) is restored from the cache, and the rest goes to a parser thread with the bytes already read.
     */
    const readAndExtract = async (path: string, large: boolean): Promise<FileOutcome> => {
      // Opened once: a binary file (images, archives) is told from its first bytes, not read whole.
      const read = readRepoFile(opts.repo, path, maxFileBytes);
      if (read.status !== 'read') return read;
      if (read.hash === known.get(path)) return { status: 'unchanged', path, hash: read.hash, mtimeMs: read.mtimeMs };
      // Decoded once, here: the cache's key needs the text, and the parser gets it decoded.
      const decoded = decodeRead(read);
      const { text } = decoded;
      // The language asked of the content before any fallback (minified, a parse given up): the cache's key.
      const language = languageOf(path, text);
      requested.set(path, language);
      const cached = cache.get(read.hash, language);
      if (cached) return { status: 'extracted', file: fromCached(cached, read, text), restored: true };
      return pool.extract({ root: opts.repo, path, maxFileBytes, content: decoded }, large);
    };
    try {
      progress({ phase: 'parse', done: 0, total: todo.length });
      // A bounded window of files in flight keeps both workers busy without buffering the repository.
      const window = Math.max(8, (opts.workers ?? 2) * 8);
      let next = 0;
      let stopped = false;
      const runOne = async (): Promise<void> => {
        while (next < todo.length && !stopped) {
          if (opts.shouldStop?.()) {
            stopped = true;
            break;
          }
          const path = todo[next++];
          if (statUnchanged(path)) {
            unchanged++;
            progress({ phase: 'parse', done: ++done, total: todo.length, path });
            continue;
          }
          const large = (discovery.sizes.get(path) ?? 0) >= LARGE_FILE_BYTES;
          const o = await readAndExtract(path, large);
          if (o.status === 'extracted') {
            if (o.restored) restored++;
            else parsed++;
            for (const w of o.file.warnings) problems.push({ path, message: w });
            if (o.file.limit) {
              limited[o.file.limit.reason] = (limited[o.file.limit.reason] ?? 0) + 1;
              limitedPaths.push({ path, ...o.file.limit });
            }
          } else if (o.status === 'unchanged') {
            unchanged++;
            if (o.mtimeMs !== indexed.get(path)?.mtimeMs) retimed.push([o.mtimeMs, path]);
          }
          else {
            skip(o.reason);
            skippedPaths.push({ path, reason: o.reason, message: o.message });
            // Losing a file that was there a moment ago is a problem; a binary file is just not text.
            if (o.reason === 'vanished' || o.reason === 'unreadable') problems.push({ path, message: `skipped (${o.reason}): ${o.message}` });
          }
          if (o.status !== 'unchanged') batch.push(o);
          if (batch.length >= BATCH) flush();
          progress({ phase: 'parse', done: ++done, total: todo.length, path });
        }
      };
      await Promise.all(Array.from({ length: window }, runOne));
      flush();
      // The bound holds after every run, changes or not (it may just have been lowered).
      db.transaction(() => cache.prune())();
      pruneSnapshots(db, snapshotRoom());
      if (stopped) throw new IndexInterrupted(done, todo.length);
    } finally {
      await pool.close();
    }

    phases.parse = (performance.now() - mark) / 1000;
    mark = performance.now();
    let resolution: ResolutionStats | undefined;
    if (getState(db, 'resolution_dirty')) {
      progress({ phase: 'resolve', done: 0, total: 1 });
      resolution = resolveStore(db, opts.resolution);
    }
    phases.resolve = (performance.now() - mark) / 1000;
    // A whole-repository run that got here has indexed every file: from now on the index is complete.
    if (!scope) markFullBuild(db);
    const counts = storeCounts(db);
    // A safety net, never expected to fire: full-text statistics counting other rows than the views would skew BM25.
    const ftsRows = ftsStatistics(db).rows;
    if (ftsRows !== counts.views) {
      db.transaction(() => rebuildFts(db))();
      problems.push({ path: '.', message: `full-text index counted ${ftsRows} rows for ${counts.views} views: rebuilt` });
    }
    mark = performance.now();
    compactStore(db, { firstBuild: indexed.size === 0 });
    phases.compact = (performance.now() - mark) / 1000;
    progress({ phase: 'done', done: todo.length, total: todo.length });
    finished = true;
    return {
      files: counts.files,
      filesByLanguage: counts.filesByLanguage,
      textByExtension: counts.textByExtension,
      parsed,
      restored: restored + restoredBySnapshot,
      unchanged: unchanged - restoredBySnapshot,
      removed: gone.length + removedBySnapshot,
      objects: counts.objects,
      views: counts.views,
      references: counts.references,
      resolvedReferences: counts.resolvedReferences,
      resolution: resolution ? { mode: resolution.mode, visited: resolution.visited } : null,
      skipped,
      skippedPaths,
      limited,
      limitedPaths,
      problems,
      cache: { ...cacheStats(db), trees: snapshotEntries(db).length, treeBytes: snapshotBytes(db) },
      trees,
      seconds: (performance.now() - started) / 1000,
      phases,
    };
  } finally {
    // Only a run that finished records a clean close (an error or an interruption leaves the next open to check).
    if (typeof opts.db === 'string') closeStore(db, { clean: finished });
  }
}

/**
 * The snapshot of the tree on disk, when one is kept, with what the files' rows must record: its files hashed
 * (those unchanged by size and time have the hash indexed; the others are read).
 */
function seenTree(
  db: DB, repo: string, files: string[], statUnchanged: (p: string) => boolean,
  indexed: Map<string, { hash: string; size: number; mtimeMs: number }>, maxFileBytes: number,
): { entry: SnapshotEntry; disk: DiskFile[] } | null {
  // No snapshot to match: nothing is read.
  if (!snapshotEntries(db).length) return null;
  const tree: [string, string][] = [];
  const disk: DiskFile[] = [];
  for (const p of files) {
    const r = indexed.get(p);
    if (r && statUnchanged(p)) {
      tree.push([p, r.hash]);
      disk.push({ path: p, size: r.size, mtimeMs: r.mtimeMs });
      continue;
    }
    const read = readRepoFile(repo, p, maxFileBytes);
    if (read.status !== 'read') continue;
    tree.push([p, read.hash]);
    disk.push({ path: p, size: read.bytes.length, mtimeMs: read.mtimeMs });
  }
  const entry = findSnapshot(db, treeKey(tree));
  return entry ? { entry, disk } : null;
}

/** Raised when `shouldStop` ended a run early; everything written so far is consistent. */
export class IndexInterrupted extends Error {
  constructor(readonly done: number, readonly total: number) {
    super(`indexing interrupted after ${done} of ${total} files; run it again to finish`);
    this.name = 'IndexInterrupted';
  }
}
