/**
 * The indexer's ignore rules as a predicate for the watcher: built-in
 * `DEFAULT_IGNORES`, `.git/info/exclude`, and `.gitignore` / `.allotignore` at
 * every level, applied exactly as `indexer/discover.ts` applies them (layers
 * from the root down, the last matching rule wins, nothing below an ignored
 * folder). Rule files are read lazily and cached; `reset()` drops the cache
 * when one of them changes.
 *
 * TODO(indexer): discover.ts could export this predicate so the two can never
 * drift apart; until then the semantics are mirrored here and tested against
 * discoverFiles() in test/daemon/ignore-rules.test.ts.
 */
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { DEFAULT_IGNORES, readRules, RULE_FILE_NAMES } from '../indexer/discover.ts';

/** Files whose change alters what is ignored: the whole tree must be re-discovered. */
export const RULE_FILES: ReadonlySet<string> = new Set(RULE_FILE_NAMES);

interface Layer {
  base: string;
  rules: Ignore;
}

export interface IgnoreMatcher {
  /** Whether discovery would leave `rel` (repo-relative, `/`-separated) out. */
  isIgnored(rel: string, isDir: boolean): boolean;
  /** Forgets cached rule files (after a .gitignore or .allotignore changed). */
  reset(): void;
}

function ignoredBy(layers: Layer[], rel: string, isDir: boolean): boolean {
  let ignored = false;
  for (const { base, rules } of layers) {
    const sub = base ? rel.slice(base.length + 1) : rel;
    const r = rules.test(isDir ? `${sub}/` : sub);
    if (r.ignored) ignored = true;
    else if (r.unignored) ignored = false;
  }
  return ignored;
}

export function createIgnoreMatcher(root: string): IgnoreMatcher {
  let layersOf = new Map<string, Layer[]>();
  let dirIgnored = new Map<string, boolean>();

  /** The layers that apply to entries of folder `dir` ('' is the root). */
  const layers = (dir: string): Layer[] => {
    const cached = layersOf.get(dir);
    if (cached) return cached;
    let parent: Layer[];
    if (dir === '') {
      const top = ignore().add(DEFAULT_IGNORES);
      const exclude = readRules(path.join(root, '.git', 'info', 'exclude'));
      if (exclude) top.add(exclude);
      parent = [{ base: '', rules: top }];
    } else {
      parent = layers(parentOf(dir));
    }
    const abs = path.join(root, dir);
    const local = RULE_FILE_NAMES.map((name) => readRules(path.join(abs, name))).filter((x): x is string => x !== null);
    const result = local.length ? [...parent, { base: dir, rules: ignore().add(local.join('\n')) }] : parent;
    layersOf.set(dir, result);
    return result;
  };

  /** A folder is out when it or any folder above it is ignored (discovery never descends into it). */
  const isDirIgnored = (dir: string): boolean => {
    if (dir === '') return false;
    const cached = dirIgnored.get(dir);
    if (cached !== undefined) return cached;
    const parent = parentOf(dir);
    const result = isDirIgnored(parent) || ignoredBy(layers(parent), dir, true);
    dirIgnored.set(dir, result);
    return result;
  };

  return {
    isIgnored(rel, isDir) {
      if (rel === '' || rel === '.') return false;
      if (rel.startsWith('../') || rel === '..' || path.isAbsolute(rel)) return true;
      if (isDir) return isDirIgnored(rel);
      const parent = parentOf(rel);
      return isDirIgnored(parent) || ignoredBy(layers(parent), rel, false);
    },
    reset() {
      layersOf = new Map();
      dirIgnored = new Map();
    },
  };
}

function parentOf(rel: string): string {
  const i = rel.lastIndexOf('/');
  return i < 0 ? '' : rel.slice(0, i);
}
