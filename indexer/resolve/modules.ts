import path from 'node:path';
import type { Language } from '../types.ts';
import { psr4Candidates, type Psr4Root } from './psr4.ts';
import { SuffixIndex } from './suffix-index.ts';

/**
 * Where module specifiers point: an index of the repository's files by module
 * key (`pkg/core/__init__.py` -> `pkg/core`, `src/util/index.ts` -> `src/util`)
 * and by every trailing run of key segments, since a repository root need not
 * be an import root (`sympy.core.basic` must find `core/basic.py`).
 */
export interface ModuleIndex {
  /** Files a specifier imported from `fromPath` names (several for a Go package directory). */
  resolve(spec: string, fromPath: string, language: Language): string[];
}

/** The extension a module key drops: the index only ever holds code files. */
const EXT = /\.[A-Za-z0-9+]+$/;
/** What a Python import can name: a source or stub file (not a template that happens to share the name). */
const PYTHON_MODULE = /\.pyi?$/;
const PACKAGE_MARKER = new Set(['__init__', 'index', 'mod', 'lib', 'main', 'init']);

export function moduleKey(file: string): string {
  const parts = file.replace(EXT, '').split('/');
  if (parts.length > 1 && PACKAGE_MARKER.has(parts.at(-1)!)) parts.pop();
  return parts.join('/');
}

function addTo(map: Map<string, string[]>, key: string, value: string) {
  const list = map.get(key);
  if (list) {
    if (!list.includes(value)) list.push(value);
  } else map.set(key, [value]);
}

