/**
 * What did not fit: an allocation whose budget left objects out (or left
 * nothing at all) says which, and how large a budget the first one needs.
 * Read from the allocation's trace; pure apart from reading the object's text
 * through the ObjectSource to size its smallest rendering.
 */
import type { Tokenizer } from '../indexer/tokenizer.ts';
import { blockText, renderInput } from './render.ts';
import type { Allocation, ObjectSource } from './types.ts';

/** The allocation rendered nothing although the retriever found objects: the budget is too small for any. */
export function nothingFit(a: Allocation): boolean {
  return a.blocks.length === 0 && a.trace.positions.length > 0;
}

/**
 * Warnings for a person or a model, one line each: nothing fit (and what the first object was allotted against what
 * its descriptor line alone needs), or some allotted objects did not fit (by name). Empty when everything allotted was rendered.
 * @example budgetShortfall(allocation, source, getTokenizer()) // ['nothing fit the budget of 10 tokens: ...']
 */
export function budgetShortfall(a: Allocation, source: ObjectSource, tokenizer: Tokenizer): string[] {
  const empty = a.trace.render.filter((r) => r.outcome === 'empty: descriptor does not fit');
  if (nothingFit(a)) {
    const first = a.trace.render[0] ?? null;
    const id = first?.objectId ?? a.trace.positions[0].objectId;
    const obj = source.objects([id]).get(id);
    const need = obj ? tokenizer.count(blockText(renderInput(obj), null)) : null;
    const what = obj ? `${obj.qualifiedName} (${obj.path}:${obj.startLine}-${obj.endLine})` : first?.object ?? id;
    const allotted = first ? `was allotted ${first.allowance} tokens` : 'got no tokens';
    return [
      `nothing fit the budget of ${a.budget} tokens: ${a.trace.positions.length} object(s) matched; the first, ${what}, ${allotted} but its descriptor line alone needs ${need ?? 'more'}: give a larger budget (or fewer slots)`,
    ];
  }
  if (!empty.length) return [];
  const names = empty.slice(0, 5).map((r) => r.object).join(', ');
  return [`${empty.length} of ${a.trace.render.length} allotted object(s) did not fit the budget of ${a.budget} tokens: ${names}${empty.length > 5 ? ', ...' : ''}`];
}
