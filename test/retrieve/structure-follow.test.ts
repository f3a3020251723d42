import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexRepository } from '../../indexer/index-repository.ts';
import { graphEdges, personalizedPageRank } from '../../indexer/retrieve/graph.ts';
import { loadQueryLanguages } from '../../indexer/retrieve/query-reading.ts';
import { structureOf, structureSettled } from '../../indexer/retrieve/structure-cache.ts';
import type { Structure } from '../../indexer/retrieve/structure.ts';
import { createStructuralRetriever } from '../../indexer/retrieve/structural.ts';
import { changedSince } from '../../indexer/store/changes.ts';
import { openStore, type DB } from '../../indexer/store/open.ts';
import { copyFixture, writeTree } from '../helpers/repo.ts';

/** Everything a structure holds, in a canonical form: two structures of one index must be equal. */
function snapshot(s: Structure) {
  const sorted = <T>(m: Map<string, T>) => [...m.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1));
  return {
    generation: s.generation,
    objects: sorted(s.objects),
    byName: sorted(s.byName),
    byFile: sorted(s.byFile),
    files: s.files,
    imports: sorted(s.imports),
    edges: graphEdges(s.graph),
    bindings: s.files.map((f) => {
      const { bindings, wildcards } = s.resolver.saveBindings(f);
      return [f, sorted(bindings ?? new Map()), wildcards ?? []];
    }),
    stale: s.resolver.stale,
  };
}

