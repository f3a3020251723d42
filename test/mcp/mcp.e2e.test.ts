/**
 * `allot mcp` end to end: the SDK's own client over stdio against the real
 * `allot mcp` process, which attaches to (and starts) the real daemon of a
 * temporary copy of a fixture repository.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopDaemonProcess } from '../../client/lib/index.ts';
import { killDaemons, track, waitFor } from '../helpers/daemon.ts';
import { callTool, openMcp, textOf, type McpSession } from '../helpers/mcp.ts';
import { copyFixture } from '../helpers/repo.ts';

const TOOLS = ['arbitrate_programs', 'file_outline', 'find_references', 'find_symbol', 'get_context', 'index_status', 'read_file', 'read_object', 'search_code', 'select_files'];

type Session = McpSession;
const open = (repo: string, sampling?: (prompt: string) => string) => openMcp(repo, { sampling });
const call = callTool;

describe('allot mcp (stdio, real daemon)', () => {
  let repo: string;
  let host: Session;
  let samplingPrompts: string[] = [];
  let samplingAnswers: string[] = [];

  beforeAll(async () => {
    repo = copyFixture('mixed');
    host = await open(repo, (prompt) => {
      samplingPrompts.push(prompt);
      return samplingAnswers.shift() ?? 'shop/pricing.py';
    });
  }, 60_000);

  afterAll(async () => {
    await host?.close();
    const stopped = await stopDaemonProcess(repo).catch(() => null);
    if (stopped) track(stopped.pid);
    killDaemons();
  });

  it('lists every tool with a description and an input schema', async () => {
    const { tools } = await host.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
    for (const t of tools) {
      expect(t.description!.length, t.name).toBeGreaterThan(80);
      expect(t.inputSchema.type).toBe('object');
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.search_code.inputSchema.required).toEqual(['query']);
    expect(byName.get_context.inputSchema.required).toEqual(['query']);
    expect(Object.keys(byName.get_context.inputSchema.properties!)).toEqual(expect.arrayContaining(['query', 'budget', 'slots', 'session']));
    expect(byName.select_files.inputSchema.required).toEqual(['issue']);
    expect(byName.read_object.inputSchema.required ?? []).toEqual([]);
    expect(Object.keys(byName.index_status.inputSchema.properties ?? {})).toEqual([]);
  });

  it('answers every tool from the daemon it started', async () => {
    // The daemon was started by the server a moment ago: wait for its first index to settle.
    const status = await waitFor(async () => {
      const r = await call(host, 'index_status', {});
      return (r.structuredContent as { catchingUp: boolean }).catchingUp ? null : r;
    }, 'the first index');
    expect(status.isError).toBeFalsy();
    const s = status.structuredContent as { via: string; index: { files: number }; daemon: { pid: number } | null };
    expect(s.via).toBe('daemon');
    expect(s.daemon?.pid).toBeGreaterThan(0);
    expect(s.index.files).toBeGreaterThan(3);
    expect(textOf(status)).toMatch(/Repository: .*\nIndex: \d+ files/);

    const search = await call(host, 'search_code', { query: 'apply discount percent', k: 3 });
    expect(textOf(search)).toMatch(/^1\. shop\/pricing\.py:\d+-\d+ apply_discount \(function/);
    expect((search.structuredContent as { hits: unknown[] }).hits.length).toBeLessThanOrEqual(3);

    const ctx = await call(host, 'get_context', { query: 'cart total with discount and tax', budget: 512 });
    expect(textOf(ctx)).toContain('def total(self, discount_percent=0):');
    expect((ctx.structuredContent as { totalTokens: number }).totalTokens).toBeLessThanOrEqual(512);

    const obj = await call(host, 'read_object', { path: 'shop/pricing.py', name: 'apply_discount' });
    expect(textOf(obj)).toContain('raise ValueError("percent out of range")');
    expect(textOf(obj)).toMatch(/Referenced from \(3\):\n- shop\/__init__\.py:3 import apply_discount\n/);
    expect(textOf(obj)).toContain('- shop/cart.py:19 call apply_discount');
    const id = (obj.structuredContent as { object: { id: string } }).object.id;
    expect(textOf(await call(host, 'read_object', { id }))).toContain('def apply_discount(amount, percent):');

    const arb = await call(host, 'arbitrate_programs', {
      default: 'def f(x):\n    return apply_discount(x 10)\n',
      alternative: 'from shop.pricing import apply_discount\n\ndef f(x):\n    return apply_discount(x, 10)\n',
      language: 'python',
    });
    expect(textOf(arb)).toMatch(/^choice: alternative/);
    expect((arb.structuredContent as { choice: string }).choice).toBe('alternative');
  });

  it('within a session, sends an object only once and names it afterwards', async () => {
    const query = 'apply_discount percent out of range';
    const first = await call(host, 'get_context', { query, budget: 600, session: 'task-1' });
    expect(textOf(first)).toContain('def apply_discount(amount, percent):');
    expect(textOf(first)).not.toContain('already shown');
    const second = await call(host, 'get_context', { query, budget: 600, session: 'task-1' });
    expect(textOf(second)).not.toContain('def apply_discount(amount, percent):');
    expect(textOf(second)).toMatch(/\(already shown: [^)]*shop\/pricing\.py:apply_discount/);
    // Another session, or none, starts afresh.
    expect(textOf(await call(host, 'get_context', { query, budget: 600, session: 'task-2' }))).toContain('def apply_discount(amount, percent):');
    expect(textOf(await call(host, 'get_context', { query, budget: 600 }))).toContain('def apply_discount(amount, percent):');
  });

  it('asks the host\'s model through sampling for the localization answers', async () => {
    samplingPrompts = [];
    samplingAnswers = ['1. shop/pricing.py\n2. shop/cart.py\nSEARCHES:\ncallers apply_discount', '- `shop/pricing.py`\n- web/api.ts'];
    const r = await call(host, 'select_files', { issue: 'apply_discount in the shop pricing raises ValueError for percent=100.5 instead of clamping', budget: 20000, session: 'fix-1' });
    expect(r.isError).toBeFalsy();
    expect(samplingPrompts).toHaveLength(2);
    expect(samplingPrompts[0]).toContain('shop/pricing.py');
    const sel = r.structuredContent as { localization: { source: string; agreed: string[] }; searches: { kind: string; query: string }[]; blocks: { path: string; role: string }[] };
    expect(sel.localization.source).toBe('sampling');
    expect(sel.localization.agreed).toEqual(['shop/pricing.py']);
    expect(sel.searches[0]).toMatchObject({ kind: 'callers', query: 'apply_discount' });
    expect(textOf(r)).toContain("Files chosen by the host's model (MCP sampling): shop/pricing.py.");
    expect(textOf(r)).toContain('TAX_RATE = 0.2');
    // The same session does not get the unchanged file again.
    samplingAnswers = ['shop/pricing.py', 'shop/pricing.py'];
    const again = await call(host, 'select_files', { issue: 'apply_discount in the shop pricing raises ValueError for percent=100.5 instead of clamping', session: 'fix-1' });
    expect(textOf(again)).not.toContain('TAX_RATE = 0.2');
    expect(textOf(again)).toContain('(already shown: shop/pricing.py)');
  });

  it('asks a third answer when the first two share no file', async () => {
    samplingPrompts = [];
    samplingAnswers = ['shop/cart.py', 'web/api.ts', 'shop/cart.py\nconfig.yaml'];
    const r = await call(host, 'select_files', { issue: 'Cart.total ignores the discount', budget: 20000 });
    expect(samplingPrompts).toHaveLength(3);
    expect((r.structuredContent as { localization: { agreed: string[]; answers: string[][] } }).localization).toMatchObject({
      agreed: ['shop/cart.py'],
      answers: [['shop/cart.py'], ['web/api.ts'], ['shop/cart.py', 'config.yaml']],
    });
  });

  it('turns bad arguments into tool errors and keeps serving', async () => {
    const missing = await call(host, 'search_code', {});
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/query/);
    const noTarget = await call(host, 'read_object', { name: 'apply_discount' });
    expect(noTarget.isError).toBe(true);
    expect(textOf(noTarget)).toBe('give either id, or both path and name');
    const badSlots = await call(host, 'get_context', { query: 'x', slots: 'many' });
    expect(badSlots.isError).toBe(true);
    expect(textOf(badSlots)).toMatch(/slots must look like core\+companions/);
    // The cursor's line reaches the daemon with its file; without the file it is refused there, in one line.
    const lineAlone = await call(host, 'get_context', { query: 'x', line: 3 });
    expect(lineAlone.isError).toBe(true);
    expect(textOf(lineAlone)).toMatch(/line: needs path/);
    const atCursor = await call(host, 'get_context', { query: 'from shop.pricing import apply_discount\n', path: 'shop/cart.py', line: 3, budget: 512 });
    expect(atCursor.isError).toBeFalsy();
    const unknown = await call(host, 'read_object', { path: 'shop/pricing.py', name: 'no_such_function' });
    expect(textOf(unknown)).toMatch(/no object named no_such_function in shop\/pricing\.py/);
    const badPath = await call(host, 'read_object', { path: '../etc/passwd', name: 'x' });
    expect(badPath.isError).toBe(true);
    expect((await call(host, 'index_status', {})).isError).toBeFalsy();
  });

  it('a host without sampling gets the offline localizer, and two servers share one daemon', async () => {
    const plain = await open(repo);
    try {
      const r = await call(plain, 'select_files', { issue: 'apply_discount raises ValueError("percent out of range") for 100.5', budget: 20000 });
      expect(r.isError).toBeFalsy();
      expect((r.structuredContent as { localization: { source: string } }).localization.source).toBe('offline');
      expect(textOf(r)).toContain("Files chosen by allot's offline localizer");
      const a = (await call(host, 'index_status', {})).structuredContent as { daemon: { pid: number } };
      const b = (await call(plain, 'index_status', {})).structuredContent as { daemon: { pid: number } };
      expect(b.daemon.pid).toBe(a.daemon.pid);
      expect(plain.stderr()).toContain(`attached to the allot daemon (pid ${a.daemon.pid})`);
    } finally {
      await plain.close();
    }
  });

  it('works in-process, and says so, when the daemon cannot start', async () => {
    const other = copyFixture('mixed');
    // A folder where the daemon's log file should be: starting the daemon fails before it runs.
    fs.mkdirSync(path.join(other, '.allot', 'daemon.log'), { recursive: true });
    const alone = await open(other);
    try {
      const s = await call(alone, 'index_status', {});
      expect(s.structuredContent).toMatchObject({ via: 'in-process', daemon: null, notice: expect.stringMatching(/daemon could not be used/) });
      const ctx = await call(alone, 'get_context', { query: 'apply discount percent', budget: 400 });
      expect(ctx.isError).toBeFalsy();
      expect(textOf(ctx)).toContain('def apply_discount(amount, percent):');
      expect(textOf(ctx)).toMatch(/Note: the allot daemon could not be used .*answering in-process/);
    } finally {
      await alone.close();
    }
  });
});

