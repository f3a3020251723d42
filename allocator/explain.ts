/**
 * The allocation trace for a person (`allot context --explain`).
 */
import type { Allocation, BudgetStep, CompanionTrace, PositionTrace, RenderTrace } from './types.ts';

const fmt = (n: number): string => (Number.isInteger(n) ? String(n) : n.toFixed(3));

function positionLine(p: PositionTrace, missing: ReadonlySet<string>): string {
  const role = missing.has(p.objectId) ? 'missing from index' : (p.role ?? '-');
  const views = p.views.map((v) => `${v.viewId}:${v.kind}`).join(', ');
  const absorbed = p.views.length > 1 ? `absorbed ${p.views.length} views` : '1 view';
  const reasons = [...new Set(p.views.map((v) => v.reason).filter((r) => r && r !== 'bm25'))];
  return `  #${p.rank} ${p.name} (${p.path}) score ${fmt(p.score)} [${role}] ${absorbed}: ${views}${reasons.length ? ` — ${reasons.join('; ')}` : ''}`;
}

function companionLine(c: CompanionTrace): string {
  if (c.reason === 'none') return `  companion ${c.slot}: none (no object left to take the slot)`;
  const what = `${c.object} (${c.path}, ${c.origin === 'fiber' ? 'unretrieved object of a core fiber, score 0' : `retrieved, score ${fmt(c.score ?? 0)}`})`;
  if (c.reason === 'shared-tokens') return `  companion ${c.slot}: ${what}: in a core fiber, shares ${c.sharedTokens.map((t) => `"${t}"`).join(', ')} with the query`;
  return `  companion ${c.slot}: ${what}: fallback: next-ranked (no object of a core fiber shares a query token)`;
}

function stepLine(s: BudgetStep, name: string): string {
  if (s.bObj === null) return `  e${s.i} ${name}: d=${s.d}, R=${s.R} -> cut at the budget: ${s.result}`;
  const reserve = s.R - (s.m - s.i) * s.floor;
  return `  e${s.i} ${name}: min(d=${s.d}, b_obj=${s.bObj}, [R=${s.R} - (m=${s.m} - i=${s.i})*floor=${s.floor}]+=${Math.max(0, reserve)}) = ${s.result}`;
}

function renderLine(r: RenderTrace): string {
  const head = `  e${r.i} ${r.object} (${r.role}): ${r.tokens}/${r.allowance} tokens, `;
  const merged = r.merged?.length ? `; contains ${r.merged.map((x) => `${x.object} (${x.how})`).join(', ')}` : '';
  const shrunk = (r.shrunkLines > 0 ? ` (shrunk ${r.shrunkLines} step(s) after joining)` : '') + merged;
  switch (r.outcome) {
    case 'whole':
      return `${head}whole, lines ${r.shownStartLine}-${r.shownEndLine}${shrunk}`;
    case 'outline':
      return `${head}outline: declaration, members' signatures and touched members, lines ${r.shownStartLine}-${r.shownEndLine} in part${shrunk}`;
    case 'clipped': {
      const why = r.anchorTokens.length > 0 ? `centred on line ${r.anchorLine} (${r.anchorTokens.join(', ')})` : `from line ${r.anchorLine} (no line matches the query)`;
      return `${head}clipped to lines ${r.shownStartLine}-${r.shownEndLine}, ${why}${shrunk}`;
    }
    case 'descriptor only':
      return `${head}descriptor only: no source line fits${shrunk}`;
    default:
      return r.allowance === 0 && r.shrunkLines === 0
        ? `${head}renders as nothing: no budget left`
        : `${head}renders as nothing: even the descriptor does not fit${shrunk}`;
  }
}

/** A readable account of every decision the allocation made. */
export function explain(a: Allocation): string {
  const t = a.trace;
  const ablations = [t.ablations.noQuotient && 'noQuotient', t.ablations.noRender && 'noRender', t.ablations.noFill && 'noFill'].filter(Boolean);
  const missing = new Set(t.missing);
  const names = new Map(t.render.map((r) => [r.i, r.object]));
  const out: string[] = [];
  out.push(`query: ${JSON.stringify(a.query)}  (tokens: ${t.queryTokens.length > 0 ? t.queryTokens.join(', ') : 'none'})`);
  out.push(`budget: ${a.budget} tokens (${a.tokenizer}), slots ${t.slots.core}+${t.slots.companion}${ablations.length > 0 ? `, ablations: ${ablations.join(', ')}` : ''}`);
  out.push('');
  out.push(t.ablations.noQuotient
    ? `retrieved ${t.viewsRetrieved} views -> ${t.objects} fragments (no quotient: each view competes on its own)`
    : `retrieved ${t.viewsRetrieved} views -> ${t.objects} objects (each object keeps its strongest view's score)`);
  for (const p of t.positions) out.push(positionLine(p, missing));
  if (t.missing.length > 0) out.push(`  missing from the index (skipped): ${t.missing.join(', ')}`);
  out.push('');
  out.push('companions:');
  if (t.companions.length === 0) out.push('  none (no companion slots)');
  for (const c of t.companions) out.push(companionLine(c));
  out.push('');
  const b = t.budget;
  out.push(b.mode === 'formula'
    ? `token authority: B=${b.budget}, separators ${b.reserved} (${b.separatorTokens} each), R_1=${b.available}, b_obj=${b.objectCap}, floor=${b.floor}${b.floor !== b.floorOption ? ` (option ${b.floorOption} dropped: R_1 < m*floor)` : ''}, m=${b.m}`
    : `no rendering formula (noRender): objects cut at the budget, B=${b.budget}, separators ${b.reserved}, R_1=${b.available}, m=${b.m}`);
  for (const s of b.steps) out.push(stepLine(s, names.get(s.i) ?? s.objectId));
  if (t.fill) {
    const f = t.fill;
    out.push(`fill: ${f.leftover} tokens left by the slots -> ${f.whole} whole, ${f.outlines} outline(s), ${f.heads} head(s) (first ${t.interface?.headLines ?? 0} lines), ${f.merged} merged into blocks already shown, ${f.skipped} skipped (fitted in no form), ${f.notConsidered} not considered; ${f.remaining} left`);
  } else if (t.ablations.noFill) out.push('fill: off (noFill: the K slots only)');
  out.push('');
  out.push('rendering:');
  if (t.render.length === 0) out.push('  nothing to render');
  for (const r of t.render) out.push(renderLine(r));
  out.push('');
  const j = t.join;
  out.push(`total: ${a.totalTokens}/${a.budget} tokens in ${a.blocks.length} block(s) (parts ${j.sumOfParts}, joined ${j.joinedTokens}${j.shrunkLines > 0 ? `, ${j.shrunkLines} shrink step(s) to fit` : ''})`);
  return out.join('\n');
}
