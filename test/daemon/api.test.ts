import { describe, expect, it } from 'vitest';
import { createApi, isLoopbackHost, tokenMatches } from '../../daemon/api.ts';
import { createEventBus } from '../../daemon/events.ts';
import { QueryError, type Completeness, type QueryAnswers } from '../../daemon/queries.ts';
import type { DaemonStatus } from '../../daemon/types.ts';

const TOKEN = 'x'.repeat(43);

function app(over: { building?: boolean; queryTimeoutMs?: number } = {}) {
  const calls: string[] = [];
  const completeness = (): Completeness => (over.building ? { complete: false, progress: { phase: 'parse', done: 3, total: 10 } } : { complete: true });
  const queries: QueryAnswers = {
    // "slow" never answers: a query stuck waiting (a model, a lock), for the watchdog
    search: (q, k) => (calls.push(`search ${q} ${k}`), q === 'slow' ? new Promise<never>(() => {}) : Promise.resolve([])),
    context: async (q, o) => (calls.push(`context ${q} ${o.budget}`), { query: q } as never),
    arbitrate: async () => ({ choice: 'default', witnesses: [], reason: 'test' }),
    object: (id) => (id === '0123456789abcdef' ? ({ object: { id } } as never) : null),
    file: (p) => (p === 'a.py' ? { path: p, language: 'python', lineCount: 1, size: 2, text: 'x\n' } : p === 'link.py' ? 'forbidden' : null),
    hasFiles: () => true,
    inventory: (issue) => (calls.push(`inventory ${issue}`), { paths: ['a.py'], ranked: [], tokens: 2, cap: 1, total: 1 }) as never,
    selectFiles: async (issue, o, session) => (calls.push(`select ${issue} ${o.answers?.length ?? 0} ${session ?? '-'}`), { issue, warnings: [] } as never),
    findObjects: (p, name) => (p === 'a.py' && name === 'f' ? ([{ id: '0123456789abcdef' }] as never) : []),
    completeness,
    findSymbol: (q) => (calls.push(`symbol ${q.name} ${q.limit}`), { query: q.name, matches: [], total: 0, counts: { exact: 0, prefix: 0, parts: 0 }, truncated: false }),
    findReferences: (q) => (calls.push(`references ${q.id ?? q.name} ${q.limit}`), { targets: [], references: [], total: 0, counts: { call: 0, import: 0, inherit: 0, test: 0 }, truncated: false }),
    outline: (p) => {
      if (p !== 'a.py') throw new QueryError('not-found', `${p} is not an indexed file`);
      return { path: p, language: 'python', lineCount: 1, count: 0, objects: [] };
    },
    readFile: (q) => (calls.push(`read ${q.path} ${q.startLine ?? '-'} ${q.budget}`), { path: q.path, text: 'x' } as never),
    continueItems: async (r) => (calls.push(`continue ${r.query}|${r.fullInput ?? ''}`), [{ name: 'n', description: 'd', content: 'c' }]),
    follow: () => {},
  };
  const counted: string[] = [];
  const api = createApi({
    token: TOKEN,
    maxBodyBytes: 1024,
    status: () => ({ pid: 1 }) as DaemonStatus,
    queries,
    events: createEventBus(),
    completeness,
    countQuery: (kind, ok) => counted.push(`${kind} ${ok}`),
    queryTimeoutMs: over.queryTimeoutMs,
  });
  const req = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
    api.request(path, { ...init, headers: { host: '127.0.0.1:5000', authorization: `Bearer ${TOKEN}`, ...init.headers } });
  return { req, calls, counted };
}

/** Response bodies in these tests are JSON objects of known shape. */
const json = async (r: Response): Promise<any> => r.json();

const post = (body: string, headers: Record<string, string> = {}) => ({ method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });

