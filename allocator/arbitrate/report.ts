import type { Arbitration } from './types.ts';

/**
 * An arbitration as text for a person or a model: the choice, the reason, then
 * each witness's direction with its summary and evidence lines.
 * @example arbitrationText(arbitrate(a, b, opts, index)).split('\n')[0] // 'choice: alternative'
 */
export function arbitrationText(r: Arbitration): string {
  const out: string[] = [`choice: ${r.choice}`, `reason: ${r.reason}`, ''];
  for (const w of r.witnesses) {
    const [summary, ...rest] = w.evidence;
    out.push(`${w.type.padEnd(12)} ${w.direction.padEnd(12)} ${summary?.detail ?? ''}`);
    for (const e of rest) {
      const where = [e.program ?? 'both', e.line !== null ? `line ${e.line}` : null].filter(Boolean).join(' ');
      out.push(`${' '.repeat(26)}${where}: ${e.detail}`);
    }
  }
  return out.join('\n');
}
