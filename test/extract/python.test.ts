import { describe, expect, it } from 'vitest';
import { extractionHarness, objects, object, parentOf, views, refs } from './harness.ts';

const { extract, extractText } = extractionHarness('python');

describe('python extraction of the fixture', () => {
  it('extracts a package marker: module docstring, relative imports, a constant', async () => {
    const f = await extract('ledger/__init__.py');
    expect(f.language).toBe('python');
    expect(f.parseErrors).toBe(0);
    expect(objects(f)).toEqual(['module ledger 1-6', 'constant __all__ 6-6']);
    expect(f.objects[0].docstring).toBe('"""A tiny double-entry ledger."""');
    expect(f.views.filter((v) => v.object === 0).map((v) => `${v.kind} ${v.startLine}-${v.endLine}`)).toEqual(['body 1-6', 'docstring 1-1']);
    expect(refs(f)).toEqual([
      '3 import Account from .accounts <- ledger',
      '3 import open_account from .accounts as open <- ledger',
      '4 import accounts from . <- ledger',
    ]);
  });

  it('extracts a class with a docstring, methods, a property, a decorated function and a constant', async () => {
    const f = await extract('ledger/accounts.py');
    expect(objects(f)).toEqual([
      'module ledger.accounts 1-34',
      'constant DEFAULT_CURRENCY 4-4',
      'class Account 7-22',
      'method Account.__init__ 10-13',
      'method Account.post 15-18',
      'method Account.is_overdrawn 20-22',
      'function quantize 25-27',
      'function open_account 30-34',
    ]);
    expect(parentOf(f, 'Account.post')).toBe('Account');
    expect(object(f, 'Account').docstring).toBe('"""An account holding a balance in one currency."""');
    expect(views(f, 'Account')).toEqual(['signature 7-7', 'body 7-22', 'docstring 8-8']);
    expect(views(f, 'Account.post')).toEqual(['signature 15-15', 'body 15-18', 'docstring 16-16']);
    // The decorator belongs to the span; the signature is the `def` line.
    expect(views(f, 'quantize')).toEqual(['signature 26-26', 'body 25-27']);
    expect(object(f, 'Account.__init__').signature).toBe('def __init__(self, name, currency=DEFAULT_CURRENCY):');
    expect(refs(f)).toEqual([
      '1 import functools from functools <- ledger.accounts',
      '2 import Decimal from decimal <- ledger.accounts',
      '2 import ROUND_HALF_EVEN from decimal <- ledger.accounts',
      '13 call Decimal <- Account.__init__',
      '17 call quantize <- Account.post',
      '17 call Decimal <- Account.post',
      '25 call lru_cache on functools <- ledger.accounts',
      '27 call quantize on amount <- quantize',
      '27 call Decimal <- quantize',
      '31 call Account <- open_account',
      '33 call post on account <- open_account',
    ]);
  });

  it('extracts a test module calling into the package through absolute imports', async () => {
    const f = await extract('tests/test_accounts.py');
    expect(objects(f)).toEqual(['module tests.test_accounts 1-12', 'function test_post_rounds_to_cents 5-7', 'function test_open_with_opening_balance 10-12']);
    expect(refs(f)).toEqual([
      '1 import ledger from ledger <- tests.test_accounts',
      '2 import Account from ledger.accounts <- tests.test_accounts',
      '2 import quantize from ledger.accounts <- tests.test_accounts',
      '6 call Account <- test_post_rounds_to_cents',
      '7 call post on account <- test_post_rounds_to_cents',
      '7 call quantize <- test_post_rounds_to_cents',
      '11 call open on ledger <- test_open_with_opening_balance',
    ]);
  });
});

describe('python robustness', () => {
  it('keeps what parses in a file with syntax errors', async () => {
    const f = await extractText('broken.py', 'def before():\n    return 1\n\n\ndef broken():\n    return 1 +\n\n\ndef after():\n    return before()\n');
    expect(f.parseErrors).toBeGreaterThan(0);
    expect(objects(f)).toEqual(['module broken 1-10', 'function before 1-2', 'function broken 5-6', 'function after 9-10']);
    expect(refs(f)).toEqual(['10 call before <- after']);
  });

  it('survives 5,000 nested brackets quickly', async () => {
    const n = 5000;
    const text = `x = ${'['.repeat(n)}${']'.repeat(n)}\ndef f():\n    return ${'('.repeat(n)}1${')'.repeat(n)}\n`;
    const t0 = performance.now();
    const f = await extractText('deep.py', text);
    expect(performance.now() - t0).toBeLessThan(2_000);
    expect(f.parseErrors).toBe(0);
    expect(objects(f)).toEqual(['module deep 1-3', 'constant x 1-1', 'function f 2-3']);
  });
});
