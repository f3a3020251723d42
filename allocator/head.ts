/**
 * Heads: what a code query needs of the objects it imports, calls and names is
 * how to use them (declaration, docstring, first lines), not a window matched
 * to its words. An allocated object found through structure grows from its
 * declaration down within b_i (form.ts); the fill lists the head of a further
 * one that does not fit whole (fill.ts), like a repository map of the names at hand.
 */
import { renderInput, type RenderInput } from './render.ts';
import type { ObjectText } from './types.ts';

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
