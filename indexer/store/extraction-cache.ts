import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { PARSE_ABANDONED } from '../extract/extract-file.ts';
import { toCached, type CachedExtraction } from '../extract/reuse.ts';
import type { FileExtraction, Language } from '../types.ts';
import { prepared, type DB } from './open.ts';

/**
 * The extraction cache (`extractions`): what extraction made of a content, by (content hash, language the file's
 * name asks for), so a file whose content was indexed before, on any branch or under any path, is restored without
 * parsing. Rows are written when a file is parsed and touched when one is restored; past the bound (in bytes of
 * stored data), the least recently used go. Rows made by other extraction code than this (another allot version,
 * changed queries or grammars) are dropped when the cache is opened, so a restore always equals a parse.
 */

/** The bound when none is configured: several trees of a large repository (a SymPy tree's rows take ~12 MB). */
export const DEFAULT_CACHE_MAX_BYTES = 256 * 2 ** 20;

export interface ExtractionCacheStats {
  entries: number;
  bytes: number;
  maxBytes: number;
}

export interface ExtractionCache {
  /** What a content gave before, or null. */
  get(hash: string, language: Language): CachedExtraction | null;
  /** In the caller's transaction: keeps a parsed file's extraction, or marks a restored one used. */
  record(file: FileExtraction, requested: Language, restored: boolean): void;
  /** In the caller's transaction: drops the least recently used rows while the total is over the bound. Returns how many went. */
  prune(): number;
}

/** The configured bound in bytes (`allot index --cache-mb`), kept in the index so every later run and the daemon honour it. */
export function cacheMaxBytes(db: DB): number {
  const v = prepared(db, "SELECT value FROM state WHERE key = 'extraction_cache_max_bytes'", 'pluck').get() as string | undefined;
  return v === undefined ? DEFAULT_CACHE_MAX_BYTES : Number(v);
}