/** `PlugWithCustomOptions` -> `plug_with_custom_options`, as Mix names a module's file. */
function snakeCase(s: string): string {
  return s.replace(/([a-z\d])([A-Z])/g, '$1_$2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2').toLowerCase();
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** What a repository declares about where its modules live, beyond their paths (composer.json's PSR-4 roots). */
export interface ModuleRoots {
  psr4: Psr4Root[];
}

export function buildModuleIndex(files: string[], roots: ModuleRoots = { psr4: [] }): ModuleIndex {
  const present = new Set(files);
  const byKey = new Map<string, string[]>();
  const keyed: [string, string][] = [];
  const dirFiles = new Map<string, string[]>();
  /** Whole paths, extension kept, by every trailing run of segments (`#include "util/x.h"`, `source lib/a.sh`). */
  const paths: [string, string][] = [];
  for (const f of files) {
    if (!EXT.test(f)) continue;
    const key = moduleKey(f);
    addTo(byKey, key, f);
    keyed.push([key, f]);
    paths.push([f, f]);
    const dir = path.posix.dirname(f);
    addTo(dirFiles, dir, f);
  }
  /** Files by every trailing run of their module keys' segments, whole paths by every run of theirs, folders by theirs. */
  const bySuffix = new SuffixIndex(keyed);
  const byPathSuffix = new SuffixIndex(paths);
  const dirBySuffix = new SuffixIndex([...dirFiles.keys()].map((d) => [d, d] as const));

  const nearest = (hit: string[], fromPath: string) => [...hit].sort((a, b) => commonPrefix(b, fromPath) - commonPrefix(a, fromPath) || (a < b ? -1 : 1))[0];
  /** A file named by a path with its extension: beside the importing file first, then the nearest file ending with it. */
  const byFilePath = (spec: string, fromPath: string): string[] => {
    const here = path.posix.dirname(fromPath);
    const beside = path.posix.normalize(here === '.' ? spec : `${here}/${spec}`);
    if (byPathSuffix.get(beside)?.includes(beside)) return [beside];
    const clean = path.posix.normalize(spec).replace(/^(\.\.?\/)+/, '');
    const hit = byPathSuffix.get(clean);
    return hit ? [nearest(hit, fromPath)] : [];
  };
  /** The files of the one folder a trailing run of segments names (a Go package, a C# namespace, a Swift module). */
  const folder = (segs: string[], accept: (f: string) => boolean): string[] => {
    for (let k = 0; k < segs.length; k++) {
      const dirs = dirBySuffix.get(segs.slice(k).join('/'));
      if (dirs?.length === 1) return (dirFiles.get(dirs[0]) ?? []).filter(accept);
    }
    return [];
  };

  /**
   * Drops leading segments until a suffix names exactly one module; the full path may name several (the nearest wins).
   * `importable(file, depth)` keeps only files the suffix of `depth` segments can name.
   */
  const bySegments = (segs: string[], fromPath: string, importable?: (file: string, depth: number) => boolean): string[] => {
    for (let k = 0; k < segs.length; k++) {
      const all = bySuffix.get(segs.slice(k).join('/'));
      const hit = importable ? all?.filter((f) => importable(f, segs.length - k)) : all;
      if (!hit?.length) continue;
      // A shorter suffix is trusted only when no other file has it at all (importable or not): as before, no guess.
      if (all!.length === 1) return hit;
      if (k === 0) return [nearest(hit, fromPath)];
    }
    return [];
  };

  /** Python packages: folders holding an `__init__.py`. */
  const packages = new Set(files.filter((f) => /(^|\/)__init__\.pyi?$/.test(f)).map((f) => path.posix.dirname(f)));
  /**
   * Python's import roots: an absolute `a.b` names the Python file `<root>/a/b` only below a root, the repository's top or a folder
   * that is no package (`src/`, `tests/`); inside a package, a file is importable only under its package's name
   * (`import datetime` is not Django's `db/models/functions/datetime.py`).
   */
  const belowPythonRoot = (file: string, depth: number): boolean => {
    if (!PYTHON_MODULE.test(file)) return false;
    const segs = moduleKey(file).split('/');
    const root = segs.slice(0, segs.length - depth).join('/');
    return root === '' || !packages.has(root);
  };

  const relative = (base: string, rest: string[]): string[] => {
    const key = moduleKey(path.posix.normalize([base, ...rest].filter(Boolean).join('/')));
    return byKey.get(key) ?? [];
  };

  return {
    resolve(spec, fromPath, language) {
      const here = path.posix.dirname(fromPath);
      switch (language) {
        case 'python': {
          const dots = spec.match(/^\.*/)![0].length;
          const rest = spec.slice(dots).split('.').filter(Boolean);
          if (dots === 0) return bySegments(rest, fromPath, belowPythonRoot);
          let base = here;
          for (let i = 1; i < dots; i++) base = path.posix.dirname(base);
          return relative(base === '.' ? '' : base, rest);
        }
        case 'typescript':
        case 'tsx':
        case 'javascript': {
          const clean = spec.replace(EXT, '');
          if (clean.startsWith('.')) return relative(here === '.' ? '' : here, [clean]);
          return bySegments(clean.split('/').filter((s) => s && !s.startsWith('@')), fromPath);
        }
        case 'java':
          return bySegments(spec.split('.'), fromPath);
        case 'go':
          return folder(spec.split('/'), (f) => f.endsWith('.go') && !f.endsWith('_test.go'));
        // `#include "util/x.h"`, `source lib/a.sh`, `@import("x.zig")`: a file by its path; `$DIR/` prefixes dropped.
        case 'c':
        case 'cpp':
        case 'bash':
        case 'zig':
          return byFilePath(spec.replace(/^(\$\{?\w+\}?\/)+/, ''), fromPath);
        // `using App.Util;`: the folder the namespace names (namespaces mirror folders by convention).
        case 'csharp':
          return folder(spec.split('.'), (f) => f.endsWith('.cs'));
        // `use App\Models\User`: composer.json's PSR-4 roots name the file (`App\` -> app/Models/User.php);
        // without one that holds it, the file whose path ends with the trailing segments (PSR-4 by convention).
        case 'php': {
          const declared = psr4Candidates(roots.psr4, spec).find((f) => present.has(f));
          return declared ? [declared] : bySegments(spec.split('\\').filter(Boolean), fromPath);
        }
        // `require 'rack/request'` below a load path; `require_relative` (kept as `./x`) beside the file.
        case 'ruby':
          if (spec.startsWith('.')) return relative(here === '.' ? '' : here, [spec.replace(/\.rb$/, '')]);
          return bySegments(spec.replace(/\.rb$/, '').split('/'), fromPath);
        // `import a.b.C`: the file named after C, else the package folder a/b.
        case 'kotlin':
        case 'scala': {
          const segs = spec.split('.');
          const file = bySegments(segs, fromPath);
          return file.length ? file : folder(segs, (f) => f.endsWith(language === 'kotlin' ? '.kt' : '.scala'));
        }
        // `import Alamofire`: a module is a target folder (Sources/Alamofire).
        case 'swift':
          return folder([spec], (f) => f.endsWith('.swift'));
        // `import 'package:app/src/x.dart'` is lib/src/x.dart of the package; other URIs are relative.
        case 'dart': {
          if (/^dart:/.test(spec)) return [];
          const pkg = spec.match(/^package:[^/]+\/(.*)$/);
          return pkg ? byFilePath(`lib/${pkg[1]}`, fromPath) : byFilePath(spec, fromPath);
        }
        // `alias App.Web.Router`: lib/app/web/router.ex by Mix's convention (segments in snake case).
        case 'elixir':
          return bySegments(spec.split('.').map(snakeCase), fromPath);
        // `import Data.Map.Strict`: Data/Map/Strict.hs below a source folder.
        case 'haskell':
          return bySegments(spec.split('.'), fromPath);
        // `open Helper`: helper.ml (a module is its file, capitalised); Dune's `Lib.Helper` is lib's helper.ml.
        case 'ocaml':
        case 'ocaml_interface': {
          const segs = spec.split('.').map((s) => s.charAt(0).toLowerCase() + s.slice(1));
          const ml = bySegments(segs, fromPath).filter((f) => f.endsWith('.ml'));
          return ml.length ? ml : bySegments(segs.slice(-1), fromPath).filter((f) => f.endsWith('.ml'));
        }
        // `require("a.b")`: a/b.lua or a/b/init.lua below a package path.
        case 'lua':
          return bySegments(spec.replace(/\.lua$/, '').split(/[./]/), fromPath);
        case 'rust': {
          const segs = spec.split('::').filter(Boolean);
          let base = here;
          while (segs[0] === 'self' || segs[0] === 'super') {
            if (segs.shift() === 'super') base = path.posix.dirname(base);
          }
          if (segs[0] === 'crate') return bySegments(segs.slice(1), fromPath);
          return base !== here ? relative(base, segs) : bySegments(segs, fromPath);
        }
        default:
          return [];
      }
    },
  };
}
