/**
 * How long one file may take to parse, counted in the parser's own progress steps (tree-sitter calls the progress
 * callback once per fixed number of parse operations), not in time: a file then parses to the same objects on a
 * loaded machine as on a quiet one, so the index never depends on the load it was built under. A wall-clock
 * backstop still bounds a step that never ends.
 *
 * @example
 * const budget = parseBudget();
 * const tree = parser.parse(text, null, { progressCallback: budget.progress });
 * if (!tree) // the budget ran out: index the file as text
 */

/** Progress steps one file may spend (its first parse and any re-parse of broken regions together): about 25-35 steps
 * a millisecond on Python, so 5-10 s of one core; a 1.5 MB SymPy test file takes 42,000. */
export const PARSE_STEPS = 250_000;
/** The backstop, far above what the step budget allows on any machine that is not stalled. */
export const PARSE_BACKSTOP_MS = 120_000;

export interface ParseBudget {
  /** The progress callback: true (stop) once the budget is spent. */
  progress: () => boolean;
  /** Whether the budget is spent (checked before starting another parse). */
  exhausted: () => boolean;
}

export function parseBudget(steps = PARSE_STEPS, backstopMs = PARSE_BACKSTOP_MS): ParseBudget {
  const backstop = performance.now() + backstopMs;
  let spent = 0;
  const exhausted = () => spent >= steps || performance.now() > backstop;
  return {
    progress: () => {
      spent++;
      return exhausted();
    },
    exhausted,
  };
}
