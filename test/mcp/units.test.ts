import { describe, expect, it } from 'vitest';
import { alreadyShownLine, withoutShown } from '../../allocator/already-shown.ts';
import { contentHash as textDigest } from '../../indexer/extract/extract-file.ts';
import type { ObjectSource, ObjectText } from '../../allocator/types.ts';
import type { Retriever } from '../../indexer/retrieve/retriever.ts';
import type { Candidate } from '../../indexer/types.ts';
import { hostConfig, MCP_HOSTS } from '../../client/mcp/host-config.ts';
import { sampledAnswers } from '../../client/mcp/sampling.ts';
import { createSessions } from '../../daemon/sessions.ts';
import type { DaemonStatus } from '../../daemon/types.ts';
import { statusFromDaemon } from '../../client/mcp/backend.ts';
import { catchingUpLine, incompleteLine, noMatch, statusText } from '../../client/mcp/render.ts';

const candidate = (objectId: string, path = `${objectId}.py`): Candidate => ({
  viewId: 1, objectId, fiber: path, path, objectName: objectId, objectKind: 'function', viewKind: 'body', startLine: 1, endLine: 2, score: 1, reason: 'bm25',
});

function sourceOf(texts: Record<string, string>): ObjectSource {
  return {
    objects: (ids) => new Map(ids.filter((id) => id in texts).map((id) => [id, { id, path: `${id}.py`, text: texts[id] } as ObjectText])),
    fiberObjects: () => [],
  };
}

describe('sessions: objects already sent', () => {
  const base: Retriever = { name: 'fake', retrieve: () => ['a', 'b', 'a', 'c', 'd', 'e'].map((id) => candidate(id)) };

  it('drops objects sent unchanged, keeps changed ones, names those that would have competed', () => {
    const source = sourceOf({ a: 'def a(): 1', b: 'def b(): 2', c: 'def c(): 3', e: 'def e(): 5' });
    const shown = new Map([['a', textDigest('def a(): 1')], ['b', textDigest('def b(): OLD')], ['e', textDigest('def e(): 5')]]);
    const r = withoutShown(base, shown, source, 2);
    expect(r.retriever.retrieve('q', 10).map((c) => c.objectId)).toEqual(['b', 'c', 'd']);
    // `a` ranked first; `e` came after two other objects (b, c) had filled the two slots.
    expect(r.alreadyShown()).toEqual([{ path: 'a.py', name: 'a' }]);
    expect(alreadyShownLine(r.alreadyShown())).toBe('(already shown: a.py:a)');
    expect(alreadyShownLine([])).toBe('');
  });

  it('an empty session changes nothing', () => {
    const r = withoutShown(base, new Map(), sourceOf({}), 5);
    expect(r.retriever.retrieve('q', 10)).toHaveLength(6);
    expect(r.alreadyShown()).toEqual([]);
  });

  it('forgets the least recently used session first', () => {
    const s = createSessions(2);
    s.get('one').objects.set('x', 'd');
    s.get('two');
    s.get('one'); // one is now the most recent
    s.get('three');
    expect(s.size).toBe(2);
    expect(s.get('one').objects.get('x')).toBe('d');
    expect(s.get('two').objects.size).toBe(0); // forgotten, created afresh
  });
});

describe('sampling answers', () => {
  const inventory = ['pkg/a.py', 'pkg/b.py', 'pkg/c.py', 'tests/test_a.py'];

  it('asks two answers, reads them leniently, and gathers their searches', async () => {
    const replies = ['1. `pkg/a.py`\n2. pkg/b.py\nSEARCHES:\ndefinition parse\nstring "bad value"', 'Probably a.py, then pkg/c.py.\nSEARCHES:\ndefinition parse\ncallers load'];
    const asked: number[] = [];
    const r = await sampledAnswers('parse fails on bad value', inventory, async (m) => (asked.push(m.length), replies.shift()!));
    expect(asked).toEqual([2, 2]); // a system and a user message each
    expect(r.answers).toEqual([['pkg/a.py', 'pkg/b.py'], ['pkg/a.py', 'pkg/c.py']]);
    expect(r.searches).toEqual(['definition parse', 'string "bad value"', 'callers load']);
  });

  it('asks a third only when the first two share no file (tests do not count)', async () => {
    const replies = ['pkg/a.py\ntests/test_a.py', 'pkg/b.py\ntests/test_a.py', 'pkg/b.py'];
    const r = await sampledAnswers('x', inventory, async () => replies.shift()!);
    expect(r.answers).toEqual([['pkg/a.py', 'tests/test_a.py'], ['pkg/b.py', 'tests/test_a.py'], ['pkg/b.py']]);
  });

  it('a failing host model fails the whole request (the caller falls back)', async () => {
    await expect(sampledAnswers('x', inventory, async () => { throw new Error('user declined'); })).rejects.toThrow('user declined');
  });
});

