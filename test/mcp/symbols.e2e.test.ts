/**
 * The symbol tools (`find_symbol`, `find_references`, `file_outline`,
 * `read_file`) end to end through the MCP SDK's client: answers from the real
 * daemon, bad arguments as tool errors, answers during a first index that say
 * so, `--no-daemon`, and budgets too small for anything.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopDaemonProcess } from '../../client/lib/index.ts';
import { killDaemons, track, waitFor } from '../helpers/daemon.ts';
import { callTool, openMcp, textOf, type McpSession } from '../helpers/mcp.ts';
import { copyFixture, moduleTree, tempDir, writeTree } from '../helpers/repo.ts';

const repos: string[] = [];
afterAll(async () => {
  for (const repo of repos) {
    const stopped = await stopDaemonProcess(repo).catch(() => null);
    if (stopped) track(stopped.pid);
  }
  killDaemons();
});

/** Waits until the daemon's first index is complete and caught up. */
const settledIndex = (s: McpSession) =>
  waitFor(async () => {
    const r = await callTool(s, 'index_status', {});
    const st = r.structuredContent as { complete: boolean; catchingUp: boolean };
    return st.complete && !st.catchingUp ? r : null;
  }, 'the first index', 60_000);

describe('symbol tools through the daemon', () => {
  let repo: string;
  let mcp: McpSession;
  beforeAll(async () => {
    repo = copyFixture('mixed');
    repos.push(repo);
    mcp = await openMcp(repo);
    await settledIndex(mcp);
  }, 90_000);
  afterAll(() => mcp?.close());

  it('find_symbol: exact, then prefix, then identifier parts, with path, lines, kind and signature', async () => {
    const exact = await callTool(mcp, 'find_symbol', { name: 'Cart.total' });
    expect(exact.isError).toBeFalsy();
    expect(textOf(exact)).toMatch(/^Exact matches \(1\):\n- shop\/cart\.py:17-19 method Cart\.total — def total\(self, discount_percent=0\): id=[0-9a-f]{16}\n/);
    const s = exact.structuredContent as { matches: { match: string; qualifiedName: string; path: string; startLine: number; endLine: number; kind: string; signature: string }[] };
    expect(s.matches[0]).toMatchObject({ match: 'exact', path: 'shop/cart.py', startLine: 17, endLine: 19, kind: 'method', signature: 'def total(self, discount_percent=0):' });
    expect(s.matches.map((m) => [m.qualifiedName, m.match])).toEqual([['Cart.total', 'exact'], ['GiftCart.total', 'parts']]);
    // A module-qualified name, a prefix, identifier parts in another order.
    expect((await callTool(mcp, 'find_symbol', { name: 'shop.pricing.with_tax' })).structuredContent).toMatchObject({ matches: [{ qualifiedName: 'with_tax', match: 'exact' }] });
    const prefix = (await callTool(mcp, 'find_symbol', { name: 'apply_disc' })).structuredContent as { matches: { qualifiedName: string; match: string }[] };
    expect(prefix.matches[0]).toMatchObject({ qualifiedName: 'apply_discount', match: 'prefix' });
    const parts = (await callTool(mcp, 'find_symbol', { name: 'discount apply' })).structuredContent as { matches: { qualifiedName: string; match: string }[] };
    expect(parts.matches).toEqual([expect.objectContaining({ qualifiedName: 'apply_discount', match: 'parts' })]);
    // kind and path filters
    const classes = (await callTool(mcp, 'find_symbol', { name: 'Cart', kind: 'class' })).structuredContent as { matches: { qualifiedName: string }[] };
    expect(classes.matches.map((m) => m.qualifiedName)).toEqual(['Cart', 'GiftCart']);
    expect((await callTool(mcp, 'find_symbol', { name: 'formatP', path: 'web/**' })).structuredContent).toMatchObject({ matches: [{ qualifiedName: 'formatPrice', path: 'web/format.ts' }] });
    expect((await callTool(mcp, 'find_symbol', { name: 'formatPrice', path: 'shop' })).structuredContent).toMatchObject({ matches: [] });
    expect(textOf(await callTool(mcp, 'find_symbol', { name: 'no_such_thing_anywhere' }))).toBe('No indexed code matches the name "no_such_thing_anywhere".');
  });

  it('find_references: callers, importers, subclasses and tests, with the enclosing object and the line', async () => {
    const r = await callTool(mcp, 'find_references', { name: 'Cart', path: 'shop/cart.py' });
    expect(r.isError).toBeFalsy();
    const text = textOf(r);
    expect(text).toMatch(/^References to shop\/cart\.py:4-19 class Cart — class Cart: id=[0-9a-f]{16}\n0 call\(s\), 1 import\(s\), 1 subclass\(es\) outside tests; 2 use\(s\) from tests\.\n/);
    expect(text).toContain('- shop/__init__.py:2 import in top level: from .cart import Cart');
    expect(text).toContain('- shop/cart.py:22 inherit in class GiftCart: class GiftCart(Cart):');
    expect(text).toContain('- shop/tests/test_cart.py:5 call (test) in function test_total_applies_tax: cart = Cart().add_item("tea", 10)');
    // tests last, and a filter for them
    const refs = (r.structuredContent as { references: { path: string; test: boolean }[] }).references;
    expect(refs.map((x) => x.test)).toEqual([false, false, true, true]);
    const tests = (await callTool(mcp, 'find_references', { name: 'Cart', kinds: ['test'] })).structuredContent as { references: { path: string }[]; total: number };
    expect(tests.total).toBe(2);
    expect(new Set(tests.references.map((x) => x.path))).toEqual(new Set(['shop/tests/test_cart.py']));
    // a plain name that several objects have: each of them, and the text says so
    const both = await callTool(mcp, 'find_references', { name: 'total' });
    expect((both.structuredContent as { targets: { qualifiedName: string }[] }).targets.map((t) => t.qualifiedName)).toEqual(['Cart.total', 'GiftCart.total']);
    expect(textOf(both)).toMatch(/^References to 2 objects of that name:\n  shop\/cart\.py:17-19 method Cart\.total/);
    // by id, as find_symbol gives it
    const id = ((await callTool(mcp, 'find_symbol', { name: 'apply_discount' })).structuredContent as { matches: { id: string }[] }).matches[0].id;
    const byId = (await callTool(mcp, 'find_references', { id, kinds: ['call'] })).structuredContent as { references: { path: string; line: number; enclosing: { qualifiedName: string }; text: string }[] };
    expect(byId.references).toEqual([expect.objectContaining({ path: 'shop/cart.py', line: 19, enclosing: expect.objectContaining({ qualifiedName: 'Cart.total' }), text: '        return with_tax(apply_discount(self.subtotal(), discount_percent))' })]);
  });

  it('file_outline and read_file: a file\'s tree, and its lines verbatim within a budget', async () => {
    const outline = await callTool(mcp, 'file_outline', { path: 'shop/cart.py' });
    expect(textOf(outline)).toMatch(/^shop\/cart\.py \(python, 24 lines, 7 objects\)\n- 4-19 class Cart: class Cart: id=\w+\n  - 7-8 method __init__: def __init__\(self\): id=\w+\n/);
    expect((outline.structuredContent as { objects: { name: string; children: { name: string }[] }[] }).objects.map((o) => [o.name, o.children.map((c) => c.name)])).toEqual([
      ['Cart', ['__init__', 'add_item', 'subtotal', 'total']],
      ['GiftCart', ['total']],
    ]);
    const onDisk = fs.readFileSync(path.join(repo, 'shop/pricing.py'), 'utf8').split('\n');
    const read = await callTool(mcp, 'read_file', { path: 'shop/pricing.py', startLine: 6, endLine: 10 });
    expect(read.content).toHaveLength(2);
    expect((read.content[0] as { text: string }).text).toMatch(/^shop\/pricing\.py: lines 6-10 of 14 \(python, \d+ tokens\)\. The text that follows is verbatim\.$/);
    expect((read.content[1] as { text: string }).text).toBe(onDisk.slice(5, 10).join('\n'));
    // A budget that does not hold the range: whole lines up to it, and where to go on.
    const cut = await callTool(mcp, 'read_file', { path: 'shop/pricing.py', budget: 20 });
    const c = cut.structuredContent as { endLine: number; tokens: number; truncated: boolean; nextLine: number; text: string };
    expect(c).toMatchObject({ truncated: true, nextLine: c.endLine + 1 });
    expect(c.tokens).toBeLessThanOrEqual(20);
    expect(c.text).toBe(onDisk.slice(0, c.endLine).join('\n'));
    expect(textOf(cut)).toContain(`cut at the budget of 20 tokens: continue with startLine ${c.endLine + 1}`);
  });

  it('refuses bad arguments with a clear message and keeps serving', async () => {
    const error = async (name: string, args: Record<string, unknown>, pattern: RegExp) => {
      const r = await callTool(mcp, name, args);
      expect(r.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(textOf(r)).toMatch(pattern);
    };
    await error('find_symbol', {}, /name/);
    await error('find_symbol', { name: 'x', limit: 0 }, /limit/);
    await error('find_symbol', { name: 'x', limit: 201 }, /limit/);
    await error('find_symbol', { name: 'x', kind: 'procedure' }, /kind/);
    await error('find_symbol', { name: 'x', path: '/etc/**' }, /path must be a repository-relative glob/);
    await error('find_references', {}, /give either id, or name/);
    await error('find_references', { name: 'no_such_function' }, /^no object named no_such_function$/);
    await error('find_references', { name: 'tot' }, /^no object named tot \(similar: Cart\.total, GiftCart\.total\)$/);
    await error('find_references', { name: 'Cart', kinds: ['calls'] }, /kinds/);
    await error('file_outline', { path: '/etc/passwd' }, /path must be relative to the repository/);
    await error('file_outline', { path: '../outside.py' }, /path must not contain \.\./);
    await error('file_outline', { path: 'shop/nope.py' }, /^shop\/nope\.py is not an indexed file of .* \(no such file\)$/);
    await error('read_file', { path: 'shop/pricing.py', startLine: 9, endLine: 3 }, /endLine must not be before startLine/);
    await error('read_file', { path: 'shop/pricing.py', startLine: 99 }, /startLine 99 is past the end of the file \(14 lines\)/);
    await error('read_file', { path: 'shop/pricing.py', budget: 100_001 }, /budget/);
    // the existing tools validate their paths the same way
    await error('search_code', { query: 'cart', path: '/abs/cart.py' }, /path must be relative to the repository/);
    await error('get_context', { query: 'cart', path: 'shop/missing.py' }, /path: shop\/missing\.py is not a file of the repository/);
    await error('get_context', { query: 'cart', slots: 51 }, /slots must be from 2 to 50/);
    expect((await callTool(mcp, 'index_status', {})).isError).toBeFalsy();
  });

  it('a budget too small for anything is an error that says what it would need', async () => {
    const r = await callTool(mcp, 'get_context', { query: 'apply discount percent', budget: 10 });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^Warning: nothing fit the budget of 10 tokens: .*the first, apply_discount \(shop\/pricing\.py:6-10\), was allotted \d+ tokens but its descriptor line alone needs \d+/);
  });

  it('index_status says which daemon serves the session and how to stop it', async () => {
    const s = await callTool(mcp, 'index_status', {});
    const st = s.structuredContent as { daemon: { pid: number; startedBySession: boolean; stop: string; address: string } };
    expect(st.daemon).toMatchObject({ startedBySession: true, stop: `allot stop ${fs.realpathSync(repo)}`, address: expect.stringMatching(/^127\.0\.0\.1:\d+$/) });
    expect(textOf(s)).toContain(`Daemon: pid ${st.daemon.pid} on ${st.daemon.address}`);
    expect(textOf(s)).toContain('started by this MCP server');
    expect(textOf(s)).toContain(`Stop it with \`allot stop ${fs.realpathSync(repo)}\``);
    expect(mcp.stderr()).toMatch(/started the allot daemon \(pid \d+\) for .*; it keeps serving after this session ends: `allot stop .*` stops it/);
  });
});

