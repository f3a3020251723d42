/**
 * Growth against breadth: while the fill adds further objects, a block it has
 * shown in part (a head, or a slot's window) may be more worth its missing lines
 * than the next object is worth its compact form. Both are compared by support
 * per token: the position's support (`relevance` when the retriever reports it,
 * else its score) over the tokens it would take. The depth step (`deepen`) still
 * grows whatever this leaves.
 */
import type { Tokenizer } from '../indexer/tokenizer.ts';
import type { Placed } from './fill.ts';
import { isContainer, isOutline } from './outline.ts';
import { wholeRendered, wholeTokens, type Rendered } from './render.ts';
import type { Position } from './types.ts';

/** The support a position brings to the context: what the fill's relevance stop reads too. */
export const support = (p: Position): number => p.relevance ?? p.score;

/** A block's growth to whole: what it costs beyond its present form, and the support it serves. */
export interface Growth {
  block: Placed;
  whole: Rendered;
  cost: number;
  support: number;
}

/**
 * The blocks the fill may grow to whole before it adds further ones: objects found through structure, shown by a
 * head or a window (not containers or outlines, which grow by their members in `deepen`), whose whole is within
 * b_obj (Eq. 4's cap holds here as for the slots). Each whole is counted once per fill.
 */
export function growthOffers(objectCap: number, tok: Tokenizer): (placed: readonly Placed[], left: number) => Growth[] {
  const wholes = new Map<Placed, Rendered | null>();
  const wholeOf = (b: Placed): Rendered | null => {
    if (!wholes.has(b)) {
      const d = wholeTokens(b.gi.input, objectCap, tok);
      wholes.set(b, d <= objectCap ? wholeRendered(b.gi.input, d) : null);
    }
    return wholes.get(b)!;
  };
  return (placed, left) => {
    const out: Growth[] = [];
    for (const b of placed) {
      const r = b.rendered;
      if (!b.gi.fromStart || isOutline(r) || isContainer(b.gi.root) || b.gi.group.nested.length > 0) continue;
      if (r.outcome === 'whole' && b.input === b.gi.input) continue;
      const whole = wholeOf(b);
      if (!whole || whole.tokens <= r.tokens || whole.tokens - r.tokens > left) continue;
      out.push({ block: b, whole, cost: whole.tokens - r.tokens, support: support(b.gi.group.root.position) });
    }
    return out;
  };
}

/**
 * Growth-first rule: the growth with the most support per token, when that is more than `next` brings per token of
 * its own (`nextSupport` over `nextCost`); null when adding `next` is worth more. Ties go to the new object (breadth).
 */
export function growthBefore(offers: readonly Growth[], nextSupport: number, nextCost: number): Growth | null {
  let best: Growth | null = null;
  for (const g of offers) if (!best || g.support * best.cost > best.support * g.cost) best = g;
  if (!best) return null;
  return best.support * nextCost > nextSupport * best.cost ? best : null;
}

/** Applies a growth: the block shows its whole object; returns the tokens it took. */
export function grow(g: Growth): number {
  const b = g.block;
  b.allowance = Math.max(b.allowance, g.whole.tokens);
  b.input = b.gi.input;
  b.gi.d = g.whole.tokens;
  b.rendered = g.whole;
  return g.cost;
}
