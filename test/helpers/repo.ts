import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { indexRepository } from '../../indexer/index-repository.ts';
import { openStore, type DB } from '../../indexer/store/open.ts';
import { textHash, viewTexts, type StoredView } from '../../indexer/store/view-texts.ts';

export const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
export const PROJECT = fileURLToPath(new URL('../../', import.meta.url));

/** A fresh temporary folder, removed by the returned cleanup. */
export function tempDir(prefix = 'allot-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A maker of temporary folders, each removed after the test of the calling file that made it. */
export function scratchDirs(prefix?: string): () => string {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
  return () => {
    const d = tempDir(prefix);
    dirs.push(d);
    return d;
  };
}

/** Writes a tree of files (path -> content) under `root`. */
export function writeTree(root: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(root, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, content);
  }
}

/** Runs git in `repo` (an author, no signing), failing with git's message. */
export function git(repo: string, ...args: string[]): string {
  const r = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'commit.gpgsign=false', ...args], { cwd: repo, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/**
 * n Python modules of `defs` functions each (`work_<module>_<def>`), each module importing the next: enough
 * parsing that a first index lasts a while.
 */
export function moduleTree(n: number, defs = 25): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < n; i++) {
    const body = Array.from({ length: defs }, (_, j) => `def work_${i}_${j}(x):\n    """Step ${j} of module ${i}."""\n    return work_${(i + 1) % n}_${j}(x + ${j})\n`).join('\n\n');
    files[`pkg/d${i % 20}/mod${i}.py`] = `from pkg.d${(i + 1) % 20}.mod${(i + 1) % n} import *\n\n\n${body}`;
  }
  return files;
}

/** Copies a fixture repository into a temporary folder and returns its path. */
export function copyFixture(name: string): string {
  const dir = tempDir(`allot-${name}-`);
  fs.cpSync(path.join(FIXTURES, name), dir, { recursive: true });
  return dir;
}

/** Indexes a repository in-process into its default database (`<repo>/.allot/index.db`) and returns it open. */
export async function indexInPlace(repo: string): Promise<DB> {
  const db = openStore(path.join(repo, '.allot/index.db'));
  await indexRepository({ repo, db, workers: 0 });
  return db;
}

/** A fixture copied and indexed before a test file's tests, removed after them: `fixture.repo`, `fixture.db`. */
export function indexedFixture(name: string): { readonly repo: string; readonly db: DB } {
  const state: { repo?: string; db?: DB } = {};
  beforeAll(async () => {
    state.repo = copyFixture(name);
    state.db = await indexInPlace(state.repo);
  });
  afterAll(() => {
    state.db?.close();
    if (state.repo) fs.rmSync(state.repo, { recursive: true, force: true });
  });
  return { get repo() { return state.repo!; }, get db() { return state.db!; } };
}

/**
 * Everything the index says about a tree, without row ids: two indexes of the
 * same tree must dump equal, however they were built.
 */
export function dumpIndex(db: DB): Record<string, unknown[]> {
  return {
    files: db.prepare('SELECT path, language, hash, size, line_count, parse_errors FROM files ORDER BY path').all(),
    texts: db.prepare('SELECT f.path, t.text FROM file_texts t JOIN files f ON f.id = t.file_id ORDER BY f.path').all(),
    objects: db
      .prepare(
        `SELECT o.id, f.path, (SELECT p.id FROM objects p WHERE p.key = o.parent) AS parent_id, o.kind, o.name, o.qualified_name, o.start_line, o.end_line, o.start_byte, o.end_byte, o.signature, o.docstring
         FROM objects o JOIN files f ON f.id = o.file_id ORDER BY o.id`,
      )
      .all(),
    views: dumpViews(db),
    refs: db
      .prepare(
        `SELECT s.id AS source_id, r.kind, r.name, r.qualifier, r.module, r.alias, r.line, t.id AS target_id
         FROM refs r JOIN objects s ON s.key = r.source LEFT JOIN objects t ON t.key = r.target
         ORDER BY s.id, r.kind, r.name, r.line, r.qualifier, r.module, r.alias`,
      )
      .all(),
    fts: db.prepare('SELECT count(*) AS n FROM views_fts').all(),
  };
}