describe('during the first index', () => {
  it('every tool says the index is incomplete, with progress, and never answers a bare "no match"', { timeout: 120_000 }, async () => {
    const repo = fs.realpathSync(tempDir('allot-first-'));
    repos.push(repo);
    writeTree(repo, moduleTree(600));
    // --index-wait 0: answer at once, so the calls below meet the build in progress.
    const mcp = await openMcp(repo, { args: ['--index-wait', '0'] });
    try {
      const status = await callTool(mcp, 'index_status', {});
      const st = status.structuredContent as { complete: boolean; state: string; progress: { done: number; total: number } | null };
      expect(st).toMatchObject({ complete: false, state: 'building' });
      expect(textOf(status)).toMatch(/Incomplete: the first full build is running/);
      const calls: [string, Record<string, unknown>][] = [
        ['find_symbol', { name: 'work_599_3' }],
        ['search_code', { query: 'work_599_3 step' }],
        ['get_context', { query: 'Step 3 of module 599' }],
        ['find_references', { name: 'work_0_0' }],
      ];
      let incomplete = 0;
      for (const [name, args] of calls) {
        const r = await callTool(mcp, name, args);
        const text = textOf(r);
        expect(text, name).not.toMatch(/No indexed code matches/);
        const complete = (r.structuredContent as { complete?: boolean } | undefined)?.complete;
        if (complete === false) {
          incomplete++;
          expect(text, name).toMatch(/^Incomplete: the index of .* is still being built \((\d+ of \d+ files|starting|discover, files not counted yet)[^)]*\); this answer covers only the files indexed so far/);
          expect(r.structuredContent, name).toMatchObject({ progress: { phase: expect.any(String) } });
        } else if (r.isError) {
          // (find_references of a name not indexed yet: an error, which says the index is incomplete too)
          expect(text, name).toMatch(/^Incomplete: the index of .* is still being built/);
        }
      }
      // The first call came right after a status that said "building": at least that one met the build.
      expect(incomplete).toBeGreaterThan(0);
      // A file not reached yet is "not indexed yet", not absent.
      const later = await callTool(mcp, 'file_outline', { path: 'pkg/d19/mod599.py' });
      if (later.isError) expect(textOf(later)).toMatch(/exists, but is not indexed: .*not indexed yet/);
      // Once the build is done, the same answers are complete.
      await settledIndex(mcp);
      const done = await callTool(mcp, 'find_symbol', { name: 'work_599_3' });
      expect(textOf(done)).toMatch(/^Exact matches \(1\):\n- pkg\/d19\/mod599\.py:/);
      expect(done.structuredContent).not.toHaveProperty('complete');
    } finally {
      await mcp.close();
    }
  });
});

describe('allot mcp --no-daemon', () => {
  it('answers in-process and never starts a daemon', { timeout: 60_000 }, async () => {
    const repo = copyFixture('mixed');
    repos.push(repo);
    const mcp = await openMcp(repo, { args: ['--no-daemon'] });
    try {
      const r = await waitFor(async () => {
        const x = await callTool(mcp, 'find_symbol', { name: 'apply_discount' });
        return (x.structuredContent as { complete?: boolean }).complete === false ? null : x;
      }, 'the in-process index', 30_000);
      expect(textOf(r)).toMatch(/^Exact matches \(1\):\n- shop\/pricing\.py:6-10 function apply_discount/);
      const s = (await callTool(mcp, 'index_status', {})).structuredContent as { via: string; daemon: unknown; complete: boolean };
      expect(s).toMatchObject({ via: 'in-process', daemon: null, complete: true });
      expect(fs.existsSync(path.join(repo, '.allot/daemon.pid'))).toBe(false);
      expect(fs.existsSync(path.join(repo, '.allot/daemon.json'))).toBe(false);
    } finally {
      await mcp.close();
    }
  });
});