describe('API gates', () => {
  it('accepts loopback Host headers only', () => {
    for (const h of ['127.0.0.1', '127.0.0.1:8080', 'localhost', 'LOCALHOST:1', '[::1]:80']) expect(isLoopbackHost(h), h).toBe(true);
    for (const h of [undefined, '', 'evil.com', 'localhost.evil.com', '127.0.0.1.nip.io', '127.0.0.2', '0.0.0.0:80', 'localhost:80:80']) {
      expect(isLoopbackHost(h), String(h)).toBe(false);
    }
  });

  it('compares bearer tokens', () => {
    expect(tokenMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(tokenMatches(`bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(tokenMatches(`Bearer ${TOKEN}x`, TOKEN)).toBe(false);
    expect(tokenMatches(TOKEN, TOKEN)).toBe(false);
    expect(tokenMatches(undefined, TOKEN)).toBe(false);
  });

  it('refuses missing and wrong tokens, foreign hosts and browsers, without CORS headers', async () => {
    const { req } = app();
    const missing = await req('/v1/status', { headers: { authorization: '' } });
    expect(missing.status).toBe(401);
    expect(await json(missing)).toEqual({ error: { code: 'unauthorized', message: expect.stringMatching(/missing bearer token/) } });
    expect((await req('/v1/status', { headers: { authorization: 'Bearer nope' } })).status).toBe(401);
    const host = await req('/v1/status', { headers: { host: 'attacker.example:5000' } });
    expect(host.status).toBe(403);
    expect((await json(host)).error.code).toBe('forbidden-host');
    const origin = await req('/v1/status', { headers: { origin: 'http://attacker.example' } });
    expect(origin.status).toBe(403);
    expect(origin.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await req('/v1/search', { method: 'OPTIONS', headers: { authorization: '', origin: 'http://x', 'access-control-request-method': 'POST' } });
    expect(preflight.status).toBe(403);
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect((await req('/v1/status')).status).toBe(200);
    // Unless the client asks for what is indexed so far.
    expect((await req('/v1/context', post('{"query":"x"}', { 'x-allot-partial': '1' }))).status).toBe(200);
  });
});

describe('API requests', () => {
  it('validates bodies: malformed JSON, bad fields, oversized', async () => {
    const { req, calls, counted } = app();
    const bad = await req('/v1/search', post('{"query":'));
    expect(bad.status).toBe(400);
    expect((await json(bad)).error.code).toBe('bad-json');
    const invalid = await req('/v1/context', post('{"query":"x","budget":"lots"}'));
    expect(invalid.status).toBe(400);
    expect((await json(invalid)).error).toEqual({ code: 'invalid-request', message: expect.stringMatching(/^budget: /) });
    const big = await req('/v1/search', post(JSON.stringify({ query: 'x'.repeat(2000) })));
    expect(big.status).toBe(413);
    expect((await json(big)).error.code).toBe('payload-too-large');
    // the rest of that body is never read: the connection must not be reused for another request
    expect(big.headers.get('connection')).toBe('close');
    expect(calls).toEqual([]);
    const ok = await req('/v1/search', post('{"query":"cart"}'));
    expect(ok.status).toBe(200);
    expect(await json(ok)).toEqual([]);
    expect(calls).toEqual(['search cart 20']);
    // the body limit answers before any route: an oversized request is not a query
    expect(counted).toEqual(['search false', 'context false', 'search true']);
  });

  it('routes, methods and objects', async () => {
    const { req } = app();
    expect((await req('/v1/nothing')).status).toBe(404);
    expect((await req('/v1/search')).status).toBe(405);
    expect((await req('/v1/objects/0123456789abcdef')).status).toBe(200);
    expect((await req('/v1/objects/ffffffffffffffff')).status).toBe(404);
    expect((await req('/v1/objects/..%2Fetc')).status).toBe(400);
  });

  it('inventory, file selection and object look-up by name: validated and routed', async () => {
    const { req, calls } = app();
    expect(await json(await req('/v1/inventory', post('{"issue":"crash in a"}')))).toMatchObject({ paths: ['a.py'] });
    expect((await req('/v1/inventory', post('{"issue":""}'))).status).toBe(400);
    expect((await req('/v1/inventory', post('{"issue":"x","extra":1}'))).status).toBe(400);
    const sel = await req('/v1/files/select', post(JSON.stringify({ issue: 'boom', answers: [['a.py'], ['a.py']], answersFrom: 'sampling', session: 's1' })));
    expect(sel.status).toBe(200);
    expect(calls).toContain('select boom 2 s1');
    for (const bad of [{ issue: 'x', budget: -1 }, { issue: 'x', answers: 'a.py' }, { issue: 'x', answersFrom: 'Not A Name' }, { issue: 'x', searches: ['a', 'b', 'c', 'd', 'e'] }]) {
      const r = await req('/v1/files/select', post(JSON.stringify(bad)));
      expect(r.status, JSON.stringify(bad)).toBe(400);
      expect((await json(r)).error.code).toBe('invalid-request');
    }
    expect(await json(await req('/v1/objects?path=a.py&name=f'))).toEqual([{ id: '0123456789abcdef' }]);
    expect(await json(await req('/v1/objects?path=a.py&name=g'))).toEqual([]);
    expect((await req('/v1/objects?path=../x&name=f')).status).toBe(400);
    expect((await req('/v1/inventory')).status).toBe(405);
  });

  it('serves indexed files only, inside the repository', async () => {
    const { req } = app();
    expect(await json(await req('/v1/files?path=a.py'))).toMatchObject({ path: 'a.py', text: 'x\n' });
    expect((await req('/v1/files?path=missing.py')).status).toBe(404);
    for (const p of ['../etc/passwd', '%2Fetc%2Fpasswd', 'a/..%2F..%2Fx', '', 'link.py']) {
      const r = await req(`/v1/files?path=${p}`);
      expect(r.status, p).toBe(403);
      expect((await json(r)).error.code).toBe('forbidden-path');
    }
  });

  it('says the index is being built instead of answering from an empty one', async () => {
    const { req } = app({ building: true });
    const r = await req('/v1/context', post('{"query":"x"}'));
    expect(r.status).toBe(503);
    expect((await json(r)).error).toEqual({ code: 'index-building', message: expect.stringMatching(/parse 3\/10 files/) });
    expect((await req('/v1/status')).status).toBe(200);
    // Unless the client asks for what is indexed so far.
    expect((await req('/v1/context', post('{"query":"x"}', { 'x-allot-partial': '1' }))).status).toBe(200);
  });

  it('answers a query stuck past its deadline with 503 query-timeout, and keeps serving', async () => {
    const { req, counted } = app({ queryTimeoutMs: 100 });
    const t0 = Date.now();
    const stuck = req('/v1/search', post('{"query":"slow"}'));
    // meanwhile other requests are answered
    expect((await req('/v1/status')).status).toBe(200);
    expect((await req('/v1/search', post('{"query":"cart"}'))).status).toBe(200);
    const r = await stuck;
    expect(r.status).toBe(503);
    expect((await json(r)).error).toEqual({ code: 'query-timeout', message: expect.stringMatching(/within 100 ms/) });
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(counted).toEqual(['search true', 'search false']);
  });
});

describe('API: symbol tools, Continue, and complete: false', () => {
  it('validates and routes find_symbol, find_references, file_outline and read_file', async () => {
    const { req, calls } = app();
    const invalid = async (route: string, body: unknown, pattern: RegExp) => {
      const r = await req(route, post(JSON.stringify(body)));
      expect(r.status, `${route} ${JSON.stringify(body)}`).toBe(400);
      const e = (await json(r)).error;
      expect(e.code).toBe('invalid-request');
      expect(e.message).toMatch(pattern);
    };
    await invalid('/v1/symbols', {}, /^name: /);
    await invalid('/v1/symbols', { name: '  ' }, /name: must not be empty/);
    await invalid('/v1/symbols', { name: 'f', limit: 201 }, /^limit: /);
    await invalid('/v1/symbols', { name: 'f', kind: 'procedure' }, /^kind: /);
    await invalid('/v1/symbols', { name: 'f', path: '/etc/**' }, /path: path must be a repository-relative glob/);
    await invalid('/v1/references', { limit: 5 }, /give id, or name/);
    await invalid('/v1/references', { name: 'f', kinds: ['calls'] }, /^kinds\.0: /);
    await invalid('/v1/references', { id: 'xyz' }, /^id: object ids are 16 hex digits/);
    await invalid('/v1/outline', { path: '/abs/a.py' }, /^path: path must be relative to the repository \(got "\/abs\/a.py"\)/);
    await invalid('/v1/outline', { path: 'a/../../b.py' }, /path must not contain \.\./);
    await invalid('/v1/files/read', { path: 'a.py', startLine: 5, endLine: 2 }, /endLine must not be before startLine/);
    await invalid('/v1/files/read', { path: 'a.py', budget: 100_001 }, /^budget: /);
    await invalid('/v1/files/read', { path: 'a.py', startLine: 0 }, /^startLine: /);
    expect(calls).toEqual([]);
    expect((await req('/v1/symbols', post('{"name":"Cart.total"}'))).status).toBe(200);
    expect((await req('/v1/references', post('{"id":"0123456789abcdef"}'))).status).toBe(200);
    expect((await req('/v1/files/read', post('{"path":"./a.py","startLine":3}'))).status).toBe(200);
    expect(calls).toEqual(['symbol Cart.total 20', 'references 0123456789abcdef 50', 'read a.py 3 8192']);
    expect(await json(await req('/v1/outline', post('{"path":"a.py"}')))).toMatchObject({ path: 'a.py', objects: [] });
    const missing = await req('/v1/outline', post('{"path":"b.py"}'));
    expect(missing.status).toBe(404);
    expect((await json(missing)).error).toEqual({ code: 'not-found', message: 'b.py is not an indexed file' });
    expect((await req('/v1/symbols')).status).toBe(405);
  });

  it('takes Continue\'s request as Continue sends it and answers its items', async () => {
    const { req, calls } = app();
    const r = await req('/v1/continue', post(JSON.stringify({ query: '', fullInput: '@allot where is the cart total?', options: { budget: 2048 }, workspacePath: '/w', extra: 1 })));
    expect(r.status).toBe(200);
    expect(await json(r)).toEqual([{ name: 'n', description: 'd', content: 'c' }]);
    expect(calls).toEqual(['continue |@allot where is the cart total?']);
    expect((await req('/v1/continue', post(JSON.stringify({ query: 'x', options: { budget: 'big' } })))).status).toBe(400);
  });

  it('says on every answer whether the index is complete, and how far it is when not', async () => {
    const done = app();
    const ok = await done.req('/v1/symbols', post('{"name":"f"}'));
    expect(ok.headers.get('x-allot-complete')).toBe('true');
    expect(ok.headers.get('x-allot-progress')).toBeNull();
    expect(await json(ok)).not.toHaveProperty('complete');
    const building = app({ building: true });
    const refused = await building.req('/v1/symbols', post('{"name":"f"}'));
    expect(refused.status).toBe(503);
    expect((await json(refused)).error.message).toBe('the index is still being built (parse 3/10 files); try again shortly');
    const partial = await building.req('/v1/symbols', post('{"name":"f"}', { 'x-allot-partial': '1' }));
    expect(partial.headers.get('x-allot-complete')).toBe('false');
    expect(partial.headers.get('x-allot-progress')).toBe('parse 3/10 files');
    expect(await json(partial)).toMatchObject({ matches: [], complete: false, progress: { phase: 'parse', done: 3, total: 10 } });
    // An array answer carries it in the headers only (its shape is a contract).
    const search = await building.req('/v1/search', post('{"query":"f"}', { 'x-allot-partial': '1' }));
    expect(await json(search)).toEqual([]);
    expect(search.headers.get('x-allot-complete')).toBe('false');
    // Continue cannot send the header: it is answered, and the items say the index is incomplete (see queries.ts).
    expect((await building.req('/v1/continue', post('{"query":"f"}'))).headers.get('x-allot-complete')).toBe('false');
  });
});
