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

/**
 * The parts of every compound identifier in a text, space-separated: the
 * `parts` column of the full-text index, which lets `parse` find
 * `parseConfigFile` and `parse_config_file`.
 */
export function identifierParts(text: string): string {
  const out: string[] = [];
  for (const id of identifiers(text)) {
    const parts = splitIdentifier(id);
    if (parts.length > 1) out.push(...parts);
  }
  return out.join(' ');
}
