// Branch switches with real git: content indexed before is restored from the extraction cache, not parsed; the
// resolution pass reaches only what changed; and after any sequence of switches the index equals a fresh one.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { indexRepository } from '../../indexer/index-repository.ts';
import { seededRandom } from '../../indexer/random.ts';
import { cacheStats } from '../../indexer/store/extraction-cache.ts';
import { openStore, type DB } from '../../indexer/store/open.ts';
import { warmResolver } from '../../indexer/store/resolution.ts';
import { getGeneration } from '../../indexer/store/write.ts';
import { viewTexts } from '../../indexer/store/view-texts.ts';
import type { ViewKind } from '../../indexer/types.ts';
import { branchEdit, branchingPackage, commitBranch, editBody, rewriteEveryModule, type Tree } from '../helpers/branches.ts';
import { bm25Fingerprint } from '../helpers/random-edits.ts';
import { checkConsistency, dumpIndex, git, PROJECT, scratchDirs } from '../helpers/repo.ts';

const dir = scratchDirs('allot-branches-');
const QUERIES = ['parse', 'config', 'cart price', 'Thing', 'finish', 'render page cache', 'exported', 'token tree walk'];

/** An empty repository on branch `a`. */
function newRepo(): string {
  const repo = fs.realpathSync(dir());
  git(repo, 'init', '-q', '-b', 'a');
  return repo;
}

/** A repository with branches `a` and `b` (b made from a by `edits` random edits) and `a` checked out. */
function twoBranches(seed: number, modules: number, edits: number): { repo: string; a: Tree; b: Tree } {
  const rand = seededRandom(seed);
  const repo = newRepo();
  const a = branchingPackage(rand, modules);
  commitBranch(repo, 'a', a);
  const b = structuredClone(a);
  for (let i = 0; i < edits; i++) branchEdit(b, rand);
  commitBranch(repo, 'b', b);
  git(repo, 'checkout', '-q', 'a');
  return { repo, a, b };
}

/** The index of the checked-out tree built from nothing, with BM25's answers. */
async function fresh(repo: string) {
  const db = openStore(path.join(dir(), 'fresh.db'));
  await indexRepository({ repo, db, workers: 0 });
  const out = { dump: dumpIndex(db), bm25: bm25Fingerprint(db, QUERIES, 100_000) };
  db.close();
  return out;
}

async function expectFresh(db: DB, repo: string): Promise<void> {
  expect(checkConsistency(db)).toEqual([]);
  const f = await fresh(repo);
  expect(dumpIndex(db)).toEqual(f.dump);
  expect(bm25Fingerprint(db, QUERIES, 100_000)).toEqual(f.bm25);
}

const differing = (from: Tree, to: Tree) => Object.keys(to).filter((p) => from[p] !== to[p]).length;