export function setCacheMaxBytes(db: DB, bytes: number): void {
  prepared(db, "INSERT INTO state (key, value) VALUES ('extraction_cache_max_bytes', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(String(bytes));
}

export function cacheStats(db: DB): ExtractionCacheStats {
  const row = prepared(db, 'SELECT count(*) AS entries, coalesce(sum(bytes), 0) AS bytes FROM extractions').get() as { entries: number; bytes: number };
  return { ...row, maxBytes: cacheMaxBytes(db) };
}

/** Opens the cache for one index run: rows of other extraction code go first (own transaction). */
export function extractionCache(db: DB): ExtractionCache {
  const extractor = extractorFingerprint();
  const stored = prepared(db, "SELECT value FROM state WHERE key = 'extraction_cache_extractor'", 'pluck').get() as string | undefined;
  if (stored !== extractor) {
    db.transaction(() => {
      db.prepare('DELETE FROM extractions').run();
      db.prepare("INSERT INTO state (key, value) VALUES ('extraction_cache_extractor', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(extractor);
    })();
  }
  const maxBytes = cacheMaxBytes(db);
  const select = db.prepare('SELECT data FROM extractions WHERE hash = ? AND language = ?').pluck();
  const touch = db.prepare('UPDATE extractions SET used = ? WHERE hash = ? AND language = ?');
  const put = db.prepare(
    `INSERT INTO extractions (hash, language, data, bytes, used) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (hash, language) DO UPDATE SET data = excluded.data, bytes = excluded.bytes, used = excluded.used`,
  );
  let { bytes: total } = cacheStats(db);
  let clock = (db.prepare('SELECT coalesce(max(used), 0) FROM extractions').pluck().get() as number);
  return {
    get(hash, language) {
      if (maxBytes <= 0) return null;
      const data = select.get(hash, language) as Buffer | undefined;
      if (!data) return null;
      try {
        return JSON.parse(zlib.inflateRawSync(data).toString('utf8')) as CachedExtraction;
      } catch {
        return null; // a damaged row is a miss: the file is parsed and the row rewritten
      }
    },
    record(file, requested, restored) {
      if (maxBytes <= 0) return;
      if (restored) return void touch.run(++clock, file.hash, requested);
      // A parse given up (its step budget spent, or the wall-clock backstop on a stalled machine): never kept.
      if (file.warnings.includes(PARSE_ABANDONED)) return;
      const data = zlib.deflateRawSync(Buffer.from(JSON.stringify(toCached(file)), 'utf8'), { level: 1 });
      put.run(file.hash, requested, data, data.length, ++clock);
      total += data.length;
    },
    prune() {
      if (total <= maxBytes) return 0;
      total = cacheStats(db).bytes;
      if (total <= maxBytes) return 0;
      const drop = db.prepare('DELETE FROM extractions WHERE id = ?');
      let dropped = 0;
      for (const row of db.prepare('SELECT id, bytes FROM extractions ORDER BY used').all() as { id: number; bytes: number }[]) {
        if (total <= maxBytes) break;
        drop.run(row.id);
        total -= row.bytes;
        dropped++;
      }
      return dropped;
    },
  };
}

let fingerprint: string | undefined;

/**
 * What identifies the extraction code: the sources extraction and restoring run (every module of `extract/` and
 * what they import, followed through relative imports, and every file under `languages/`: queries, fragments and
 * the registry) and the grammar packages' versions (wasm and native). Any change to them empties the cache, so cached rows never
 * outlive the code that made them. A build (`dist/`) next to its sources names them, not its JavaScript: the bin
 * and the tests (run from sources) then share one cache.
 */
export function extractorFingerprint(): string {
  if (fingerprint) return fingerprint;
  const hash = crypto.createHash('sha1');
  const { project, indexer } = indexerCode();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    let source: string;
    try {
      source = fs.readFileSync(file, 'utf8');
    } catch {
      return;
    }
    // Runtime imports only: `import type` carries no code.
    for (const m of source.matchAll(/^(?:import|export)(?!\s+type\b)[^;]*?from\s*['"](\.{1,2}\/[^'"]+)['"]/gm)) visit(path.resolve(path.dirname(file), m[1]));
  };
  const extractDir = path.join(indexer, 'extract');
  for (const f of fs.readdirSync(extractDir).sort()) visit(path.join(extractDir, f));
  const languagesDir = path.join(indexer, 'languages');
  for (const f of fs.readdirSync(languagesDir, { recursive: true, encoding: 'utf8' })) seen.add(path.join(languagesDir, f));
  for (const file of [...seen].sort()) {
    try {
      hash.update(path.relative(indexer, file)).update('\0').update(fs.readFileSync(file)).update('\0');
    } catch {
      /* a folder, or gone */
    }
  }
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(project, 'package.json'), 'utf8')) as Record<'dependencies' | 'optionalDependencies', Record<string, string> | undefined>;
    // Native grammars and their runtime are optional dependencies (languages/backends.ts).
    const grammars = { ...pkg.dependencies, ...pkg.optionalDependencies };
    for (const [name, version] of Object.entries(grammars).sort()) if (name.includes('tree-sitter')) hash.update(`${name}@${version}\0`);
  } catch {
    /* no package.json beside the code: the sources still name it */
  }
  return (fingerprint = hash.digest('hex').slice(0, 16));
}

/**
 * Where the indexer's code is: its sources when they sit beside the build (the bin and the tests then agree on
 * every fingerprint of the code), else the running build's `indexer/` folder; and the project folder.
 */
export function indexerCode(): { project: string; indexer: string } {
  const own = fileURLToPath(new URL('../', import.meta.url));
  const layers = path.dirname(own);
  const project = path.basename(layers) === 'dist' ? path.dirname(layers) : layers;
  const sources = path.join(project, 'indexer');
  return { project, indexer: fs.existsSync(path.join(sources, 'extract', 'extract-file.ts')) ? sources : own };
}
