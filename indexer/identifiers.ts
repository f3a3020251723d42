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

/** `[A-Za-z_$]`, what starts an identifier (`IDENT`). */
const startsIdentifier = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 36;
/** `[A-Za-z0-9_$]`, what continues one. */
const continuesIdentifier = (c: number) => startsIdentifier(c) || (c >= 48 && c <= 57);

/**
 * The parts of every compound identifier in a text, space-separated: the
 * `parts` column of the full-text index, which lets `parse` find
 * `parseConfigFile` and `parse_config_file`.
 * Scans the text once (the identifiers `IDENT` matches, in order) without making a string of the identifiers that
 * cannot be compound: lower-case letters, with at most a capital first, are one part (`splitIdentifier`).
 */
export function identifierParts(text: string): string {
  let out = '';
  const n = text.length;
  let i = 0;
  while (i < n) {
    if (!startsIdentifier(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    let onePart = true;
    for (i++; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c >= 97 && c <= 122) continue;
      if (!continuesIdentifier(c)) break;
      onePart = false;
    }
    const first = text.charCodeAt(start);
    if (onePart && first !== 95 && first !== 36) continue;
    const id = text.slice(start, i);
    let parts = partsCache.get(id);
    if (parts === undefined) {
      const split = splitIdentifier(id);
      parts = split.length > 1 ? split.join(' ') : '';
      if (partsCache.size > 200_000) partsCache.clear();
      partsCache.set(id, parts);
    }
    if (parts) out = out ? `${out} ${parts}` : parts;
  }
  return out;
}
