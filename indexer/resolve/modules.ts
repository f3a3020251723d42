import path from 'node:path';
import type { Language } from '../types.ts';

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

const EXT = /\.(py|pyi|ts|tsx|mts|cts|js|jsx|mjs|cjs|java|go|rs)$/;
const PACKAGE_MARKER = new Set(['__init__', 'index', 'mod', 'lib', 'main']);

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

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

export function buildModuleIndex(files: string[]): ModuleIndex {
  const byKey = new Map<string, string[]>();
  const bySuffix = new Map<string, string[]>();
  const dirFiles = new Map<string, string[]>();
  const dirBySuffix = new Map<string, string[]>();
  for (const f of files) {
    if (!EXT.test(f)) continue;
    const key = moduleKey(f);
    addTo(byKey, key, f);
    const segs = key.split('/');
    for (let k = 0; k < segs.length; k++) addTo(bySuffix, segs.slice(k).join('/'), f);
    const dir = path.posix.dirname(f);
    addTo(dirFiles, dir, f);
    const dsegs = dir.split('/');
    for (let k = 0; k < dsegs.length; k++) addTo(dirBySuffix, dsegs.slice(k).join('/'), dir);
  }

  /** Drops leading segments until a suffix names exactly one module; the full path may name several (the nearest wins). */
  const bySegments = (segs: string[], fromPath: string): string[] => {
    for (let k = 0; k < segs.length; k++) {
      const hit = bySuffix.get(segs.slice(k).join('/'));
      if (!hit) continue;
      if (hit.length === 1) return hit;
      if (k === 0) return [[...hit].sort((a, b) => commonPrefix(b, fromPath) - commonPrefix(a, fromPath) || (a < b ? -1 : 1))[0]];
    }
    return [];
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
          if (dots === 0) return bySegments(rest, fromPath);
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
        case 'go': {
          const segs = spec.split('/');
          for (let k = 0; k < segs.length; k++) {
            const dirs = dirBySuffix.get(segs.slice(k).join('/'));
            if (dirs?.length === 1) return (dirFiles.get(dirs[0]) ?? []).filter((f) => f.endsWith('.go') && !f.endsWith('_test.go'));
          }
          return [];
        }
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
