/**
 * Localization by agreement: independent answers to "which files must change?"
 * are reduced to the files they agree on. Pure.
 */
import { isDocPath, isTestPath, normalizePath } from '../../indexer/paths.ts';
import type { Localization } from './types.ts';

export type DroppedPath = Localization['dropped'][number];

/**
 * An answer as the pipeline uses it: normalised, first occurrence kept, tests,
 * documentation and paths the index does not hold removed (each removal recorded).
 */
export function cleanAnswer(paths: readonly string[], indexed: ReadonlySet<string>, dropped: DroppedPath[] = []): string[] {
  const out: string[] = [];
  for (const raw of paths) {
    const p = normalizePath(raw);
    if (!p || out.includes(p)) continue;
    const reason = !indexed.has(p) ? 'not-indexed' : isTestPath(p) ? 'test' : isDocPath(p) ? 'doc' : null;
    if (reason) {
      if (!dropped.some((d) => d.path === p)) dropped.push({ path: p, reason });
      continue;
    }
    out.push(p);
  }
  return out;
}

// Agreement rule: "keep the files both name (in the first answer's order)".
export function agreeTwo(first: readonly string[], second: readonly string[]): string[] {
  const other = new Set(second);
  return first.filter((p) => other.has(p));
}

// Third-answer rule: "if they share none, ask a third and keep what it shares with either" (in the third's order).
export function agreeThird(first: readonly string[], second: readonly string[], third: readonly string[]): string[] {
  const either = new Set([...first, ...second]);
  return third.filter((p) => either.has(p));
}
