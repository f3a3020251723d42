/**
 * Length-preserving repairs of source text before parsing, for constructs a
 * grammar gets wrong. Every offset, line and column stays that of the file, so
 * objects and views still quote the original text.
 */

/**
 * TypeScript ends a type member at a line break, but tree-sitter-typescript
 * reads a generic call signature on the next line (`<P extends string>(h: H): R`
 * after `): R`) as a comparison and loses the rest of the file. A `;` in place of
 * the first indentation character of such a line ends the previous member as
 * TypeScript does. Only lines opening with `<` after a line that ends a type.
 */
export function separateCallSignatures(text: string): string {
  if (!text.includes('\n ') && !text.includes('\n\t')) return text;
  const lines = text.split('\n');
  let previous = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^[ \t]+<([\w\s]|$)/.test(line) && /[>)\]}\w]\s*$/.test(previous)) lines[i] = `;${line.slice(1)}`;
    const code = line.trim();
    if (code && !code.startsWith('//')) previous = line;
  }
  return lines.join('\n');
}
