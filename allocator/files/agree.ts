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

// Top-agreement rule (answer sources whose answers are correlated rankings, like the offline localizer's): after the
// first agreed file, a file is kept only when some answer ranks it first; agreeing on a file neither answer thinks
// most likely is weak evidence, and a whole file shown on it costs the model its length.
export function agreeAtTheTop(agreed: readonly string[], answers: readonly (readonly string[])[]): string[] {
  const firsts = new Set(answers.map((a) => a[0]).filter((p): p is string => p !== undefined));
  return agreed.filter((p, i) => i === 0 || firsts.has(p));
}

// No-agreement rule: when no two answers share a file, the first answer's first file is shown (an empty context helps
// no one), and the output says so.
export function firstAnswerFirst(answers: readonly (readonly string[])[]): string[] {
  const first = answers.find((a) => a.length > 0);
  return first ? [first[0]] : [];
}
