import path from 'node:path';
import { buildModuleIndex, moduleKey, type ModuleIndex } from '../resolve/modules.ts';
import type { CodeObject, Language } from '../types.ts';
import type { DB } from './open.ts';
import { fiberObjects, fileText, indexedFiles, OBJECT_COLUMNS } from './read.ts';

/** At most this many objects per name (a name like `__init__` has thousands). */
const MAX_NAMED = 500;
const CODE_FILE = /\.(py|pyi|ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

export interface ArbitrateSourceOptions {
  /**
   * The repository folder's name: when the repository root is itself a package
   * (`.../site-packages/sympy`), `sympy.core.basic` names `core/basic.py`.
   */
  repoName?: string;
}

/**
 * The store's side of arbitration's `ArbitrateIndex` (allocator/arbitrate/types.ts):
 * objects by name and by parent, file objects and texts, and module specifiers
 * resolved to repository files. Module resolution is stricter than the
 * indexer's resolver on purpose: a witness must not take `os.path` for a
 * repository file `util/path.py`. Relative specifiers resolve exactly; an
 * absolute Python module must match a file's whole module path (or, with 2+
 * segments, a unique trailing part of it, for `src/` layouts); bare TS/JS
 * specifiers are packages outside the repository unless they name a file's
 * whole module path.
 */
export function storeArbitrateIndex(db: DB, opts: ArbitrateSourceOptions = {}): {
  objectsNamed(name: string): CodeObject[];
  members(id: string): CodeObject[];
  fileObjects(path: string): CodeObject[];
  fileText(path: string): string | null;
  moduleFiles(spec: string, fromPath: string, language: Language): string[];
} {
  const byName = db.prepare(`SELECT ${OBJECT_COLUMNS} FROM objects o JOIN files f ON f.id = o.file_id WHERE o.name = ? ORDER BY f.path, o.start_line LIMIT ${MAX_NAMED}`);
  const byParent = db.prepare(`SELECT ${OBJECT_COLUMNS} FROM objects o JOIN files f ON f.id = o.file_id WHERE o.parent = (SELECT key FROM objects WHERE id = ?) ORDER BY o.start_line`);
  let modules: { relative: ModuleIndex; exact: Map<string, string[]>; suffix: Map<string, string[]> } | undefined;
  const moduleTables = () => {
    if (modules) return modules;
    const files = indexedFiles(db).map((f) => f.path).filter((p) => CODE_FILE.test(p));
    const exact = new Map<string, string[]>();
    const suffix = new Map<string, string[]>();
    const add = (m: Map<string, string[]>, k: string, f: string) => {
      const list = m.get(k);
      if (!list) m.set(k, [f]);
      else if (!list.includes(f)) list.push(f);
    };
    for (const f of files) {
      const key = moduleKey(f);
      add(exact, key, f);
      if (opts.repoName) add(exact, `${opts.repoName}/${key}`, f);
      const segs = key.split('/');
      for (let k = 1; k < segs.length - 1; k++) add(suffix, segs.slice(k).join('/'), f);
    }
    modules = { relative: buildModuleIndex(files), exact, suffix };
    return modules;
  };
  const family = (f: string, language: Language) => (language === 'python' ? /\.pyi?$/.test(f) : !/\.pyi?$/.test(f));
  return {
    objectsNamed: (name) => byName.all(name) as CodeObject[],
    members: (id) => byParent.all(id) as CodeObject[],
    fileObjects: (p) => fiberObjects(db, p),
    fileText: (p) => fileText(db, p),
    moduleFiles(spec, fromPath, language) {
      const m = moduleTables();
      const pick = (list: string[] | undefined) => (list ?? []).filter((f) => family(f, language));
      if (language === 'python') {
        if (spec.startsWith('.')) return pick(m.relative.resolve(spec, fromPath, language));
        const key = spec.split('.').filter(Boolean).join('/');
        const exact = pick(m.exact.get(key));
        if (exact.length) return exact;
        const suffix = key.includes('/') ? pick(m.suffix.get(key)) : [];
        return suffix.length === 1 ? suffix : [];
      }
      if (spec.startsWith('.')) return pick(m.relative.resolve(spec, fromPath, language));
      return pick(m.exact.get(moduleKey(path.posix.normalize(spec))));
    },
  };
}
