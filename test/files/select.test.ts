import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildInventory, pathWords, rankPaths } from '../../allocator/files/inventory.ts';
import { issueSignals, messageFragments, stripEnvironment } from '../../indexer/retrieve/issue-signals.ts';
import { lexicalRanking, offlineAnswerSource, pathRanking, structuralRanking, titleRanking } from '../../allocator/files/offline.ts';
import { inventory, selectFiles } from '../../allocator/files/select.ts';
import type { AnswerSource } from '../../allocator/files/types.ts';
import type { DB } from '../../indexer/store/open.ts';
import { getTokenizer } from '../../indexer/tokenizer.ts';
import { indexedProject, ISSUE } from './project.ts';

let repo: string;
let db: DB;
let source: Awaited<ReturnType<typeof indexedProject>>['source'];
beforeAll(async () => {
  ({ repo, db, source } = await indexedProject());
});
afterAll(() => {
  db.close();
  fs.rmSync(repo, { recursive: true, force: true });
});

describe('path inventory', () => {
  it('splits paths into words on /, _, -, . and camelCase', () => {
    expect(pathWords('src/httpClient/base_adapter-v2.test.ts')).toEqual(['src', 'http', 'client', 'base', 'adapter', 'v', '2', 'test', 'ts']);
  });

  it('ranks by shared words, cuts to half of min(all, 32K) tokens, lists alphabetically', () => {
    const paths = Array.from({ length: 40 }, (_, i) => `pkg/module_${i}/file_${i}.py`).concat(['pkg/session/redirects.py', 'zz/redirect_session_cookies.py']);
    const tok = getTokenizer('cl100k_base');
    const inv = buildInventory(paths, 'Session.resolve_redirects loses cookies', tok);
    const full = tok.count(paths.join('\n'));
    expect(inv.fullTokens).toBe(full);
    expect(inv.limit).toBe(Math.floor(full / 2));
    expect(inv.tokens).toBeLessThanOrEqual(inv.limit + 1);
    expect(inv.paths.length).toBeLessThan(paths.length);
    expect(inv.paths).toEqual([...inv.paths].sort());
    expect(inv.paths).toContain('zz/redirect_session_cookies.py'); // 3 shared words
    expect(inv.paths).toContain('pkg/session/redirects.py');
    expect(rankPaths(paths, 'Session.resolve_redirects loses cookies')[0].path).toBe('zz/redirect_session_cookies.py');
  });

  it('caps large inventories at 16K tokens', () => {
    const paths = Array.from({ length: 12_000 }, (_, i) => `packages/component_${i}/src/implementation_${i}.ts`);
    const inv = buildInventory(paths, 'component 7 breaks', 'cl100k_base');
    expect(inv.limit).toBe(16_000);
    expect(inv.tokens).toBeLessThanOrEqual(16_001);
  });

  it('is exported for the daemon over a FileSource', () => {
    const inv = inventory(ISSUE, source);
    expect(inv.total).toBe(8);
    expect(inv.paths).toEqual([...inv.paths].sort());
    expect(inv.paths).toContain('netkit/models.py');
  });
});

describe('reading an issue', () => {
  it('finds frames, paths, code identifiers, dotted names and messages', () => {
    const s = issueSignals(ISSUE + '\nSee https://github.com/acme/netkit/blob/main/netkit/utils.py#L3 and `Client.resolve_redirects`.\n  at parse (src/web/api.ts:10:5)');
    expect(s.frames.map((f) => [f.path, f.line, f.func])).toEqual([
      ['repro.py', 3, '<module>'],
      ['/usr/lib/python3/site-packages/netkit/client.py', 9, 'send'],
      ['/usr/lib/python3/site-packages/netkit/models.py', 17, 'prepare_url'],
      ['src/web/api.ts', 10, 'parse'],
    ]);
    expect(s.paths).toEqual(['netkit/utils.py']);
    expect(s.identifiers.get('prepare_url')).toEqual({ count: 4, shaped: true }); // in code twice, inline once, as a frame's function
    expect(s.dotted).toContain('Client.resolve_redirects');
    expect(s.messages).toEqual(expect.arrayContaining(['URL has an invalid label.']));
    expect(s.exceptions).toEqual(expect.arrayContaining(['UnicodeError', 'InvalidURL']));
    expect(s.codeLines).toContain('host = request.prepare_url(url)');
  });

  it('leaves environment reports out of ranking, code in', () => {
    const issue = 'Title\n```python\nx = 1.5\nassert y == 2.0\n```\nINSTALLED VERSIONS\npython: 3.8.5 (default, Mar 26 2020)\nnumpy: 1.18.1\nscipy      : None\n- OS: Linux\npandas==1.0.3\n';
    expect(stripEnvironment(issue)).toBe('Title\n```python\nx = 1.5\nassert y == 2.0\n```\nINSTALLED VERSIONS\n');
  });

  it('finds flags and hyphenated names', () => {
    expect(issueSignals('`--ignore-paths` is ignored with --recursive=y; see `invalid-name` and a well-known built-in').symbols).toEqual(['--ignore-paths', 'invalid-name', '--recursive']);
  });

  it('cuts messages into fragments a literal search can find', () => {
    expect(messageFragments("Invalid URL 'http://': No host supplied")).toEqual(["Invalid URL 'http://': No host supplied", 'No host supplied']);
    expect(messageFragments('short')).toEqual([]);
  });
});

