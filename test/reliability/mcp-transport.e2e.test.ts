// `allot mcp` never goes silent on bad input (issue 17, items 6 and 8): a real `allot mcp` process (attached to
// a real daemon it starts) fed over its stdin, as a host would, with a line over 10 MB, malformed lines and
// progress tokens of every spec type. Each gets a JSON-RPC answer and the session goes on.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { stopDaemonProcess } from '../../client/lib/index.ts';
import { BIN, killDaemons, waitFor } from '../helpers/daemon.ts';
import { copyFixture } from '../helpers/repo.ts';

afterAll(killDaemons);

/** A raw stdio session with `allot mcp`: send lines, collect the JSON answers by id. */
function session(repo: string) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('ALLOT_LLM')));
  const child = spawn(process.execPath, [BIN, 'mcp', repo], { stdio: ['pipe', 'pipe', 'pipe'], env });
  const answers: any[] = [];
  let pending = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    pending += d;
    for (let nl = pending.indexOf('\n'); nl !== -1; nl = pending.indexOf('\n')) {
      answers.push(JSON.parse(pending.slice(0, nl)));
      pending = pending.slice(nl + 1);
    }
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<{ code: number | null; signal: string | null }>((r) => child.once('exit', (code, signal) => r({ code, signal })));
  const write = (line: string | Buffer) => new Promise<void>((r) => (child.stdin.write(line) ? r() : child.stdin.once('drain', () => r())));
  return {
    child, answers, exited, stderr: () => stderr,
    send: (m: object | string) => write(`${typeof m === 'string' ? m : JSON.stringify(m)}\n`),
    write,
    answer: (id: unknown) => waitFor(() => answers.find((a) => a.id === id), `the answer to ${JSON.stringify(id)}`, 60_000),
  };
}

const call = (id: unknown, token?: unknown) => ({
  jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'search_code', arguments: { query: 'cart total' }, ...(token !== undefined ? { _meta: { progressToken: token } } : {}) },
});

describe('allot mcp on bad input', () => {
  it('answers an oversized line, malformed lines and any progress token, and keeps serving', { timeout: 180_000 }, async () => {
    const repo = fs.realpathSync(copyFixture('mixed'));
    const s = session(repo);
    try {
      await s.send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw-host', version: '1' } } });
      expect((await s.answer(0)).result.serverInfo.name).toBe('allot');
      await s.send({ jsonrpc: '2.0', method: 'notifications/initialized' });

      // 11 MB on one line, in pieces as a pipe delivers them: answered with its id, never buffered whole
      const head = Buffer.from('{"jsonrpc":"2.0","id":"big","method":"tools/call","params":{"name":"search_code","arguments":{"query":"');
      await s.write(head);
      const mb = Buffer.alloc(1024 * 1024, 'a');
      for (let i = 0; i < 11; i++) await s.write(mb);
      await s.write('"}}}\n');
      expect(await s.answer('big')).toEqual({ jsonrpc: '2.0', id: 'big', error: { code: -32600, message: expect.stringMatching(/line over 10485760 bytes was discarded/) } });

      await s.send('{"jsonrpc": "2.0", "id": 1, "method": ');
      await s.send('not json at all');
      await s.send('[{"jsonrpc":"2.0","id":2,"method":"ping"}]');
      await s.send({ jsonrpc: '2.0', id: 3 });
      await s.send(call(4, { not: 'a token' }));
      await waitFor(() => s.answers.filter((a) => a.id === null).length >= 3 && s.answers.some((a) => a.id === 4) && s.answers.some((a) => a.id === 3), 'the errors');
      const nulls = s.answers.filter((a) => a.id === null).map((a) => a.error.code);
      expect(nulls).toEqual([-32700, -32700, -32600]);
      expect((await s.answer(3)).error.code).toBe(-32600);
      expect((await s.answer(4)).error).toEqual({ code: -32600, message: expect.stringMatching(/progressToken must be a string or a number/) });

      // progress tokens: strings and numbers of every kind are served
      for (const [id, token] of [[5, 'tok'], [6, 7], [7, 0], [8, 1.5], [9, -2]] as const) await s.send(call(id, token));
      for (const id of [5, 6, 7, 8, 9]) {
        const a = await s.answer(id);
        expect(a.error, JSON.stringify(a.error)).toBeUndefined();
        expect(a.result.content[0].text).toMatch(/cart/i);
      }
      expect(s.child.exitCode).toBeNull();
      s.child.stdin.end();
      expect(await s.exited).toEqual({ code: 0, signal: null });
      expect(s.stderr()).toMatch(/refused a message line over 10485760 bytes/);
    } finally {
      s.child.kill('SIGKILL');
      await stopDaemonProcess(repo).catch(() => {});
      fs.rmSync(repo, { recursive: true, force: true });
    }
  });
});
