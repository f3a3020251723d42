import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allot } from '../helpers/cli.ts';
import { copyFixture, tempDir } from '../helpers/repo.ts';

const ISSUE = [
  'Cart.total raises ValueError for a 100% discount code',
  '',
  '```',
  'Traceback (most recent call last):',
  '  File "checkout.py", line 8, in <module>',
  '    cart.total(discount_percent=101)',
  '  File "/srv/app/shop/cart.py", line 19, in total',
  '    return with_tax(apply_discount(self.subtotal(), discount_percent))',
  '  File "/srv/app/shop/pricing.py", line 9, in apply_discount',
  '    raise ValueError("percent out of range")',
  'ValueError: percent out of range',
  '```',
  '',
  '`apply_discount` should clamp the percentage instead of raising.',
  '',
].join('\n');

let repo: string;
let issueDir: string;
let issueFile: string;
beforeAll(() => {
  repo = copyFixture('mixed');
  issueDir = tempDir('allot-issue-');
  issueFile = path.join(issueDir, 'ISSUE.txt');
  fs.writeFileSync(issueFile, ISSUE);
  expect(allot(['index', repo]).status).toBe(0);
});
afterAll(() => {
  fs.rmSync(repo, { recursive: true, force: true });
  fs.rmSync(issueDir, { recursive: true, force: true });
});

describe('allot files and allot inventory (real process)', () => {
  it('prints the chosen files whole and verbatim, and a report on stderr', () => {
    const r = allot(['files', '--issue', issueFile, '--no-llm', '--repo', repo]);
    expect(r.status).toBe(0);
    const pricing = fs.readFileSync(path.join(repo, 'shop/pricing.py'), 'utf8');
    expect(r.stdout).toContain(`### shop/pricing.py:1-14 (whole file)\n${pricing}`);
    expect(r.stderr).toMatch(/answer 1 \(offline\): .*shop\/pricing\.py/);
    expect(r.stderr).toMatch(/agreed: .*shop\/pricing\.py/);
    expect(r.stderr).toMatch(/\d+ files, \d+ evidence spans, \d+ of 80000 tokens \(cl100k_base\)/);
  });

  it('prints the JSON contract, reading the issue from standard input', () => {
    const r = allot(['files', '--issue', '-', '--json', '--budget', '5000', '--no-llm', '--repo', repo], { input: ISSUE });
    expect(r.status).toBe(0);
    const sel = JSON.parse(r.stdout);
    expect(Object.keys(sel)).toEqual(expect.arrayContaining(['issue', 'budget', 'tokenizer', 'totalTokens', 'localization', 'searches', 'blocks', 'skipped', 'text']));
    expect(sel).toMatchObject({ issue: ISSUE, budget: 5000, tokenizer: 'cl100k_base' });
    expect(Object.keys(sel.localization)).toEqual(expect.arrayContaining(['answers', 'agreed', 'source']));
    expect(sel.localization.agreed).toContain('shop/pricing.py');
    for (const b of sel.blocks) {
      expect(Object.keys(b)).toEqual(expect.arrayContaining(['path', 'role', 'startLine', 'endLine', 'tokens', 'text']));
      expect(['file', 'evidence']).toContain(b.role);
      if (b.role === 'file') expect(b.text).toBe(fs.readFileSync(path.join(repo, b.path), 'utf8'));
    }
    expect(sel.totalTokens).toBeLessThanOrEqual(5000);
    // tests and docs are never chosen
    expect(sel.localization.agreed.some((p: string) => /tests\/|docs\//.test(p))).toBe(false);
  });

  it('takes answers and searches from the caller', () => {
    const r = allot(['files', '--issue', issueFile, '--json', '--repo', repo,
      '--answer', 'shop/cart.py,shop/pricing.py,shop/tests/test_cart.py', '--answer', 'shop/pricing.py shop/cart.py',
      '--search', 'definition formatPrice']);
    expect(r.status).toBe(0);
    const sel = JSON.parse(r.stdout);
    expect(sel.localization).toMatchObject({ source: 'given', agreed: ['shop/cart.py', 'shop/pricing.py'] });
    expect(sel.blocks.map((b: { path: string; role: string }) => `${b.role} ${b.path}`)).toEqual(['file shop/cart.py', 'file shop/pricing.py', 'evidence web/format.ts']);
  });

  it('runs the baselines with the budget the selector used', () => {
    const own = JSON.parse(allot(['files', '--issue', issueFile, '--json', '--no-llm', '--repo', repo]).stdout);
    for (const baseline of ['file-bm25', 'chunk-bm25']) {
      const r = allot(['files', '--issue', issueFile, '--json', '--no-llm', '--baseline', baseline, '--budget-from-selection', '--repo', repo]);
      expect(r.status).toBe(0);
      const sel = JSON.parse(r.stdout);
      expect(sel).toMatchObject({ baseline, budget: own.totalTokens });
      expect(sel.totalTokens).toBeLessThanOrEqual(own.totalTokens);
      expect(sel.blocks.length).toBeGreaterThan(0);
    }
  });

  it('prints the inventory for an issue', () => {
    const text = allot(['inventory', 'shop pricing raises for a 100% discount', '--repo', repo]);
    expect(text.status).toBe(0);
    const paths = text.stdout.trim().split('\n');
    expect(paths).toEqual([...paths].sort());
    expect(paths).toContain('shop/pricing.py');
    expect(text.stderr).toMatch(/\d+ of 8 paths, \d+ tokens \(limit \d+: half of min\(\d+, 32000\)\)/);
    const json = JSON.parse(allot(['inventory', '--issue', issueFile, '--json', '--repo', repo]).stdout);
    expect(json).toMatchObject({ total: 8, tokenizer: 'cl100k_base' });
    expect(json.paths).toContain('shop/pricing.py');
  });

  it('gives clear errors with exit code 2', () => {
    const cases: [string[], RegExp][] = [
      [['files', '--repo', repo], /--issue FILE \(or - for standard input\) is required/],
      [['files', '--issue', issueFile, '--budget', 'lots', '--repo', repo], /--budget must be a non-negative integer/],
      [['files', '--issue', issueFile, '--baseline', 'grep', '--repo', repo], /unknown baseline "grep"/],
      [['files', '--issue', issueFile, '--search', 'look around', '--repo', repo], /cannot read the search "look around"/],
      [['files', '--issue', issueFile, '--db', path.join(repo, 'none.db'), '--repo', repo], /run `allot index` first/],
    ];
    for (const [args, message] of cases) {
      const r = allot(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
    }
    const noModel = allot(['files', '--issue', issueFile, '--repo', repo], { env: { ALLOT_LLM_URL: 'http://127.0.0.1:9/v1', ALLOT_LLM_MODEL: '' } });
    expect(noModel.status).toBe(2);
    expect(noModel.stderr).toMatch(/ALLOT_LLM_MODEL/);
  });

  it('falls back to the offline localizer with a warning when the configured model cannot be reached', () => {
    const r = allot(['files', '--issue', issueFile, '--json', '--repo', repo], {
      env: { ALLOT_LLM_URL: 'http://127.0.0.1:9/v1', ALLOT_LLM_MODEL: 'm', ALLOT_LLM_TIMEOUT_MS: '2000', ALLOT_LLM_RETRIES: '0' },
    });
    expect(r.status).toBe(0);
    const sel = JSON.parse(r.stdout);
    expect(sel.localization.source).toBe('offline');
    expect(sel.warnings[0]).toMatch(/cannot reach the model endpoint http:\/\/127\.0\.0\.1:9\/v1\/chat\/completions/);
  });
});
