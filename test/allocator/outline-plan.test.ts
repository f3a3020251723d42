import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collapsedLength, collapsedStartsWith, declarationLines, outlinePlan, outlineWithin } from '../../allocator/outline.ts';
import { renderInput } from '../../allocator/render.ts';
import type { ObjectText } from '../../allocator/types.ts';
import { getTokenizer, type Tokenizer } from '../../indexer/tokenizer.ts';

const collapse = (s: string): string => s.replace(/\s+/g, ' ').trim();
// Lines of code-like text with every kind of blank the pattern `\s` knows (tabs, no-break and ideographic spaces...).
const blank = fc.constantFrom(' ', '  ', '\t', '\u00a0', '\u2003', '\u3000', '\ufeff', '\u000b', '\u2028');
const piece = fc.oneof(fc.constantFrom('def', 'f(', 'a,', 'b):', '=', 'x', '\u00e9', '->', 'int'), blank);
const line = fc.array(piece, { maxLength: 12 }).map((p) => p.join(''));

describe('outline plans measure lines collapsed without building them', () => {
  it('property: collapsedStartsWith and collapsedLength agree with collapsing the line', () => {
    fc.assert(fc.property(line, line, fc.nat(14), (l, s, cut) => {
      const probe = collapse(s).slice(0, cut);
      expect(collapsedLength(l)).toBe(collapse(l).length);
      expect(collapsedStartsWith(l, probe)).toBe(collapse(l).startsWith(probe));
      // A prefix of the line itself always matches; so does the collapsed line's own prefix.
      expect(collapsedStartsWith(l, collapse(l).slice(0, cut))).toBe(true);
    }), { numRuns: 500 });
  });

  it('property: a declaration ends where its collapsed text reaches the signature\'s length, blank lines adding nothing', () => {
    fc.assert(fc.property(fc.array(line, { minLength: 1, maxLength: 8 }), fc.nat(7), (lines, k) => {
      const signature = collapse(lines.slice(0, Math.min(k, lines.length - 1) + 1).join(' '));
      const [start, end] = declarationLines(lines, 0, lines.length - 1, signature);
      const joined = (a: number, b: number) => collapse(lines.slice(a, b + 1).join(' '));
      // The shortest run of lines from `start` whose collapsed text is as long as the signature (or all of them).
      expect(end === lines.length - 1 || joined(start, end).length >= signature.length).toBe(true);
      if (end > start) expect(joined(start, end - 1).length).toBeLessThan(signature.length);
    }), { numRuns: 300 });
  });
});

/** A generated module of `n` two-line functions, the shape of SymPy's rubi rules. */
function generatedModule(n: number): { root: ObjectText; objects: ObjectText[] } {
  const lines = ['"""Generated. Never edit it."""', ''];
  const objects: ObjectText[] = [];
  for (let k = 0; k < n; k++) {
    const start = lines.length + 1;
    lines.push(`def replacement${k}(a, b, c, x):`, `    return Simp(a*x**${k} + b*c, x)`, '');
    objects.push({
      id: `f${k}`, path: 'rules/gen.py', name: `replacement${k}`, qualifiedName: `gen.replacement${k}`, kind: 'function',
      signature: `def replacement${k}(a, b, c, x)`, startLine: start, endLine: start + 1, text: lines.slice(start - 1, start + 1).join('\n'),
    });
  }
  const root: ObjectText = {
    id: 'mod', path: 'rules/gen.py', name: 'gen', qualifiedName: 'gen', kind: 'module', signature: '', startLine: 1, endLine: lines.length,
    text: lines.join('\n'),
  };
  return { root, objects: [root, ...objects] };
}

/** A tokenizer that counts the lines it is asked about (each call with one line and its newline). */
function countingTokenizer(): Tokenizer & { lineCalls: number } {
  const real = getTokenizer('cl100k_base');
  const t = {
    name: real.name,
    lineCalls: 0,
    count(text: string) {
      if (text.startsWith('\n') && !text.includes('\n', 1)) t.lineCalls++;
      return real.count(text);
    },
  };
  return t;
}

describe('an outline reads and counts only the members it has room for', () => {
  const { root, objects } = generatedModule(2000);
  const input = renderInput(root);
  /** The module's members, counting how often their signatures are read (each listing reads its member's once). */
  function watched() {
    const reads = { n: 0 };
    const fiber = objects.map((o) => (o === root ? o : Object.defineProperty({ ...o }, 'signature', {
      get: () => { reads.n++; return o.signature; }, enumerable: true,
    })));
    return { fiber, reads };
  }

  it('a complete outline of a module of 2,000 members in 200 tokens: null, after reading and counting a few listings', () => {
    const tok = countingTokenizer();
    const { fiber, reads } = watched();
    expect(outlineWithin(input, outlinePlan(root, input, fiber), 200, tok, { touched: [], opening: 15 })).toBeNull();
    expect(reads.n).toBeLessThan(50);
    expect(tok.lineCalls).toBeLessThan(50);
  });

  it('grown within 1,500 tokens: the members in order while they fit, a listing counted only up to the line that overflows, none counted twice', () => {
    const tok = countingTokenizer();
    const plan = outlinePlan(root, input, watched().fiber);
    const o = outlineWithin(input, plan, 1500, tok, { touched: [], opening: 'grow' })!;
    const shown = [...o.shown].map((i) => input.lines[i]);
    expect(shown).toContain('def replacement0(a, b, c, x):');
    expect(shown).not.toContain('def replacement1999(a, b, c, x):');
    expect(o.tokens).toBeLessThanOrEqual(1500);
    // A listing is counted only up to its line that overflows: one line of each two-line member once the room is
    // gone, not all 4,000 listed lines.
    const counted = tok.lineCalls;
    expect(counted).toBeLessThan(2000 + 100);
    // The same outline again (the fill and the depth step outline a block more than once) counts nothing anew.
    expect(outlineWithin(input, plan, 1500, tok, { touched: [], opening: 'grow' })!.text).toBe(o.text);
    expect(tok.lineCalls).toBe(counted);
  });
});