describe('host configuration snippets', () => {
  const launch = { command: '/usr/bin/node', args: ["/opt/al lot/client/bin/allot.js", 'mcp', "/src/it's"] };

  it('fills absolute paths into every host\'s format', () => {
    for (const host of MCP_HOSTS) {
      const c = hostConfig(host, launch);
      expect(c.snippet, host).toContain('/usr/bin/node');
      expect(c.where.length, host).toBeGreaterThan(5);
    }
    expect(JSON.parse(hostConfig('claude', launch).snippet)).toEqual({ mcpServers: { allot: launch } });
    expect(JSON.parse(hostConfig('cursor', launch).snippet)).toEqual({ mcpServers: { allot: launch } });
    expect(JSON.parse(hostConfig('vscode', launch).snippet)).toEqual({ servers: { allot: { type: 'stdio', ...launch } } });
    expect(JSON.parse(hostConfig('zed', launch).snippet)).toEqual({ context_servers: { allot: { ...launch, env: {} } } });
    expect(hostConfig('codex', launch).snippet).toBe('[mcp_servers.allot]\ncommand = "/usr/bin/node"\nargs = ["/opt/al lot/client/bin/allot.js", "mcp", "/src/it\'s"]');
  });

  it('quotes shell one-liners', () => {
    expect(hostConfig('claude', launch).oneLiner).toBe(`claude mcp add allot -- /usr/bin/node '/opt/al lot/client/bin/allot.js' mcp '/src/it'\\''s'`);
  });
});

describe('index state in tool results', () => {
  const daemonStatus = (over: { catchingUp?: boolean; state?: string; paths?: number; build?: { phase: 'parse'; done: number; total: number } }) => ({
    version: '0', pid: 7, nonce: 'nonce-of-the-daemon', repo: '/r', db: '/r/.allot/index.db', startedAt: '', uptimeSeconds: 3,
    index: { files: 2, filesByLanguage: { python: 2 }, objects: 4, views: 9, references: 1, resolvedReferences: 1 },
    cache: { entries: 2, bytes: 900, maxBytes: 1 << 28 },
    indexing: {
      state: over.state ?? 'idle', catchingUp: over.catchingUp ?? false, complete: !over.build, build: over.build ?? null, progress: null, batches: 1, lastBatch: null,
    },
    pending: { paths: over.paths ?? 0, full: false },
    watcher: { state: 'watching', events: 0, error: null },
    queries: {
      served: 5, search: 0, context: 5, objects: 0, files: 0, arbitrate: 0, inventory: 0, select: 0, symbols: 0, references: 0, outline: 0, read: 0, continue: 0, errors: 0,
    },
    lastError: null,
    health: { state: 'ok', reason: null },
    dense: { state: 'off', model: null, embedded: 0, objects: 0, rate: null, reason: 'no vectors' },
    idleExit: over.state === 'idle' ? { minutes: 30, exitsAt: '2030-01-01T00:00:00.000Z' } : null,
  }) as DaemonStatus;

  it('says the index is catching up while edits wait, and nothing when it is settled', () => {
    expect(catchingUpLine(statusFromDaemon(daemonStatus({})))).toBe('');
    expect(catchingUpLine(statusFromDaemon(daemonStatus({ paths: 3 })))).toBe('Note: the index is catching up (idle, 3 file(s) waiting): recent edits may be missing.');
    expect(catchingUpLine(statusFromDaemon(daemonStatus({ state: 'indexing' })))).toMatch(/catching up \(indexing\)/);
    expect(statusText(statusFromDaemon(daemonStatus({})))).toContain('Index: 2 files (python 2), 4 objects, 9 views, 1/1 references resolved.');
  });

  it('an incomplete index leads every result with what it covers, and status says which daemon serves and how to stop it', () => {
    const building = statusFromDaemon(daemonStatus({ catchingUp: true, state: 'catching-up', build: { phase: 'parse', done: 454, total: 5000 } }), { startedBySession: true, address: '127.0.0.1:4000' });
    expect(building).toMatchObject({ complete: false, state: 'building', progress: { done: 454, total: 5000 } });
    expect(incompleteLine(building)).toMatch(/^Incomplete: the index of \/r is still being built \(454 of 5000 files\); .*a missing match does not mean the code does not exist/);
    // (the catching-up note is for a complete index: an incomplete one says more, first)
    expect(catchingUpLine(building)).toBe('');
    expect(incompleteLine(statusFromDaemon(daemonStatus({})))).toBe('');
    expect(noMatch(false)).not.toMatch(/^No indexed code matches/);
    const text = statusText(building);
    expect(text).toContain('Incomplete: the first full build is running (454 of 5000 files)');
    expect(text).toContain('Daemon: pid 7 on 127.0.0.1:4000');
    expect(text).toContain('started by this MCP server');
    expect(text).toContain('Stop it with `allot stop /r`; it keeps running after this session ends');
    expect(statusText(statusFromDaemon(daemonStatus({ state: 'idle' })))).toContain('it stops by itself after 30 minute(s) without a request');
  });
});
