import { describe, expect, it } from 'vitest';
import { buildModuleIndex } from '../../indexer/resolve/modules.ts';
import { resolveReferences, type ResolverObject, type ResolverReference } from '../../indexer/resolve/resolve.ts';

const obj = (id: string, path: string, name: string, kind: ResolverObject['kind'] = 'function', parentId: string | null = `mod:${path}`): ResolverObject => ({ id, path, name, kind, parentId });
const mod = (path: string): ResolverObject => ({ id: `mod:${path}`, path, name: path, kind: 'module', parentId: null });
let nextId = 1;
const ref = (r: Partial<ResolverReference> & Pick<ResolverReference, 'path' | 'kind' | 'name' | 'sourceId'>): ResolverReference => ({
  id: nextId++, language: 'typescript', qualifier: null, module: null, alias: null, ...r,
});

describe('module specifiers', () => {
  const index = buildModuleIndex(['src/util/index.ts', 'src/app.ts', 'pkg/core/__init__.py', 'pkg/core/basic.py', 'core/numbers.py', 'store/memory.go', 'store/store.go', 'src/shapes/mod.rs']);
  it('resolves relative and package-marker paths', () => {
    expect(index.resolve('./util', 'src/app.ts', 'typescript')).toEqual(['src/util/index.ts']);
    expect(index.resolve('./util/index.js', 'src/app.ts', 'typescript')).toEqual(['src/util/index.ts']);
    expect(index.resolve('.basic', 'pkg/core/__init__.py', 'python')).toEqual(['pkg/core/basic.py']);
    expect(index.resolve('..core', 'pkg/core/basic.py', 'python')).toEqual(['pkg/core/__init__.py']);
  });
  it('finds absolute modules below an import root the repository does not start at', () => {
    expect(index.resolve('sympy.core.numbers', 'core/add.py', 'python')).toEqual(['core/numbers.py']);
    expect(index.resolve('example.com/kv/store', 'cmd/main.go', 'go')).toEqual(['store/memory.go', 'store/store.go']);
    expect(index.resolve('crate::shapes', 'src/lib.rs', 'rust')).toEqual(['src/shapes/mod.rs']);
  });
  it('leaves modules outside the repository unresolved', () => {
    expect(index.resolve('vitest', 'src/app.ts', 'typescript')).toEqual([]);
    expect(index.resolve('numpy.linalg', 'core/add.py', 'python')).toEqual([]);
  });
  it('names a Python module by a top-level name only where it lies below an import root, not inside a package', () => {
    const py = buildModuleIndex(['__init__.py', 'db/__init__.py', 'db/models/__init__.py', 'db/models/functions/__init__.py', 'db/models/functions/datetime.py', 'forms/templates/datetime.html', 'scripts/release.py', 'src/app/__init__.py', 'src/app/cli.py']);
    expect(py.resolve('datetime', 'utils/timesince.py', 'python')).toEqual([]);
    expect(py.resolve('functions.datetime', 'utils/timesince.py', 'python')).toEqual([]);
    expect(py.resolve('django.db.models.functions.datetime', 'utils/timesince.py', 'python')).toEqual(['db/models/functions/datetime.py']);
    expect(py.resolve('db.models', 'utils/timesince.py', 'python')).toEqual(['db/models/__init__.py']);
    // folders that are no package are roots: a script folder, a src layout
    expect(py.resolve('release', 'scripts/build.py', 'python')).toEqual(['scripts/release.py']);
    expect(py.resolve('app.cli', 'tests/test_cli.py', 'python')).toEqual(['src/app/cli.py']);
  });
});

describe('reference resolution', () => {
  const objects = [
    mod('src/app.ts'), mod('src/util.ts'), mod('src/worker.ts'),
    obj('run', 'src/app.ts', 'run'),
    obj('fmt', 'src/util.ts', 'format'),
    obj('W', 'src/worker.ts', 'Worker', 'class'),
    obj('W.describe', 'src/worker.ts', 'describe', 'method', 'W'),
    obj('W.start', 'src/worker.ts', 'start', 'method', 'W'),
    obj('W.stop', 'src/worker.ts', 'stop', 'method', 'W'),
  ];
  it('follows imports with aliases, self/this members and unique names', () => {
    const imp = ref({ sourceId: 'mod:src/app.ts', path: 'src/app.ts', kind: 'import', name: 'format', module: './util', alias: 'fmtx' });
    const call = ref({ sourceId: 'run', path: 'src/app.ts', kind: 'call', name: 'fmtx' });
    const self = ref({ sourceId: 'W.start', path: 'src/worker.ts', kind: 'call', name: 'stop', qualifier: 'this' });
    const uniq = ref({ sourceId: 'run', path: 'src/app.ts', kind: 'call', name: 'Worker' });
    const t = resolveReferences(objects, [imp, call, self, uniq]);
    expect(t.get(imp.id)).toBe('fmt');
    expect(t.get(call.id)).toBe('fmt');
    expect(t.get(self.id)).toBe('W.stop');
    expect(t.get(uniq.id)).toBe('W');
  });
  it('does not guess a target for names imported from outside the repository', () => {
    const imp = ref({ sourceId: 'mod:src/app.ts', path: 'src/app.ts', kind: 'import', name: 'describe', module: 'vitest' });
    const call = ref({ sourceId: 'run', path: 'src/app.ts', kind: 'call', name: 'describe' });
    const nsImp = ref({ sourceId: 'mod:src/app.ts', path: 'src/app.ts', kind: 'import', name: 'path', module: 'path', alias: 'path' });
    const member = ref({ sourceId: 'run', path: 'src/app.ts', kind: 'call', name: 'start', qualifier: 'path' });
    const t = resolveReferences(objects, [imp, call, nsImp, member]);
    expect(t.has(imp.id)).toBe(false);
    expect(t.has(call.id)).toBe(false);
    expect(t.has(member.id)).toBe(false);
  });
  it('follows re-exports through package modules and wildcard imports, whatever order files come in', () => {
    const objs = [mod('app.py'), mod('pkg/__init__.py'), mod('pkg/core/__init__.py'), mod('pkg/core/basic.py'), obj('Basic', 'pkg/core/basic.py', 'Basic', 'class')];
    const py = (path: string, name: string, module: string) => ref({ sourceId: `mod:${path}`, path, kind: 'import', name, module, language: 'python' });
    const app = py('app.py', 'Basic', 'pkg');
    const top = py('pkg/__init__.py', '*', '.core');
    const core = py('pkg/core/__init__.py', 'Basic', '.basic');
    for (const order of [[app, top, core], [core, top, app]]) {
      const t = resolveReferences(objs, order);
      expect(t.get(app.id)).toBe('Basic');
      expect(t.get(core.id)).toBe('Basic');
    }
  });
});
