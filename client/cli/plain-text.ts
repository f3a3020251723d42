/**
 * The line that names what was indexed as plain text for want of a grammar, by
 * extension (`.md 40, .json 12, .m 3`), so a language allot cannot parse is seen,
 * not hidden inside a `text` count.
 */
export function plainTextLine(byExtension: Record<string, number> | undefined, shown = 8): string {
  const entries = Object.entries(byExtension ?? {});
  if (!entries.length) return 'none';
  const total = entries.reduce((n, [, c]) => n + c, 0);
  const head = entries.slice(0, shown).map(([e, n]) => `${e} ${n}`).join(', ');
  const rest = entries.length > shown ? `, ${entries.length - shown} more extension(s)` : '';
  return `${total} file(s) without a grammar: ${head}${rest}`;
}