describe('the offline localizer', () => {
  it('ranks with two different rankers that both find the file the issue is about', () => {
    const lexical = lexicalRanking(source, ISSUE).map((r) => r.path);
    const structural = structuralRanking(source, ISSUE);
    expect(lexical.slice(0, 2)).toContain('netkit/models.py');
    expect(structural[0].path).toBe('netkit/models.py');
    expect(structural[0].reasons.join('; ')).toMatch(/frame .*models\.py:17.*innermost frame/);
    expect(structural[0].reasons.join('; ')).toMatch(/string "URL has an invalid label/);
    for (const p of [...lexical, ...structural.map((r) => r.path)]) expect(p).not.toMatch(/^(tests|docs)\/|README/);
  });

  it('selects the agreed files whole, then evidence from other files', async () => {
    const sel = await selectFiles(ISSUE, source);
    expect(sel.localization.source).toBe('offline');
    expect(sel.localization.answers).toHaveLength(2);
    expect(sel.localization.agreed[0]).toBe('netkit/models.py');
    const files = sel.blocks.filter((b) => b.role === 'file').map((b) => b.path);
    expect(files).toEqual(sel.localization.agreed);
    for (const b of sel.blocks.filter((x) => x.role === 'evidence')) {
      expect(files).not.toContain(b.path);
      expect(b.search).toBeTruthy();
    }
    expect(sel.searches.every((s) => s.origin === 'issue')).toBe(true);
    expect(sel.totalTokens).toBe(getTokenizer().count(sel.text));
    expect(new Set(sel.blocks.map((b) => b.path)).size).toBeLessThanOrEqual(8);
  });
});

describe('answers given by the caller', () => {
  it('keeps their agreement, drops tests, docs and unknown paths', async () => {
    const sel = await selectFiles(ISSUE, source, {
      answers: [['tests/test_client.py', 'netkit/client.py', 'netkit/models.py', 'netkit/missing.py'], ['docs/usage.md', 'netkit/models.py', 'netkit/client.py']],
      searches: ['callers prepare_url'],
    });
    expect(sel.localization).toMatchObject({ source: 'given', agreed: ['netkit/client.py', 'netkit/models.py'] });
    expect(sel.localization.dropped).toEqual([
      { path: 'tests/test_client.py', reason: 'test' },
      { path: 'netkit/missing.py', reason: 'not-indexed' },
      { path: 'docs/usage.md', reason: 'doc' },
    ]);
    // callers of prepare_url are in client.py, already shown whole: nothing to add
    expect(sel.searches).toEqual([expect.objectContaining({ kind: 'callers', query: 'prepare_url', origin: 'model', added: [] })]);
  });

  it('one answer stands as given', async () => {
    const sel = await selectFiles(ISSUE, source, { answers: [['netkit/utils.py', 'netkit/exceptions.py']] });
    expect(sel.localization.agreed).toEqual(['netkit/utils.py', 'netkit/exceptions.py']);
  });

  it('two answers sharing nothing: the offline localizer gives the third', async () => {
    const sel = await selectFiles(ISSUE, source, { answers: [['netkit/models.py'], ['netkit/utils.py']] });
    expect(sel.localization.source).toBe('given+offline');
    expect(sel.localization.answers).toHaveLength(3);
    for (const p of sel.localization.agreed) expect(['netkit/models.py', 'netkit/utils.py']).toContain(p);
  });

  it('any AnswerSource plugs in (e.g. MCP sampling later), and a third answer is asked from it', async () => {
    const asked: number[] = [];
    const custom: AnswerSource = {
      name: 'mcp-sampling',
      async answer(request, index) {
        asked.push(index);
        expect(request.inventory).toContain('netkit/client.py');
        return { paths: [['netkit/client.py'], ['netkit/models.py'], ['netkit/models.py', 'netkit/utils.py']][index] };
      },
    };
    const sel = await selectFiles(ISSUE, source, { answerSource: custom });
    expect(asked).toEqual([0, 1, 2]);
    expect(sel.localization).toMatchObject({ source: 'mcp-sampling', agreed: ['netkit/models.py'] });
  });

  it('reads agreement as the source says: every shared file, or (offline) shared files at the top; none: the first answer\'s first', async () => {
    const answers: string[][] = [['netkit/client.py', 'netkit/models.py', 'netkit/utils.py'], ['netkit/utils.py', 'netkit/models.py', 'netkit/client.py']];
    const plain: AnswerSource = { name: 'model', answer: async (_r, i) => (i < 2 ? { paths: answers[i] } : null) };
    expect((await selectFiles(ISSUE, source, { answerSource: plain })).localization)
      .toMatchObject({ agreed: ['netkit/client.py', 'netkit/models.py', 'netkit/utils.py'], agreement: 'all' });
    const top: AnswerSource = { ...plain, agreement: 'top' };
    expect((await selectFiles(ISSUE, source, { answerSource: top })).localization)
      .toMatchObject({ agreed: ['netkit/client.py', 'netkit/utils.py'], agreement: 'top' });
    const apart: AnswerSource = { name: 'model', answer: async (_r, i) => ({ paths: [['netkit/client.py'], ['netkit/models.py'], ['netkit/exceptions.py']][i] }) };
    const none = await selectFiles(ISSUE, source, { answerSource: apart });
    expect(none.localization).toMatchObject({ agreed: ['netkit/client.py'], agreement: 'none' });
    expect(none.warnings).toContain("no two answers name the same file: showing the first answer's first file, netkit/client.py");
    expect(none.blocks.filter((b) => b.role === 'file').map((b) => b.path)).toEqual(['netkit/client.py']);
  });

  it('the structural ablation answers with the lexical, title and path rankers instead', () => {
    const plain = offlineAnswerSource(source).rankings(ISSUE).map((r) => r.map((f) => f.path));
    const ablated = offlineAnswerSource(source, { structural: false }).rankings(ISSUE).map((r) => r.map((f) => f.path));
    expect(plain[1]).toEqual(structuralRanking(source, ISSUE).map((f) => f.path));
    expect(ablated).toEqual([plain[0], titleRanking(source, ISSUE).map((f) => f.path), pathRanking(source, ISSUE).map((f) => f.path)]);
  });

  it('rejects bad options with a clear message', async () => {
    await expect(selectFiles(ISSUE, source, { budget: -1 })).rejects.toThrow(/budget must be a non-negative integer/);
    await expect(selectFiles(ISSUE, source, { baseline: 'nope' as 'file-bm25' })).rejects.toThrow(/unknown baseline "nope"/);
    await expect(selectFiles(ISSUE, source, { searches: ['look around'] })).rejects.toThrow(/cannot read the search "look around"/);
  });
});

describe('baselines through the same interface', () => {
  it('file-bm25 packs whole files in BM25 order within the budget', async () => {
    const sel = await selectFiles(ISSUE, source, { baseline: 'file-bm25', budget: 400 });
    expect(sel.baseline).toBe('file-bm25');
    expect(sel.totalTokens).toBeLessThanOrEqual(400);
    expect(sel.blocks.every((b) => b.role === 'file')).toBe(true);
    expect(sel.blocks.length).toBeGreaterThan(0);
    expect(sel.localization.answers[0][0]).toBe(sel.localization.answers[0].find((p) => sel.blocks.some((b) => b.path === p)) ?? sel.localization.answers[0][0]);
  });

  it('chunk-bm25 packs line chunks', async () => {
    const sel = await selectFiles(ISSUE, source, { baseline: 'chunk-bm25', budget: 300 });
    expect(sel.blocks.length).toBeGreaterThan(0);
    expect(sel.blocks.every((b) => b.role === 'chunk' && b.endLine - b.startLine < 20)).toBe(true);
    expect(sel.totalTokens).toBeLessThanOrEqual(300);
  });
});
