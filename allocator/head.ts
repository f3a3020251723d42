/**
 * Heads: what a code query needs of the objects it imports, calls and names is
 * how to use them (declaration, docstring, first lines), not a window matched
 * to its words. Such objects (found through structure, `Position.viaStructure`)
 * render as their head, and the budget the K slots leave lists the heads of
 * further ones in rank order, like a repository map of the names at hand.
 */
import type { Tokenizer } from '../indexer/tokenizer.ts';
import { renderInput, renderWindow, type Rendered, type RenderInput } from './render.ts';
import type { ObjectText, Position } from './types.ts';

/**
 * The render input of an object's head: its first `headLines` lines (the whole object when shorter), with the
 * object's full range kept for the descriptor.
 * @example headInput(obj, 15) // obj spans lines 10-80: lines 10-24, described as "10-24 of 10-80"
 */
export function headInput(obj: ObjectText, headLines: number): RenderInput {
  const whole = renderInput(obj);
  if (whole.lines.length <= headLines) return whole;
  return { ...whole, lines: whole.lines.slice(0, headLines), of: { startLine: obj.startLine, endLine: obj.startLine + whole.lines.length - 1 } };
}

export interface FilledHead {
  position: Position;
  input: RenderInput;
  rendered: Rendered;
}

export interface InterfaceFill {
  /** Heads added, in rank order. */
  added: FilledHead[];
  /** Positions found through structure that were considered but whose head did not fit what was left. */
  skipped: number;
  /** Tokens left for the fill (after the K slots and their separators), and what remained after it. */
  leftover: number;
  remaining: number;
}

// Interface-fill rule: after the K slots, each further position found through structure, in rank order, adds its
// whole head (descriptor and first lines, plus a separator) when that fits what is left; a head that does not fit
// is skipped, never cut, and a smaller one after it may still fit.
export function interfaceFill(
  rest: readonly Position[],
  texts: ReadonlyMap<string, ObjectText>,
  leftover: number,
  separatorTokens: number,
  headLines: number,
  tok: Tokenizer,
): InterfaceFill {
  const added: FilledHead[] = [];
  let skipped = 0;
  let left = leftover;
  for (const position of rest) {
    if (!position.viaStructure) continue;
    const obj = texts.get(position.objectId);
    if (!obj) continue;
    // Cheapest possible head: a descriptor and one line; below that nothing more can fit.
    if (left <= separatorTokens) break;
    const input = headInput(obj, headLines);
    const rendered = renderWindow(input, [0, input.lines.length - 1], tok);
    const cost = rendered.tokens + separatorTokens;
    if (cost > left) {
      skipped++;
      continue;
    }
    added.push({ position, input, rendered });
    left -= cost;
  }
  return { added, skipped, leftover, remaining: left };
}