describe('branch switches', () => {
  it('A -> B -> A: the second A parses nothing, restores what differs and equals a fresh index', async () => {
    const { repo, a, b } = twoBranches(1, 16, 12);
    const db = openStore(path.join(repo, '.allot/index.db'));
    const cold = await indexRepository({ repo, db, workers: 0 });
    expect(cold.parsed + cold.restored).toBe(Object.keys(a).length);

    git(repo, 'checkout', '-q', 'b');
    const toB = await indexRepository({ repo, db, workers: 0 });
    // Only content the index never saw is parsed (a moved module is restored).
    const seen = new Set(Object.values(a));
    const changed = Object.keys(b).filter((p) => a[p] !== b[p]);
    expect(toB.parsed).toBe(changed.filter((p) => !seen.has(b[p])).length);
    expect(toB.restored).toBe(changed.filter((p) => seen.has(b[p])).length);
    await expectFresh(db, repo);

    git(repo, 'checkout', '-q', 'a');
    const back = await indexRepository({ repo, db, workers: 0 });
    expect(back.parsed).toBe(0);
    expect(back.restored).toBe(differing(b, a));
    expect(back.removed).toBe(Object.keys(b).filter((p) => !(p in a)).length);
    await expectFresh(db, repo);
    db.close();
  });

  it('restores a file moved to another path from the cache, named for its new path', async () => {
    const rand = seededRandom(3);
    const repo = newRepo();
    const a = branchingPackage(rand, 8);
    commitBranch(repo, 'a', a);
    const { 'pkg/mod5.py': moved, ...rest } = a;
    commitBranch(repo, 'b', { ...rest, 'pkg/sub/renamed.py': moved });
    git(repo, 'checkout', '-q', 'a');
    const db = openStore(path.join(repo, '.allot/index.db'));
    await indexRepository({ repo, db, workers: 0 });
    git(repo, 'checkout', '-q', 'b');
    const s = await indexRepository({ repo, db, workers: 0 });
    expect(s).toMatchObject({ parsed: 0, restored: 1, removed: 1 });
    const module = db.prepare("SELECT o.qualified_name FROM objects o JOIN files f ON f.id = o.file_id WHERE f.path = 'pkg/sub/renamed.py' AND o.parent IS NULL").pluck().get();
    expect(module).toBe('pkg.sub.renamed');
    await expectFresh(db, repo);
    db.close();
  });

  it('keeps the rows of uses whose lines moved in a rewritten file, with their lines updated', async () => {
    const repo = newRepo();
    const use = 'from pkg.tools import helper\n\n\ndef run(y):\n    return helper(y)\n';
    const a: Tree = { 'pkg/__init__.py': '', 'pkg/tools.py': 'def helper(x):\n    return x + 1\n', 'pkg/use.py': use };
    commitBranch(repo, 'a', a);
    commitBranch(repo, 'b', { ...a, 'pkg/use.py': `# two lines\n# above\n${use}\n\ndef other():\n    return helper(2)\n` });
    git(repo, 'checkout', '-q', 'a');
    const db = openStore(path.join(repo, '.allot/index.db'));
    await indexRepository({ repo, db, workers: 0 });
    // A derived view's text is rebuilt from its line, as the store reads it back.
    const uses = () => {
      const texts = viewTexts(db);
      const rows = db
        .prepare("SELECT v.id, o.id AS objectId, v.file_id AS fileId, v.kind, v.start_line AS line FROM views v JOIN objects o ON o.key = v.object JOIN files f ON f.id = v.file_id WHERE v.derived = 1 AND f.path = 'pkg/use.py' ORDER BY v.start_line")
        .all() as { id: number; objectId: string; fileId: number; kind: ViewKind; line: number }[];
      return rows.map(({ id, kind, line, ...v }) => ({ id, kind, line, text: texts({ ...v, kind, derived: 1, startLine: line, endLine: line }) }));
    };
    const before = uses();
    expect(before.map((v) => [v.kind, v.line, v.text])).toEqual([['import', 1, 'from pkg.tools import helper'], ['callsite', 5, 'return helper(y)']]);

    git(repo, 'checkout', '-q', 'b');
    await indexRepository({ repo, db, workers: 0 });
    const after = uses();
    // The two uses that moved keep their rows, two lines down; the new call is a new row.
    expect(after.slice(0, 2)).toEqual(before.map((v) => ({ ...v, line: v.line + 2 })));
    expect(after.slice(2).map((v) => [v.kind, v.line, v.text])).toEqual([['callsite', 11, 'return helper(2)']]);
    expect(before.map((v) => v.id)).not.toContain(after[2].id);
    await expectFresh(db, repo);

    git(repo, 'checkout', '-q', 'a');
    await indexRepository({ repo, db, workers: 0 });
    expect(uses()).toEqual(before);
    await expectFresh(db, repo);
    db.close();
  });

  it('a rewritten file keeps the reference rows (and targets) of lines whose references are unchanged', async () => {
    const repo = newRepo();
    const tools = 'def helper(x):\n    return x + 1\n\n\ndef other(x):\n    return x\n';
    const use = 'from pkg.tools import helper, other\n\n\ndef run(y):\n    return helper(y) + other(y)\n';
    // zz.py comes after use.py: its rows are written later, so new rows of use.py cannot take the old ids.
    const a: Tree = { 'pkg/__init__.py': '', 'pkg/tools.py': tools, 'pkg/use.py': use, 'pkg/zz.py': 'from pkg.tools import other\n\n\ndef z():\n    return other(1)\n' };
    commitBranch(repo, 'a', a);
    // b: a new call on a line of its own, one call's line changed, the rest of the file as it was.
    commitBranch(repo, 'b', { ...a, 'pkg/use.py': `${use.replace('+ other(y)', '+ helper(2)')}\n\ndef more():\n    return other(3)\n` });
    git(repo, 'checkout', '-q', 'a');
    const db = openStore(path.join(repo, '.allot/index.db'));
    await indexRepository({ repo, db, workers: 0 });
    const refs = () =>
      db
        .prepare("SELECT r.id, r.kind, r.name, r.line, t.id AS target FROM refs r JOIN objects o ON o.key = r.source JOIN files f ON f.id = o.file_id LEFT JOIN objects t ON t.key = r.target WHERE f.path = 'pkg/use.py' ORDER BY r.line, r.id")
        .all() as { id: number; kind: string; name: string; line: number; target: string | null }[];
    const before = refs();
    git(repo, 'checkout', '-q', 'b');
    await indexRepository({ repo, db, workers: 0 });
    const after = refs();
    // Line 1 (the imports) is unchanged: its rows stay, in order, with their targets; line 5 changed.
    expect(after.filter((r) => r.line === 1)).toEqual(before.filter((r) => r.line === 1));
    expect(before.filter((r) => r.line === 1).every((r) => r.target !== null)).toBe(true);
    expect(after.filter((r) => r.line === 5).map((r) => r.name)).toEqual(['helper']);
    await expectFresh(db, repo);
    git(repo, 'checkout', '-q', 'a');
    await indexRepository({ repo, db, workers: 0 });
    await expectFresh(db, repo);
    db.close();
  });

  it('an index written before view text hashes (schema 18) switches to a fresh index and records them', async () => {
    const { repo } = twoBranches(9, 12, 10);
    const db = openStore(path.join(repo, '.allot/index.db'));
    await indexRepository({ repo, db, workers: 0 });
    db.prepare('UPDATE views SET text_hash = NULL').run();
    git(repo, 'checkout', '-q', 'b');
    const s = await indexRepository({ repo, db, workers: 0 });
    expect(s.parsed + s.restored).toBeGreaterThan(0);
    await expectFresh(db, repo);
    // Views written by the switch have their hash; checkConsistency (in expectFresh) checked each against its text.
    const hashedNow = db.prepare("SELECT count(*) FROM views v JOIN files f ON f.id = v.file_id WHERE v.derived = 0 AND v.text_hash IS NOT NULL").pluck().get() as number;
    expect(hashedNow).toBeGreaterThan(0);
    db.close();
  });

  it('honours the cache bound: least recently used rows go, and what went is parsed again', async () => {
    const { repo, a, b } = twoBranches(5, 16, 12);
    const probe = openStore(path.join(dir(), 'probe.db'));
    await indexRepository({ repo, db: probe, workers: 0 });
    const oneTree = cacheStats(probe).bytes;
    probe.close();

    const db = openStore(path.join(repo, '.allot/index.db'));
    // Room for less than one tree: switching back finds only part of A.
    const bound = Math.floor(oneTree * 0.75);
    await indexRepository({ repo, db, workers: 0, cacheMaxBytes: bound });
    git(repo, 'checkout', '-q', 'b');
    await indexRepository({ repo, db, workers: 0 });
    expect(cacheStats(db)).toMatchObject({ maxBytes: bound });
    expect(cacheStats(db).bytes).toBeLessThanOrEqual(bound);
    git(repo, 'checkout', '-q', 'a');
    const back = await indexRepository({ repo, db, workers: 0 });
    expect(cacheStats(db).bytes).toBeLessThanOrEqual(bound);
    expect(back.parsed).toBeGreaterThan(0);
    expect(back.parsed + back.restored).toBe(differing(b, a));
    await expectFresh(db, repo);

    // A bound of 0 turns the cache off: every row goes, nothing is restored.
    await indexRepository({ repo, db, workers: 0, cacheMaxBytes: 0 });
    expect(cacheStats(db)).toEqual({ entries: 0, bytes: 0, maxBytes: 0 });
    git(repo, 'checkout', '-q', 'b');
    const off = await indexRepository({ repo, db, workers: 0 });
    expect(off.restored).toBe(0);
    await expectFresh(db, repo);
    db.close();
  });

  it('resolves only what a near switch reaches, and equals a fresh index after a long sequence of switches', async () => {
    const rand = seededRandom(11);
    const repo = newRepo();
    const trees: Tree[] = [branchingPackage(rand, 30)];
    commitBranch(repo, 'a', trees[0]);
    for (const [name, edits] of [['b', 25], ['d', 6]] as const) {
      const t = structuredClone(trees.at(-1)!);
      for (let i = 0; i < edits; i++) branchEdit(t, rand);
      trees.push(t);
      commitBranch(repo, name, t);
    }
    // c: b with the bodies of two modules edited.
    git(repo, 'checkout', '-q', 'b');
    const c = structuredClone(trees[1]);
    const edited = Object.keys(c).filter((p) => /^pkg\/mod\d+\.py$/.test(p)).slice(0, 2);
    for (const p of edited) editBody(c, p, rand);
    commitBranch(repo, 'c', c);
    git(repo, 'checkout', '-q', 'a');
    // One connection for the whole sequence, as the daemon's writer keeps its resolver between batches.
    const db = openStore(path.join(repo, '.allot/index.db'));
    await indexRepository({ repo, db, workers: 0 });
    for (const branch of ['b', 'c', 'b', 'a', 'd', 'c', 'a', 'c', 'd']) {
      git(repo, 'checkout', '-q', branch);
      const s = await indexRepository({ repo, db, workers: 0 });
      expect(s.parsed + s.restored + s.removed, branch).toBeGreaterThan(0);
      await expectFresh(db, repo);
    }
    // b -> c edits two modules' bodies: the pass resolves their references and no others.
    git(repo, 'checkout', '-q', 'b');
    await indexRepository({ repo, db, workers: 0 });
    git(repo, 'checkout', '-q', 'c');
    const near = await indexRepository({ repo, db, workers: 0 });
    const theirs = db.prepare(`SELECT count(*) FROM refs r JOIN objects o ON o.key = r.source JOIN files f ON f.id = o.file_id WHERE f.path IN (?, ?)`).pluck().get(...edited);
    expect(near).toMatchObject({ parsed: 0, restored: 2, resolution: { mode: 'changes', visited: theirs } });
    expect(near.resolution!.visited).toBeLessThan(near.references / 10);
    await expectFresh(db, repo);
    db.close();

    // A new process (the CLI) has no resolver kept: it resolves the same from the store alone.
    git(repo, 'checkout', '-q', 'd');
    const again = openStore(path.join(repo, '.allot/index.db'));
    expect((await indexRepository({ repo, db: again, workers: 0 })).resolution?.mode).toBe('changes');
    await expectFresh(again, repo);
    again.close();
  });

  it('a resolver built ahead (a replacement writer thread) follows the switches after it to a fresh index', async () => {
    const { repo } = twoBranches(7, 16, 12);
    const dbFile = path.join(repo, '.allot/index.db');
    const first = openStore(dbFile);
    await indexRepository({ repo, db: first, workers: 0 });
    first.close();
    const db = openStore(dbFile);
    warmResolver(db);
    for (const branch of ['b', 'a']) {
      git(repo, 'checkout', '-q', branch);
      const s = await indexRepository({ repo, db, workers: 0 });
      expect(s.parsed + s.restored, branch).toBeGreaterThan(0);
      await expectFresh(db, repo);
    }
    db.close();
  });

  it('kill -9 during a restore leaves a consistent index, and the next run finishes it to a fresh index', { timeout: 120_000 }, async () => {
    const { repo } = twoBranches(9, 400, 0);
    // b rewrites every module, so switching back to a restores hundreds of files.
    rewriteEveryModule(repo);
    const dbFile = path.join(repo, '.allot/index.db');
    let db = openStore(dbFile);
    await indexRepository({ repo, db, workers: 0 });
    git(repo, 'checkout', '-q', 'b');
    await indexRepository({ repo, db, workers: 0 });
    const before = getGeneration(db);
    db.close();
    git(repo, 'checkout', '-q', 'a');

    const child = spawn(process.execPath, [path.join(PROJECT, 'client/bin/allot.js'), 'index', repo, '--workers', '0'], { stdio: 'ignore' });
    // Killed once a batch of restored files is committed, before the run can finish.
    const killedAt = await new Promise<number>((resolve) => {
      const timer = setInterval(() => {
        try {
          const r = openStore(dbFile, { readonly: true });
          const g = getGeneration(r);
          r.close();
          if (g > before) {
            clearInterval(timer);
            child.kill('SIGKILL');
            resolve(g);
          }
        } catch {
          /* busy */
        }
      }, 5);
    });
    expect(await new Promise((r) => child.on('exit', (_c, sig) => r(sig)))).toBe('SIGKILL');
    db = openStore(dbFile);
    expect(checkConsistency(db)).toEqual([]);
    expect(getGeneration(db)).toBeGreaterThanOrEqual(killedAt);
    const rest = await indexRepository({ repo, db, workers: 0 });
    expect(rest.parsed).toBe(0);
    await expectFresh(db, repo);
    db.close();
  });
});
