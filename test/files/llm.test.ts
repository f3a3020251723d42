import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chatCompletion, completionsUrl, llmConfigFromEnv, LlmError, type LlmConfig } from '../../allocator/files/llm.ts';
import { selectFiles } from '../../allocator/files/select.ts';
import type { DB } from '../../indexer/store/open.ts';
import { indexedProject, ISSUE } from './project.ts';

/** A chat-completions server on 127.0.0.1 whose answers the test scripts, one handler per request. */
interface Seen { auth: string | undefined; body: { model: string; messages: { role: string; content: string }[] } ; at: number }
let server: http.Server;
let base: string;
let script: ((res: http.ServerResponse, seen: Seen) => void)[] = [];
let fallback: (res: http.ServerResponse, seen: Seen) => void;
const seen: Seen[] = [];

const reply = (content: string) => (res: http.ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }));
};
const status = (code: number, headers: Record<string, string> = {}) => (res: http.ServerResponse) => {
  res.writeHead(code, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ error: { message: code === 401 ? 'Incorrect API key provided: sk-bad' : `status ${code}` } }));
};
const hang = () => () => {}; // never answers
const later = (ms: number, then: (res: http.ServerResponse, s: Seen) => void) => (res: http.ServerResponse, s: Seen) => void setTimeout(() => then(res, s), ms);

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      const s: Seen = { auth: req.headers.authorization, body: JSON.parse(data || '{}'), at: Date.now() };
      seen.push(s);
      if (req.url !== '/v1/chat/completions') return status(404)(res);
      (script.shift() ?? fallback)(res, s);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});
afterEach(() => {
  script = [];
  seen.length = 0;
  fallback = status(500);
});

const config = (over: Partial<LlmConfig> = {}): LlmConfig => ({ url: base, model: 'test-model', apiKey: 'sk-test', timeoutMs: 2_000, retries: 3, backoffMs: 20, maxBackoffMs: 200, ...over });

describe('the OpenAI-compatible client', () => {
  it('sends the model, the messages and the key, and returns the message text', async () => {
    script = [reply('requests/models.py')];
    const text = await chatCompletion(config(), [{ role: 'user', content: 'which files?' }]);
    expect(text).toBe('requests/models.py');
    expect(seen[0].auth).toBe('Bearer sk-test');
    expect(seen[0].body.model).toBe('test-model');
    expect(seen[0].body.messages).toEqual([{ role: 'user', content: 'which files?' }]);
  });

  it('retries 429 and 5xx with growing backoff, honouring Retry-After', async () => {
    script = [status(429, { 'retry-after': '0.15' }), status(503), status(502), reply('ok')];
    expect(await chatCompletion(config(), [{ role: 'user', content: 'x' }])).toBe('ok');
    expect(seen).toHaveLength(4);
    const gaps = seen.slice(1).map((s, i) => s.at - seen[i].at);
    expect(gaps[0]).toBeGreaterThanOrEqual(140); // Retry-After 0.15 s beats the 20 ms backoff
    expect(gaps[2]).toBeGreaterThanOrEqual(75); // 20, 40, 80 ms
  });

  it('gives up after the retries with the last failure', async () => {
    fallback = status(500);
    await expect(chatCompletion(config({ retries: 2 }), [{ role: 'user', content: 'x' }])).rejects.toThrow(/HTTP 500.*gave up after 3 attempts/);
    expect(seen).toHaveLength(3);
  });

  it('times out a request that hangs, and retries it', async () => {
    script = [hang(), reply('late but fine')];
    expect(await chatCompletion(config({ timeoutMs: 150 }), [{ role: 'user', content: 'x' }])).toBe('late but fine');
    fallback = hang();
    const err = await chatCompletion(config({ timeoutMs: 100, retries: 1 }), [{ role: 'user', content: 'x' }]).catch((e) => e);
    expect(err).toBeInstanceOf(LlmError);
    expect(err.code).toBe('timeout');
    expect(err.message).toMatch(/did not answer within 100 ms/);
  });

  it('says clearly that the key was refused, without retrying', async () => {
    script = [status(401)];
    const err = await chatCompletion(config({ apiKey: 'sk-bad' }), [{ role: 'user', content: 'x' }]).catch((e) => e);
    expect(err).toBeInstanceOf(LlmError);
    expect(err.code).toBe('auth');
    expect(err.message).toMatch(/refused the API key \(HTTP 401: Incorrect API key provided: sk-bad\): check ALLOT_LLM_API_KEY/);
    expect(seen).toHaveLength(1);
  });

  it('explains other failures: wrong URL, unreachable endpoint, malformed answers', async () => {
    await expect(chatCompletion(config({ url: `${base}/nowhere` }), [{ role: 'user', content: 'x' }])).rejects.toThrow(/HTTP 404 \(check ALLOT_LLM_URL\)/);
    await expect(chatCompletion(config({ url: 'http://127.0.0.1:9/v1', retries: 0 }), [{ role: 'user', content: 'x' }])).rejects.toThrow(/cannot reach the model endpoint/);
    script = [(res) => res.end('not json')];
    await expect(chatCompletion(config(), [{ role: 'user', content: 'x' }])).rejects.toThrow(/not JSON/);
  });

  it('reads its configuration from the environment', () => {
    expect(llmConfigFromEnv({})).toBeNull();
    expect(llmConfigFromEnv({ ALLOT_LLM_URL: 'http://h/v1', ALLOT_LLM_MODEL: 'm', ALLOT_LLM_API_KEY: 'k' })).toEqual({ url: 'http://h/v1', model: 'm', apiKey: 'k' });
    expect(() => llmConfigFromEnv({ ALLOT_LLM_URL: 'http://h/v1' })).toThrow(/ALLOT_LLM_MODEL/);
    expect(completionsUrl('http://h/v1/')).toBe('http://h/v1/chat/completions');
    expect(completionsUrl('http://h/v1/chat/completions')).toBe('http://h/v1/chat/completions');
  });
});