/** A fresh in-process index of the tree as it is now, built in a throwaway folder, dumped (`dumpIndex`). */
export async function freshDump(repo: string): Promise<Record<string, unknown[]>> {
  const dir = tempDir('allot-fresh-');
  const db = openStore(path.join(dir, 'fresh.db'));
  try {
    await indexRepository({ repo, db, workers: 0 });
    return dumpIndex(db);
  } finally {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Every view with its text as the store rebuilds it, in a fixed order. */
function dumpViews(db: DB): unknown[] {
  const texts = viewTexts(db);
  const rows = db
    .prepare(
      `SELECT o.id AS objectId, v.file_id AS fileId, f.path, v.kind, v.derived, v.start_line AS startLine, v.end_line AS endLine
       FROM views v JOIN objects o ON o.key = v.object JOIN files f ON f.id = v.file_id`,
    )
    .all() as (StoredView & { path: string })[];
  const out = rows.map((v) => ({ object_id: v.objectId, path: v.path, kind: v.kind, derived: v.derived, start_line: v.startLine, end_line: v.endLine, text: texts(v) }));
  const key = (v: (typeof out)[number]) => [v.object_id, v.path, v.kind, String(v.start_line).padStart(9, '0'), v.text].join('\0');
  return out.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** Consistency checks every index must pass, whatever happened to it. */
export function checkConsistency(db: DB): string[] {
  const problems: string[] = [];
  const integrity = db.pragma('integrity_check', { simple: true });
  if (integrity !== 'ok') problems.push(`integrity_check: ${integrity}`);
  const fk = db.pragma('foreign_key_check') as unknown[];
  if (fk.length) problems.push(`foreign_key_check: ${fk.length} rows`);
  const one = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
  const orphanViews = one('SELECT count(*) AS n FROM views v LEFT JOIN objects o ON o.key = v.object WHERE o.key IS NULL');
  if (orphanViews) problems.push(`${orphanViews} orphan views`);
  const views = one('SELECT count(*) AS n FROM views');
  const fts = one('SELECT count(*) AS n FROM views_fts');
  if (views !== fts) problems.push(`views ${views} != fts rows ${fts}`);
  const orphanRefs = one('SELECT count(*) AS n FROM refs r LEFT JOIN objects o ON o.key = r.source WHERE o.key IS NULL');
  if (orphanRefs) problems.push(`${orphanRefs} orphan references`);
  const dangling = one('SELECT count(*) AS n FROM refs r LEFT JOIN objects o ON o.key = r.target WHERE r.target IS NOT NULL AND o.key IS NULL');
  if (dangling) problems.push(`${dangling} references to missing targets`);
  const noText = one('SELECT count(*) AS n FROM files f LEFT JOIN file_texts t ON t.file_id = f.id WHERE t.file_id IS NULL');
  if (noText) problems.push(`${noText} files without text`);
  // An own view's text hash (NULL only when written before schema 18) is that of the text the store rebuilds.
  const texts = viewTexts(db);
  const hashed = db
    .prepare('SELECT v.id, o.id AS objectId, v.file_id AS fileId, v.kind, v.derived, v.start_line AS startLine, v.end_line AS endLine, v.text_hash AS textHash FROM views v JOIN objects o ON o.key = v.object WHERE v.text_hash IS NOT NULL OR v.derived = 0')
    .all() as (StoredView & { id: number; textHash: number | null })[];
  const wrongHash = hashed.filter((v) => (v.derived ? v.textHash !== null : v.textHash !== null && v.textHash !== textHash(texts(v)))).length;
  if (wrongHash) problems.push(`${wrongHash} views whose text hash is not their text's`);
  return problems;
}
