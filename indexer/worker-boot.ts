/**
 * The code a worker thread evaluates to load its entry module. From the
 * JavaScript build the entry is plain JavaScript and is imported as is; from
 * the TypeScript sources (tests, `tsx`) the worker registers tsx first, since
 * a worker does not inherit the loader of the thread that started it.
 */
export function workerBoot(callerUrl: string, entry: string): string {
  // The entry sits next to its caller and shares its extension (.ts in the sources, .js in the build).
  const ext = /\.[cm]?[jt]s$/.exec(new URL(callerUrl).pathname)?.[0] ?? '.js';
  const href = JSON.stringify(new URL(`${entry}${ext}`, callerUrl).href);
  if (!ext.endsWith('ts')) return `import(${href})`;
  return `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => { tsx.register(); return import(${href}); })`;
}
