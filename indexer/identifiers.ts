/** Identifier-like tokens of a text: what code search treats as words. */
const IDENT = /[A-Za-z_$][A-Za-z0-9_$]*/g;

/**
 * Identifier-like tokens in order of appearance.
 * @example identifiers('self.parse_config(path)') // ['self', 'parse_config', 'path']
 */
export function identifiers(text: string): string[] {
  return text.match(IDENT) ?? [];
}

/**
 * Lower-cased parts of one identifier, split on `_`, `$`, digits and camelCase
 * boundaries (acronyms kept together).
 * @example splitIdentifier('parseHTTPConfig_file2') // ['parse', 'http', 'config', 'file', '2']
 */
export function splitIdentifier(identifier: string): string[] {
  return identifier
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])([0-9])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((p) => p.toLowerCase());
}

/** Identifiers repeat a lot within a repository: their parts are memoised (bounded). */
const partsCache = new Map<string, string>();

/**
 * The parts of every compound identifier in a text, space-separated: the
 * `parts` column of the full-text index, which lets `parse` find
 * `parseConfigFile` and `parse_config_file`.
 */
export function identifierParts(text: string): string {
  const out: string[] = [];
  for (const id of identifiers(text)) {
    let parts = partsCache.get(id);
    if (parts === undefined) {
      const split = splitIdentifier(id);
      parts = split.length > 1 ? split.join(' ') : '';
      if (partsCache.size > 200_000) partsCache.clear();
      partsCache.set(id, parts);
    }
    if (parts) out.push(parts);
  }
  return out.join(' ');
}