describe('the selector with a model', () => {
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

  it('asks two answers in parallel with the inventory and the issue, keeps their agreement and the searches asked for', async () => {
    script = [
      later(300, reply('1. netkit/models.py\n2. netkit/client.py\n\nSEARCHES:\ndefinition to_native_string')),
      reply('```\nnetkit/models.py\ntests/test_client.py\nnetkit/nowhere.py\n```'),
    ];
    const sel = await selectFiles(ISSUE, source, { llm: config() });
    expect(seen).toHaveLength(2);
    expect(seen[1].at - seen[0].at).toBeLessThan(250); // the second was sent before the first was answered
    for (const s of seen) {
      const prompt = s.body.messages.at(-1)!.content;
      expect(prompt).toContain('netkit/models.py\n');
      expect(prompt).toContain('Getting http://.example.com raises UnicodeError');
    }
    expect(sel.localization.source).toBe('llm');
    expect(sel.localization.agreed).toEqual(['netkit/models.py']);
    expect(sel.searches).toEqual([expect.objectContaining({ kind: 'definition', query: 'to_native_string', origin: 'model' })]);
    expect(sel.blocks.map((b) => [b.path, b.role])).toEqual([['netkit/models.py', 'file'], ['netkit/utils.py', 'evidence']]);
    expect(sel.warnings).toEqual([]);
  });

  it('asks a third answer when the two share nothing', async () => {
    script = [reply('netkit/models.py'), reply('netkit/client.py'), reply('netkit/utils.py\nnetkit/client.py')];
    const sel = await selectFiles(ISSUE, source, { llm: config() });
    expect(seen).toHaveLength(3);
    expect(sel.localization.answers).toEqual([['netkit/models.py'], ['netkit/client.py'], ['netkit/utils.py', 'netkit/client.py']]);
    expect(sel.localization.agreed).toEqual(['netkit/client.py']);
  });

  it('falls back to the offline localizer with a warning when the model fails', async () => {
    fallback = status(500);
    const sel = await selectFiles(ISSUE, source, { llm: config({ retries: 1 }) });
    expect(sel.localization.source).toBe('offline');
    expect(sel.warnings[0]).toMatch(/the llm answer source failed \(.*HTTP 500.*\); the offline localizer answered instead/);
    expect(sel.localization.agreed).toContain('netkit/models.py');

    script = [status(401)];
    fallback = reply('netkit/models.py');
    const refused = await selectFiles(ISSUE, source, { llm: config({ apiKey: 'sk-bad' }) });
    expect(refused.localization.source).toBe('offline');
    expect(refused.warnings[0]).toMatch(/refused the API key/);
  });
});