/** PageRank mass by object id from every object of a file as a seed (exact: the walk does not depend on slot numbers). */
function pagerankFrom(s: Structure, file: string): [string, number][] {
  const seeds = new Map((s.byFile.get(file) ?? []).map((id) => [s.graph.index.get(id)!, 1]));
  return [...personalizedPageRank(s.graph, seeds, { epsilon: 1e-6 })].map(([i, v]) => [s.graph.ids[i], v] as [string, number]).sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

const QUERIES: [string, string | undefined][] = [
  ['from pkg import Basic, tidy\n\n\ndef go(x):\n    return Basic().simplify() + tidy(x)\n', undefined],
  ['from pkg.util import tidy\nfrom pkg import *\n\nvalue = tidy(', undefined],
  ['from .core import helper\nfrom . import extra\n\nhelper(', 'pkg/fresh.py'],
  ['import pkg.util as u\nu.tidy(', 'app/main.py'],
  ['from pkg.util import helper\nfrom pkg.utils import helper as h2\n\nhelper(', undefined],
  ['Traceback (most recent call last):\n  File "/srv/pkg/core.py", line 3, in simplify\nValueError', undefined],
  ['where is helper defined and who calls tidy on a Basic', undefined],
];

describe('the structure follows index changes file by file', () => {
  let repo: string;
  let file: string;
  let writer: DB;
  let reader: DB;
  let first: Structure;
  let grammars: Awaited<ReturnType<typeof loadQueryLanguages>>;

  beforeAll(async () => {
    repo = copyFixture('python');
    writeTree(repo, {
      'pkg/__init__.py': 'from .core import Basic\nfrom .util import *\n',
      'pkg/core.py': 'class Basic:\n    def simplify(self):\n        return helper(self)\n\n\ndef helper(x):\n    return x\n',
      'pkg/util.py': 'from pkg.core import helper\n\n\ndef tidy(x):\n    return helper(x)\n',
      'app/main.py': 'from pkg import Basic, tidy\nimport pkg.util as u\n\n\ndef run():\n    return Basic().simplify() + u.tidy(1)\n',
    });
    file = path.join(repo, '.allot/index.db');
    writer = openStore(file);
    await indexRepository({ repo, db: writer, workers: 0 });
    reader = openStore(file, { readonly: true });
    grammars = await loadQueryLanguages();
    first = structureOf(reader);
  });
  afterAll(() => {
    reader.close();
    writer.close();
    fs.rmSync(repo, { recursive: true, force: true });
  });

  /** The reader's structure (updated in place) against one built from nothing on a new connection. */
  function expectSameAsFresh(): void {
    const s = structureOf(reader);
    expect(s).toBe(first);
    const fresh = openStore(file, { readonly: true });
    try {
      const f = structureOf(fresh);
      expect(snapshot(s)).toEqual(snapshot(f));
      for (const p of s.files) expect(pagerankFrom(s, p)).toEqual(pagerankFrom(f, p));
      for (const [q, at] of QUERIES) {
        const got = createStructuralRetriever(reader, grammars, { path: at }).retrieve(q, 10);
        expect(got).toEqual(createStructuralRetriever(fresh, grammars, { path: at }).retrieve(q, 10));
      }
    } finally {
      fresh.close();
    }
  }

  /** Re-indexes, comparing both between the batch's write and its resolution (dangling targets) and after it. */
  async function reindex(): Promise<void> {
    let checked = false;
    await indexRepository({ repo, db: writer, workers: 0, onProgress: (p) => void (p.phase === 'resolve' && (expectSameAsFresh(), (checked = true))) });
    expect(checked).toBe(true);
    expectSameAsFresh();
  }

  it('answers as a fresh structure after edits, new files, renames, deletions and changed re-exports', async () => {
    expectSameAsFresh();
    const rt = createStructuralRetriever(reader, grammars);
    expect(rt.retrieve(QUERIES[0][0], 3)[0]).toMatchObject({ path: 'pkg/core.py', objectName: 'Basic' });

    // A body edit and a new method: the bindings the import passes made stay valid.
    writeTree(repo, { 'pkg/core.py': 'class Basic:\n    def simplify(self):\n        return helper(self) + 1\n\n    def expand(self):\n        return self\n\n\ndef helper(x):\n    return x\n' });
    await reindex();
    expect(first.resolver.stale).toBe(false);

    // Changed imports in a file nobody imports from.
    writeTree(repo, { 'app/main.py': 'from pkg import Basic\nimport pkg.core as u\n\n\ndef run():\n    return Basic().simplify() + u.helper(1)\n' });
    await reindex();

    // A new file, re-exported by the package.
    writeTree(repo, {
      'pkg/extra.py': 'from .core import helper as h\n\n\ndef extra():\n    return h(2)\n',
      'pkg/__init__.py': 'from .core import Basic\nfrom .util import *\nfrom .extra import extra\n',
    });
    await reindex();

    // A rename: app/main.py's `import pkg.util` no longer resolves.
    fs.renameSync(path.join(repo, 'pkg/util.py'), path.join(repo, 'pkg/utils.py'));
    writeTree(repo, { 'pkg/__init__.py': 'from .core import Basic\nfrom .utils import *\nfrom .extra import extra\n' });
    await reindex();

    // A renamed definition that other files import (and re-export): only what the import passes read changed.
    writeTree(repo, { 'pkg/core.py': 'class Basic:\n    def simplify(self):\n        return helper2(self)\n\n\ndef helper2(x):\n    return x\n' });
    await reindex();

    // A deletion.
    fs.rmSync(path.join(repo, 'pkg/extra.py'));
    await reindex();
    expect(createStructuralRetriever(reader, grammars).retrieve('from pkg.core import helper2\nhelper2(', 3)[0]).toMatchObject({ objectName: 'helper2' });

    // The file comes back under its old name.
    fs.renameSync(path.join(repo, 'pkg/utils.py'), path.join(repo, 'pkg/util.py'));
    await reindex();
  });

  it('absorbs a large change in the background, answering from the previous structure meanwhile', async () => {
    const before = structureOf(reader);
    const generation = before.generation;
    for (let i = 0; i < 6; i++) writeTree(repo, { [`pkg/gen${i}.py`]: `from .core import Basic\n\n\nclass Gen${i}(Basic):\n    pass\n` });
    await indexRepository({ repo, db: writer, workers: 0 });
    const during = structureOf(reader, { maxSyncFiles: 0, maxSyncShare: 0 });
    expect(during).toBe(before);
    expect(during.generation).toBe(generation);
    await structureSettled(reader);
    const after = structureOf(reader);
    expect(after).not.toBe(before);
    const fresh = openStore(file, { readonly: true });
    expect(snapshot(after)).toEqual(snapshot(structureOf(fresh)));
    fresh.close();
    first = after;
    expectSameAsFresh();
  });

  it('logs the paths each generation changed, and says when the log no longer reaches back', async () => {
    const generation = first.generation;
    writeTree(repo, { 'pkg/gen0.py': 'X = 1\n' });
    fs.rmSync(path.join(repo, 'pkg/gen1.py'));
    await indexRepository({ repo, db: writer, workers: 0 });
    expect(changedSince(reader, generation)).toEqual(expect.arrayContaining(['pkg/gen0.py', 'pkg/gen1.py']));
    expect(changedSince(reader, generation)).not.toContain('pkg/core.py');
    expect(changedSince(reader, -5)).toBeNull();
  });
});
