import { describe, expect, it } from 'vitest';
import { selectSlots } from '../../allocator/companion.ts';
import { quotient } from '../../allocator/quotient.ts';
import { terms } from '../../allocator/terms.ts';
import {
  configError, configModule, handleRequest, logLine, main, memorySource, obj, parseConfig, repo, startServer, view,
} from './fixtures.ts';
import type { Candidate } from '../../indexer/types.ts';
import type { ObjectText } from '../../allocator/types.ts';

function select(query: string, candidates: Candidate[], slots = { core: 4, companion: 1 }, objects = repo) {
  const source = memorySource(objects);
  const ranked = quotient(candidates);
  const texts = source.objects(ranked.map((p) => p.objectId));
  return selectSlots(ranked, texts, terms(query), slots, source);
}

describe('core and companion rule', () => {
  const helper = obj('cfg.read', 'src/config.ts', 30, ['function readConfigFile(path: string) {', '  return readFileSync(path);', '}'], { name: 'readConfigFile' });
  const all = [...repo, helper];

  it('the top K-1 objects form the core; the companion is the strongest retrieved non-core object of a core fiber sharing a query token', () => {
    const s = select('parse config', [
      view(parseConfig, 9), view(startServer, 8), view(handleRequest, 7), view(logLine, 6),
      view(main, 5), view(helper, 4), // main (src/cli.ts) is not in a core fiber; the helper is
    ], undefined, all);
    expect(s.selected.map((x) => [x.position.objectId, x.role])).toEqual([
      ['cfg.parse', 'core'], ['srv.start', 'core'], ['srv.handle', 'core'], ['log.line', 'core'], ['cfg.read', 'companion'],
    ]);
    expect(s.companions).toEqual([expect.objectContaining({ reason: 'shared-tokens', sharedTokens: ['config'], origin: 'retrieved', score: 4 })]);
  });

  it('then looks among unretrieved objects of core fibers (score 0), skipping ones overlapping a core object', () => {
    const s = select('parse config', [view(parseConfig, 9), view(startServer, 8)]);
    // configModule (lines 1-25) also shares "config" and comes first by line, but it contains parseConfig.
    expect(s.selected.map((x) => x.position.objectId)).toEqual(['cfg.parse', 'srv.start', 'cfg.error']);
    expect(s.companions[0]).toMatchObject({ reason: 'shared-tokens', origin: 'fiber', score: 0, sharedTokens: ['config'] });
    expect((s.texts.get('cfg.error') as ObjectText | undefined)?.text).toBe(configError.text);
    expect(configModule.startLine).toBeLessThan(configError.startLine);
  });

  it('with file evidence, the companion comes from the core fiber with the most evidence', () => {
    const withFile = (c: Candidate, fileScore: number): Candidate => ({ ...c, fileScore });
    // The config file has the evidence, though the server's request handler scores higher on its own.
    const s = select('parse config request', [
      withFile(view(startServer, 9), 0.4), withFile(view(parseConfig, 8), 1),
      withFile(view(handleRequest, 7), 0.4), withFile(view(helper, 5), 1),
    ], { core: 2, companion: 1 }, all);
    expect(s.selected.map((x) => [x.position.objectId, x.role])).toEqual([['srv.start', 'core'], ['cfg.parse', 'core'], ['cfg.read', 'companion']]);
    // Without it, the strongest sharing a query token wins.
    const plain = select('parse config request', [view(startServer, 9), view(parseConfig, 8), view(handleRequest, 7), view(helper, 5)], { core: 2, companion: 1 }, all);
    expect(plain.selected.at(-1)!.position.objectId).toBe('srv.handle');
  });

  it('if none qualifies, the next-ranked object takes the slot (fallback); if none remains, it stays empty', () => {
    const fallback = select('listen port', [view(logLine, 9), view(startServer, 8), view(main, 1)], { core: 2, companion: 1 });
    expect(fallback.selected.map((x) => x.position.objectId)).toEqual(['log.line', 'srv.start', 'cli.main']);
    expect(fallback.companions[0]).toMatchObject({ reason: 'fallback: next-ranked', sharedTokens: [] });

    const none = select('listen port', [view(logLine, 9)]);
    expect(none.selected.map((x) => x.role)).toEqual(['core']);
    expect(none.companions).toEqual([expect.objectContaining({ reason: 'none', objectId: null })]);
  });

  it('slots 3+2 pick up to two companions in order of strength; 5+0 has none', () => {
    const cs = [view(parseConfig, 9), view(startServer, 8), view(logLine, 7), view(main, 6), view(helper, 5), view(handleRequest, 4)];
    const s = select('parse config request', cs, { core: 3, companion: 2 }, all);
    expect(s.selected.map((x) => [x.position.objectId, x.role])).toEqual([
      ['cfg.parse', 'core'], ['srv.start', 'core'], ['log.line', 'core'],
      ['cfg.read', 'companion'], ['srv.handle', 'companion'],
    ]);
    expect(s.companions.map((c) => c.sharedTokens)).toEqual([['config'], ['request']]);
    const five = select('parse config', cs, { core: 5, companion: 0 }, all);
    expect(five.selected.map((x) => x.role)).toEqual(['core', 'core', 'core', 'core', 'core']);
    expect(five.companions).toEqual([]);
  });

  it('a query with no identifier-like token falls back', () => {
    const s = select('the of a', [view(parseConfig, 9), view(configError, 1)], { core: 1, companion: 1 });
    expect(s.companions[0].reason).toBe('fallback: next-ranked');
  });
});
