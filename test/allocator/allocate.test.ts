import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocate } from '../../allocator/allocate.ts';
import { objectSharedTerms } from '../../allocator/companion.ts';
import { explain } from '../../allocator/explain.ts';
import { normalizePath } from '../../indexer/paths.ts';
import type { Allocation } from '../../allocator/types.ts';
import { getTokenizer, type Tokenizer } from '../../indexer/tokenizer.ts';
import {
  handleRequest, logLine, memorySource, obj, parseConfig, repo, startServer, view, worldArb,
} from './fixtures.ts';

const tok = getTokenizer('cl100k_base');
const source = memorySource(repo);

/** The retrieval of the worked example: parseConfig's signature, body and call site rank 1-3. */
const retrieved = () => [
  view(parseConfig, 10, 'signature', { viewId: 1, startLine: 10, endLine: 10 }),
  view(parseConfig, 9.5, 'body', { viewId: 2 }),
  view(parseConfig, 9, 'callsite', { viewId: 3, path: 'src/cli.ts', startLine: 2, endLine: 2 }),
  view(startServer, 8, 'body', { viewId: 4 }),
  view(handleRequest, 7, 'body', { viewId: 5 }),
  view(logLine, 6, 'body', { viewId: 6 }),
];

describe('worked example: the quotient frees the slots a function\'s extra views took', () => {
  it('signature, body and call site of parseConfig take one slot; handleRequest, pushed out before, now appears', () => {
    const a = allocate('parse config', retrieved(), source, tok);
    expect(a.blocks.map((b) => [b.object, b.role])).toEqual([
      ['parseConfig', 'core'], ['startServer', 'core'], ['handleRequest', 'core'], ['logLine', 'core'], ['ConfigError', 'companion'],
    ]);
    expect(a.trace.viewsRetrieved).toBe(6);
    expect(a.trace.objects).toBe(4);
    expect(a.trace.positions[0].views).toEqual([
      { viewId: 1, kind: 'signature', score: 10, reason: 'bm25' }, { viewId: 2, kind: 'body', score: 9.5, reason: 'bm25' }, { viewId: 3, kind: 'callsite', score: 9, reason: 'bm25' },
    ]);
    expect(a.blocks[0].score).toBe(10);

    const frag = allocate('parse config', retrieved(), source, tok, { noQuotient: true });
    expect(frag.blocks.map((b) => b.object)).toEqual(['parseConfig', 'parseConfig', 'parseConfig', 'startServer', 'ConfigError']);
    expect(frag.blocks.map((b) => b.object)).not.toContain('handleRequest');
    expect(frag.trace.objects).toBe(6);
    // The signature fragment shows its own line; the call site lives in another file, so the object is shown.
    expect([frag.blocks[0].startLine, frag.blocks[0].endLine]).toEqual([10, 10]);
    expect([frag.blocks[2].startLine, frag.blocks[2].endLine]).toEqual([10, 14]);
  });

  it('output shape: the CLI --json fields, exact token counts, blocks joined by a blank line', () => {
    const a = allocate('parse config', retrieved(), source, tok);
    expect(Object.keys(a)).toEqual(['query', 'budget', 'tokenizer', 'totalTokens', 'text', 'blocks', 'trace']);
    expect(Object.keys(a.blocks[0])).toEqual([
      'path', 'object', 'kind', 'role', 'score', 'startLine', 'endLine', 'shownStartLine', 'shownEndLine', 'tokens', 'text',
    ]);
    expect(a).toMatchObject({ query: 'parse config', budget: 4096, tokenizer: 'cl100k_base' });
    expect(a.totalTokens).toBe(tok.count(a.text));
    expect(a.text).toBe(a.blocks.map((b) => b.text).join('\n\n'));
    for (const b of a.blocks) expect(b.tokens).toBe(tok.count(b.text));
    expect(a.blocks[0].text).toBe(`### src/config.ts:10-14 | parseConfig\n${parseConfig.text}`);
    expect(JSON.parse(JSON.stringify(a))).toEqual(a);
  });

  it('the trace records each b_i and explain() tells the story', () => {
    const a = allocate('parse config', retrieved(), source, tok, { budget: 300 });
    const b = a.trace.budget;
    expect(b).toMatchObject({ mode: 'formula', budget: 300, m: 5, objectCap: 1024, floor: 0, floorOption: 128 });
    expect(b.available).toBe(300 - 4 * b.separatorTokens);
    expect(b.steps[0]).toMatchObject({ i: 1, objectId: 'cfg.parse', R: b.available, m: 5, bObj: 1024 });
    const text = explain(a);
    expect(text).toContain('retrieved 6 views -> 4 objects');
    expect(text).toContain('absorbed 3 views: 1:signature, 2:body, 3:callsite');
    expect(text).toContain('companion 1: ConfigError');
    expect(text).toContain('shares "config" with the query');
    expect(text).toMatch(/e1 parseConfig: min\(d=\d+, b_obj=1024, \[R=\d+ - \(m=5 - i=1\)\*floor=0\]\+=\d+\) = \d+/);
    expect(text).toContain(`total: ${a.totalTokens}/300 tokens`);
  });
});

