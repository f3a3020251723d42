/**
 * The text an object is embedded from: its qualified name, signature and
 * docstring, then the head of its source. Models see a few hundred tokens at
 * most (MiniLM: 256), so the head is what carries the meaning; the same text
 * always hashes the same, which is what the vector cache keys on.
 */

/** Lines of source kept after the signature: past this, models truncate anyway. */
export const HEAD_LINES = 30;
export const MAX_CHARS = 1500;

/** Object kinds worth a vector: modules and text files are too long to be one point. */
export const EMBEDDED_KINDS = ['function', 'method', 'class', 'constant', 'interface', 'type', 'struct', 'enum', 'trait'] as const;
/** The same, as an SQL list: `('function', 'method', ...)`. */
export const EMBEDDED_KIND_LIST = `(${EMBEDDED_KINDS.map((k) => `'${k}'`).join(', ')})`;

/**
 * @example objectEmbeddingText({ qualifiedName: 'Cart.total', signature: 'def total(self)', docstring: null }, ['def total(self):', '    return 1'])
 *   // 'Cart.total\ndef total(self)\ndef total(self):\n    return 1'
 */
export function objectEmbeddingText(o: { qualifiedName: string; signature: string; docstring: string | null }, lines: readonly string[]): string {
  const head = lines.slice(0, HEAD_LINES).join('\n');
  return [o.qualifiedName, o.signature, o.docstring ?? '', head].filter(Boolean).join('\n').slice(0, MAX_CHARS);
}

