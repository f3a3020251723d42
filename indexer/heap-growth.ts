import v8 from 'node:v8';

/**
 * How far a V8 heap may grow past what a full collection left alive, while files are indexed and resolved: 1.5x.
 * V8's own factor (up to 4x when collections are fast, as they are for the short-lived match objects of
 * extraction) let every thread's heap swell with garbage: peak RSS on SymPy 443 MB with the default, 342 MB
 * with 1.5x, for the same CPU (whole `allot index` processes, in turn, under load). The flag is process-wide
 * and read at every collection, so it holds for the parse workers started after it and for the thread that
 * writes the store; it is put back when the last holder lets go: a parse pool when it closes, a resolution pass
 * when it ends (150 MB corpus, a whole pass on a resolved index: peak RSS 506 -> 422 MB, 11.67 -> 11.70 CPU-s).
 */
export const INDEXING_HEAP_GROWING_PERCENT = 50;

let holders = 0;

/** Bounds heap growth until the returned release is called (counted: pools may overlap). */
export function boundHeapGrowth(): () => void {
  if (holders++ === 0) v8.setFlagsFromString(`--heap-growing-percent=${INDEXING_HEAP_GROWING_PERCENT}`);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    // 0 is V8's default: its own dynamic factor.
    if (--holders === 0) v8.setFlagsFromString('--heap-growing-percent=0');
  };
}