describe('edge cases', () => {
  it('no candidates: empty context, empty companion slot', () => {
    const a = allocate('parse config', [], source, tok);
    expect(a).toMatchObject({ totalTokens: 0, text: '', blocks: [] });
    expect(a.trace.companions).toEqual([expect.objectContaining({ reason: 'none' })]);
    expect(explain(a)).toContain('nothing to render');
  });

  it('no match: ids the index does not know are skipped; a query matching nothing falls back and renders from the top', () => {
    const unknown = { ...view(parseConfig, 5), objectId: 'gone' };
    const a = allocate('parse config', [unknown], source, tok);
    expect(a.blocks).toEqual([]);
    expect(a.trace.missing).toEqual(['gone']);
    expect(explain(a)).toContain('missing from the index');

    const z = allocate('zebra', [view(logLine, 3), view(main(), 2)], source, tok, { slots: '1+1' });
    expect(z.trace.companions[0].reason).toBe('fallback: next-ranked');
    expect(z.blocks.map((b) => b.role)).toEqual(['core', 'companion']);
  });

  it('budget 0: nothing at all', () => {
    const a = allocate('parse config', retrieved(), source, tok, { budget: 0 });
    expect(a).toMatchObject({ totalTokens: 0, text: '', blocks: [] });
    expect(a.trace.render.every((r) => r.outcome === 'empty: descriptor does not fit')).toBe(true);
    expect(explain(a)).toContain('renders as nothing: no budget left');
  });

  it('budget smaller than one descriptor: objects render as nothing, and the trace says so', () => {
    const a = allocate('parse config', retrieved(), source, tok, { budget: 12, slots: '1+0' });
    expect(a.blocks).toEqual([]);
    expect(a.trace.render[0]).toMatchObject({ outcome: 'empty: descriptor does not fit', tokens: 0, allowance: 12 });
    expect(explain(a)).toContain('0/12 tokens, renders as nothing: even the descriptor does not fit');
  });

  it('an object larger than the whole budget is clipped to it around the query lines', () => {
    const lines = Array.from({ length: 400 }, (_, k) => (k === 300 ? '    retry_budget = compute_retry_budget(attempts)' : `    step_${k}(state)`));
    const huge = obj('huge', 'src/huge.py', 1, ['def run(state):', ...lines], { name: 'run' });
    const a = allocate('retry budget', [view(huge, 1)], memorySource([huge]), tok, { budget: 150, objectCap: 100_000 });
    expect(a.blocks).toHaveLength(1);
    expect(a.totalTokens).toBeLessThanOrEqual(150);
    expect(a.totalTokens).toBeGreaterThan(120);
    expect(a.blocks[0].text).toContain('retry_budget = compute_retry_budget(attempts)');
    expect(a.blocks[0].shownStartLine).toBeGreaterThan(250);
    expect(a.blocks[0].text.split('\n')[0]).toMatch(/^### src\/huge\.py:\d+-\d+ of 1-401 \| run \| def run\(state\):$/);
    expect(a.trace.render[0]).toMatchObject({ outcome: 'clipped', anchorLine: 302, anchorTokens: ['retry', 'budget'] });
  });

  it('non-ASCII and CRLF sources are rendered verbatim (LF-joined) and counted exactly', () => {
    const jp = obj('jp', 'src/挨拶.ts', 1, ['export function 挨拶(名前: string) {', '  // café 🚀', '  return `こんにちは ${名前}`;', '}'], { name: '挨拶' }, '\r\n');
    for (const budget of [0, 5, 20, 30, 40, 1000]) {
      const a = allocate('挨拶 こんにちは', [view(jp, 1)], memorySource([jp]), tok, { budget });
      expect(a.totalTokens).toBe(tok.count(a.text));
      expect(a.totalTokens).toBeLessThanOrEqual(budget);
      expect(a.text).not.toContain('\r');
    }
    const a = allocate('挨拶', [view(jp, 1)], memorySource([jp]), tok);
    expect(a.text).toBe(`### src/挨拶.ts:1-4 | 挨拶\n${jp.text.replace(/\r\n/g, '\n')}`);
  });

  it('o200k_base is selectable, by name or by options', () => {
    const a = allocate('parse config', retrieved(), source, undefined, { tokenizer: 'o200k_base', budget: 200 });
    expect(a.tokenizer).toBe('o200k_base');
    expect(a.totalTokens).toBe(getTokenizer('o200k_base').count(a.text));
    expect(allocate('x', [], source, 'o200k_base').tokenizer).toBe('o200k_base');
    expect(() => allocate('x', [], source, tok, { tokenizer: 'o200k_base' })).toThrow(/tokenizer conflict/);
  });

  it('noRender ablation: objects in order, whole from their start, cut where the budget runs out', () => {
    const a = allocate('handle request', retrieved(), source, tok, { noRender: true, budget: 90 });
    expect(a.trace.budget.mode).toBe('cut');
    expect(a.totalTokens).toBeLessThanOrEqual(90);
    expect(a.blocks[0]).toMatchObject({ object: 'parseConfig', shownStartLine: 10, shownEndLine: 14 });
    // Everything up to the cut is whole; the cut object starts at its first line; nothing follows it.
    const cutAt = a.trace.render.findIndex((r) => r.outcome !== 'whole');
    expect(cutAt).toBeGreaterThan(0);
    expect(a.trace.render.slice(cutAt + 1).every((r) => r.tokens === 0)).toBe(true);
    const cut = a.trace.render[cutAt];
    if (cut.outcome === 'clipped') expect(cut.shownStartLine).toBe(a.blocks[cutAt].startLine);
    expect(a.blocks.length).toBeLessThan(5);
  });
});

describe('exactness rule: the joined text is counted, and shrinks if joining adds tokens', () => {
  // A tokenizer for which joining costs extra: every block header after a blank line costs 40 more.
  const surprising: Tokenizer = {
    name: 'cl100k_base',
    count: (t: string) => [...t].length + 40 * (t.split('\n\n###').length - 1),
  };

  it('shrinks the last block line by line until the whole text fits', () => {
    const full = allocate('parse config', retrieved(), source, surprising, { slots: '2+0', budget: 100_000, noFill: true });
    const parts = full.trace.join.sumOfParts;
    const a = allocate('parse config', retrieved(), source, surprising, { slots: '2+0', budget: parts, noFill: true });
    expect(a.totalTokens).toBeLessThanOrEqual(parts);
    expect(a.totalTokens).toBe(surprising.count(a.text));
    expect(a.trace.join.shrunkLines).toBeGreaterThan(0);
    expect(a.trace.render[1].shrunkLines).toBeGreaterThan(0);
    expect(a.trace.render[0].shrunkLines).toBe(0);
  });
});

function main() {
  return repo.find((o) => o.id === 'cli.main')!;
}

describe('properties of the whole pipeline', () => {
  const optionsArb = fc.record({
    budget: fc.oneof(fc.nat(100_000), fc.nat(600)),
    objectCap: fc.oneof(fc.constant(1024), fc.nat(2000)),
    floor: fc.oneof(fc.constant(128), fc.nat(300)),
    slots: fc.record({ core: fc.integer({ min: 1, max: 5 }), companion: fc.nat(3) }),
    noQuotient: fc.boolean(),
    noRender: fc.boolean(),
    headLines: fc.oneof(fc.constant(15), fc.nat(20)),
  });
  const toks = ['cl100k_base', 'o200k_base'] as const;

  function checkInvariants(a: Allocation, t: Tokenizer, budget: number) {
    // Exact budget: the final joined text never exceeds B.
    expect(a.totalTokens).toBe(t.count(a.text));
    expect(a.totalTokens).toBeLessThanOrEqual(budget);
    for (const b of a.blocks) expect(b.tokens).toBe(t.count(b.text));
    expect(a.text).not.toContain('\r');
    const bud = a.trace.budget;
    const results = bud.steps.map((s) => s.result);
    expect(results.reduce((x, y) => x + y, 0)).toBeLessThanOrEqual(budget);
    if (bud.mode === 'formula') {
      for (const s of bud.steps) {
        expect(s.result).toBeGreaterThanOrEqual(0);
        expect(s.result).toBeLessThanOrEqual(s.bObj!);
        expect(s.R - s.result).toBeGreaterThanOrEqual((s.m - s.i) * s.floor);
      }
      for (const r of a.trace.render) expect(r.tokens).toBeLessThanOrEqual(r.allowance);
    }
  }

  it('total rendered tokens <= budget (0..100,000); sum(b_i) <= B; b_i <= b_obj; floors reserved; multiplicity <= 1', () => {
    fc.assert(
      fc.property(worldArb, optionsArb, fc.constantFrom(...toks), (w, options, name) => {
        const t = getTokenizer(name);
        const a = allocate(w.query, w.candidates, memorySource(w.objects), t, options);
        checkInvariants(a, t, options.budget);
        if (!options.noQuotient) {
          const ids = a.trace.render.map((r) => r.objectId);
          expect(new Set(ids).size).toBe(ids.length);
        }
        // The K slots hold at most K blocks; the fill's blocks (interface, fill) are never cut.
        const filled = a.trace.render.filter((r) => r.role === 'interface' || r.role === 'fill');
        expect(a.trace.render.length - filled.length).toBeLessThanOrEqual(options.slots.core + options.slots.companion);
        if (a.trace.interface) expect(filled.filter((r) => r.role === 'interface').length).toBe(a.trace.interface.added);
        const shown = a.trace.render.filter((r) => r.outcome !== 'empty: descriptor does not fit');
        expect(shown).toHaveLength(a.blocks.length);
        for (const [k, b] of a.blocks.entries()) {
          const o = w.objects.find((x) => x.id === shown[k].objectId)!;
          if (b.role === 'interface' || b.role === 'fill') {
            // Found through structure: the block's object, or one it contains (merged into it, containment).
            const within = new Set([o.id, ...(b.contains ?? []).map((c) => c.objectId)]);
            const found = w.candidates.some((c) => within.has(c.objectId) && c.viaStructure);
            if (b.role === 'interface') expect(found).toBe(true);
            if (a.trace.join.shrunkLines === 0) {
              // Whole, an outline, or (found through structure) its head: never a cut window.
              const head = [o.startLine, Math.min(o.endLine, o.startLine + options.headLines - 1)];
              const ok = b.outline === true || (b.shownStartLine === o.startLine && (b.shownEndLine === o.endLine || (found && b.shownEndLine === head[1])));
              expect(ok).toBe(true);
            }
          }
        }
        // No repository line twice in one context (the ablations aside: fragments may overlap by design).
        if (!options.noQuotient) {
          const seen = new Set<string>();
          for (const b of a.blocks) {
            const ranges = b.shown ?? (b.shownStartLine > 0 ? [[b.shownStartLine, b.shownEndLine]] : []);
            for (const [from, to] of ranges) for (let l = from; l <= to; l++) {
              const key = `${b.path}:${l}`;
              expect(seen.has(key)).toBe(false);
              seen.add(key);
            }
          }
        }
      }),
      { numRuns: 120 },
    );
  });

  it('a companion is from a core fiber and shares a query token, or is labelled fallback, or is absent', () => {
    fc.assert(
      fc.property(worldArb, optionsArb, (w, options) => {
        const src = memorySource(w.objects);
        const a = allocate(w.query, w.candidates, src, tok, options);
        const coreIds = a.trace.positions.filter((p) => p.role === 'core').map((p) => p.objectId);
        const coreFibers = new Set(coreIds.map((id) => normalizePath(w.objects.find((o) => o.id === id)!.path)));
        expect(a.trace.companions).toHaveLength(options.slots.companion);
        for (const c of a.trace.companions) {
          if (c.reason === 'none') {
            expect(c.objectId).toBeNull();
          } else if (c.reason === 'shared-tokens') {
            const o = w.objects.find((x) => x.id === c.objectId)!;
            expect(coreFibers.has(normalizePath(o.path))).toBe(true);
            expect(c.sharedTokens.length).toBeGreaterThan(0);
            expect(c.sharedTokens).toEqual(objectSharedTerms(a.trace.queryTokens, o));
          } else {
            expect(c.reason).toBe('fallback: next-ranked');
            expect(c.origin).toBe('retrieved');
          }
        }
        // A slot stays empty only when every retrieved position already has a slot.
        if (a.trace.companions.some((c) => c.reason === 'none')) {
          // (Left out: an object overlapping an allocated one without nesting in it, which cannot be shown beside it.)
          const spanOf = (id: string) => w.objects.find((o) => o.id === id)!;
          const clashes = (id: string) => a.trace.positions.some((q) => q.role !== null && q.objectId !== id && spanOf(q.objectId).path === spanOf(id).path
            && spanOf(q.objectId).startLine <= spanOf(id).endLine && spanOf(id).startLine <= spanOf(q.objectId).endLine);
          const left = a.trace.positions.filter((p) => p.role === null && !a.trace.missing.includes(p.objectId) && !clashes(p.objectId));
          expect(left).toEqual([]);
        }
      }),
      { numRuns: 80 },
    );
  });
});
