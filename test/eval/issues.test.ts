import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METHODS } from '../../client/eval/methods.ts';
import { progressBar } from '../../client/eval/progress.ts';
import { runIssues } from '../../client/eval/run-issues.ts';
import { PROSE_FORMS, runProse } from '../../client/eval/run-prose.ts';
import type { IssueSelector } from '../../client/eval/selectors.ts';
import { checkoutCommit } from '../../client/eval/worktree.ts';
import { allot } from '../helpers/cli.ts';
import { tempDir, writeTree } from '../helpers/repo.ts';

let root: string;
let gitDir: string;
const commits: string[] = [];

const git = (args: string[], cwd: string) => execFileSync('git', args, {
  cwd, encoding: 'utf8',
  env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com', GIT_CONFIG_NOSYSTEM: '1', HOME: cwd },
}).trim();

// A tiny repository with two commits: the second renames a function, adds a file and deletes one.
beforeAll(() => {
  root = tempDir('allot-eval-issues-');
  const src = path.join(root, 'src-repo');
  writeTree(src, {
    'shop/cart.py': 'from shop.pricing import apply_discount\n\n\nclass Cart:\n    def total(self, percent):\n        return apply_discount(100, percent)\n',
    'shop/pricing.py': 'def apply_discount(amount, percent):\n    """Reduce amount by percent."""\n    return amount * (100 - percent) / 100\n',
    'shop/legacy.py': 'def old_tax(amount):\n    return amount * 1.1\n',
    'README.md': '# shop\n\nCarts and prices.\n',
  });
  git(['init', '-q', '-b', 'main'], src);
  git(['add', '-A'], src);
  git(['commit', '-q', '-m', 'first'], src);
  commits.push(git(['rev-parse', 'HEAD'], src));
  fs.rmSync(path.join(src, 'shop/legacy.py'));
  writeTree(src, {
    'shop/pricing.py': 'def apply_discount(amount, percent):\n    """Reduce amount by percent, rounded to cents."""\n    return round(amount * (100 - percent) / 100, 2)\n',
    'shop/receipt.py': 'from shop.cart import Cart\n\n\ndef receipt(cart: Cart) -> str:\n    return f"total: {cart.total(0)}"\n',
  });
  git(['add', '-A'], src);
  git(['commit', '-q', '-m', 'second'], src);
  commits.push(git(['rev-parse', 'HEAD'], src));
  // The mirror layout of the search tool's fetch: <mirrors>/<owner>+<name>/repo is a git directory.
  gitDir = path.join(root, 'mirrors/acme+shop/repo');
  fs.mkdirSync(path.dirname(gitDir), { recursive: true });
  fs.cpSync(path.join(src, '.git'), gitDir, { recursive: true });
  const issue = (id: string, commit: string, text: string, gold: string[], patch: string) => JSON.stringify({
    instance_id: id, repo: 'acme/shop', base_commit: commit, problem_statement: text, gold_files: gold, patch,
  });
  // The gold patches (never shown to a method): each edits one line of a gold file on the old side.
  const fix = (file: string, at: number, old: string, now: string) => `--- a/${file}\n+++ b/${file}\n@@ -${at},1 +${at},1 @@\n-${old}\n+${now}\n`;
  fs.writeFileSync(path.join(root, 'issues.jsonl'), [
    issue('acme__shop-1', commits[0], 'Discount has too many decimals\n\napply_discount returns too many decimals when the percent is odd', ['shop/pricing.py'],
      fix('shop/pricing.py', 3, '    return amount * (100 - percent) / 100', '    return round(amount * (100 - percent) / 100, 2)')),
    issue('acme__shop-2', commits[1], 'receipt shows the cart total without the discount; Cart.total ignores percent', ['shop/receipt.py', 'shop/cart.py'],
      fix('shop/cart.py', 6, '        return apply_discount(100, percent)', '        return apply_discount(self.amount, percent)')),
  ].join('\n') + '\n');
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const rows = (file: string) => fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));

describe('work trees from a mirror', () => {
  it('moves one tree between commits without writing into the git directory', () => {
    const tree = path.join(root, 'wt-unit/tree');
    const index = path.join(root, 'wt-unit/git-index');
    const head = fs.readFileSync(path.join(gitDir, 'HEAD'), 'utf8');
    const mirrorIndex = fs.existsSync(path.join(gitDir, 'index')) ? fs.readFileSync(path.join(gitDir, 'index')) : null;
    expect(checkoutCommit(gitDir, tree, commits[1], index)).toEqual({ how: 'read-tree', absent: [] });
    expect(fs.existsSync(path.join(tree, 'shop/receipt.py'))).toBe(true);
    expect(fs.existsSync(path.join(tree, 'shop/legacy.py'))).toBe(false);
    checkoutCommit(gitDir, tree, commits[0], index);
    expect(fs.existsSync(path.join(tree, 'shop/receipt.py'))).toBe(false);
    expect(fs.readFileSync(path.join(tree, 'shop/legacy.py'), 'utf8')).toMatch(/old_tax/);
    expect(fs.readFileSync(path.join(tree, 'shop/pricing.py'), 'utf8')).not.toMatch(/round/);
    expect(fs.readFileSync(path.join(gitDir, 'HEAD'), 'utf8')).toBe(head);
    expect(fs.existsSync(path.join(gitDir, 'index')) ? fs.readFileSync(path.join(gitDir, 'index')) : null).toEqual(mirrorIndex);
    expect(() => checkoutCommit(gitDir, tree, 'f'.repeat(40), index)).toThrow(/not in/);
  });

  it('leaves out files whose blob the snapshot lacks, and says which', () => {
    const copy = path.join(root, 'mirror-partial');
    fs.cpSync(gitDir, copy, { recursive: true });
    const blob = execFileSync('git', [`--git-dir=${copy}`, 'rev-parse', `${commits[1]}:shop/receipt.py`], { encoding: 'utf8' }).trim();
    fs.rmSync(path.join(copy, 'objects', blob.slice(0, 2), blob.slice(2)));
    const tree = path.join(root, 'wt-partial/tree');
    const index = path.join(root, 'wt-partial/git-index');
    checkoutCommit(copy, tree, commits[0], index);
    expect(checkoutCommit(copy, tree, commits[1], index)).toEqual({ how: 'archive', absent: ['shop/receipt.py'] });
    expect(fs.existsSync(path.join(tree, 'shop/legacy.py'))).toBe(false);
    expect(fs.readFileSync(path.join(tree, 'shop/pricing.py'), 'utf8')).toMatch(/round/);
    expect(fs.existsSync(path.join(tree, 'shop/receipt.py'))).toBe(false);
    // and back: the next move removes what the archive brought
    expect(checkoutCommit(copy, tree, commits[0], index).how).toBe('read-tree');
    expect(fs.existsSync(path.join(tree, 'shop/legacy.py'))).toBe(true);
  });
});

describe('allot eval issues', () => {
  it('runs the baselines at each base commit through the CLI (real process)', () => {
    const r = allot(['eval', 'issues', 'issues.jsonl', '--mirrors', 'mirrors', '--worktrees', 'trees', '--index-dir', 'idx', '--out', 'out',
      '--methods', 'file-bm25,chunk-bm25,allocation', '--budgets', '512,4096'], { cwd: root });
    expect(r.stderr).not.toMatch(/Error/);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^2 tasks, 12 new rows/);
    const res = rows(path.join(root, 'out/results.jsonl'));
    expect(res).toHaveLength(12);
    for (const row of res) {
      expect(row).toMatchObject({ kind: 'issues', repo: 'acme/shop' });
      for (const k of ['goldFileRecall', 'allGold', 'noGold', 'goldFileTouched', 'goldLineShare', 'verbatimShare', 'tokens', 'latencyMs']) expect(row).toHaveProperty(k);
      expect(row.tokens).toBeLessThanOrEqual(row.budget);
    }
    // at 4K the whole small repository fits: file-bm25 shows every gold file whole, and only repository lines besides descriptors
    const whole = res.filter((x) => x.method === 'file-bm25' && x.budget === 4096);
    expect(whole.map((x) => [x.task, x.goldFileRecall, x.allGold])).toEqual([['acme__shop-1', 1, true], ['acme__shop-2', 1, true]]);
    // (the second issue's gold receipt.py exists only at the second commit: the tree moved)
    const summary = JSON.parse(fs.readFileSync(path.join(root, 'out/summary.json'), 'utf8'));
    expect(summary).toMatchObject({ kind: 'issues', tasks: 2, reference: 'file-bm25', budgets: [512, 4096] });
    const report = fs.readFileSync(path.join(root, 'out/report.md'), 'utf8');
    expect(report).toMatch(/^# allot eval: context for issues/);
    expect(report).toMatch(/gold-file recall/);
    const again = allot(['eval', 'issues', 'issues.jsonl', '--mirrors', 'mirrors', '--worktrees', 'trees', '--index-dir', 'idx', '--out', 'out',
      '--methods', 'file-bm25,chunk-bm25,allocation', '--budgets', '512,4096', '--resume'], { cwd: root });
    expect(again.stdout).toMatch(/^2 tasks, 0 new rows/);
  });

  it('runs allot files (the selector) at its own budget and the baselines at its budget too', () => {
    const r = allot(['eval', 'issues', 'issues.jsonl', '--mirrors', 'mirrors', '--worktrees', 'trees', '--index-dir', 'idx', '--out', 'out-files',
      '--methods', 'files,file-bm25,files-file-bm25', '--budgets', '4096'], { cwd: root });
    expect(r.status).toBe(0);
    const res = rows(path.join(root, 'out-files/results.jsonl'));
    expect(res.map((x) => [x.task, x.method, x.budget])).toEqual([
      ['acme__shop-1', 'files', 'own'], ['acme__shop-1', 'file-bm25', 4096], ['acme__shop-1', 'file-bm25', 'selector'],
      ['acme__shop-1', 'files-file-bm25', 4096], ['acme__shop-1', 'files-file-bm25', 'selector'],
      ['acme__shop-2', 'files', 'own'], ['acme__shop-2', 'file-bm25', 4096], ['acme__shop-2', 'file-bm25', 'selector'],
      ['acme__shop-2', 'files-file-bm25', 4096], ['acme__shop-2', 'files-file-bm25', 'selector'],
    ]);
    // the selector's own file baseline: code files whole at 4K, so the gold ones are shown
    expect(res.filter((x) => x.method === 'files-file-bm25' && x.budget === 4096).map((x) => x.goldFileRecall)).toEqual([1, 1]);
    for (const x of res.filter((y) => y.method === 'files')) {
      expect(x.tokens).toBeGreaterThan(0);
      expect(x.verbatimShare).toBeGreaterThan(0);
      expect(x.verbatimShare).toBeLessThan(1); // its block headers are context lines too
    }
    const summary = JSON.parse(fs.readFileSync(path.join(root, 'out-files/summary.json'), 'utf8'));
    expect(summary).toMatchObject({ reference: 'files', budgets: ['own', 4096, 'selector'], methods: ['files', 'file-bm25', 'files-file-bm25'] });
  });

  it('measures a selector at its own budget and the baselines at the same budget per issue', async () => {
    const seen: string[] = [];
    const selector: IssueSelector = {
      name: 'fake-files',
      description: 'test selector: every gold-looking file whole',
      select(issue, ctx) {
        seen.push(fs.existsSync(path.join(ctx.repo, 'shop/receipt.py')) ? 'second' : 'first');
        const p = issue.includes('receipt') ? 'shop/receipt.py' : 'shop/pricing.py';
        const text = fs.readFileSync(path.join(ctx.repo, p), 'utf8').replace(/\n$/, '');
        const n = text.split('\n').length;
        const block = { path: p, role: 'file', startLine: 1, endLine: n, tokens: ctx.tokenizer.count(text), text };
        return { blocks: [block], totalTokens: block.tokens };
      },
    };
    const out = path.join(root, 'out-selector');
    const outcome = await runIssues({
      tasksFile: path.join(root, 'issues.jsonl'), mirrors: path.join(root, 'mirrors'), worktrees: path.join(root, 'trees2'),
      indexDir: path.join(root, 'idx2'), out, selectors: [selector], methods: METHODS.filter((m) => m.name === 'file-bm25'),
      budgets: [4096], resume: false, progress: progressBar(process.stderr, true), command: 'test',
    });
    expect(seen).toEqual(['first', 'second']);
    const res = rows(path.join(out, 'results.jsonl'));
    expect(res.map((x) => [x.task, x.method, x.budget])).toEqual([
      ['acme__shop-1', 'fake-files', 'own'], ['acme__shop-1', 'file-bm25', 4096], ['acme__shop-1', 'file-bm25', 'selector'],
      ['acme__shop-2', 'fake-files', 'own'], ['acme__shop-2', 'file-bm25', 4096], ['acme__shop-2', 'file-bm25', 'selector'],
    ]);
    const own = res.filter((x) => x.method === 'fake-files');
    expect(own.map((x) => [x.goldFileRecall, x.verbatimShare])).toEqual([[1, 1], [0.5, 1]]);
    const atSelector = res.filter((x) => x.budget === 'selector');
    atSelector.forEach((x, i) => {
      expect(x.budgetTokens).toBe(own[i].tokens);
      expect(x.tokens).toBeLessThanOrEqual(own[i].tokens);
    });
    expect(outcome.summary.reference).toBe('fake-files');
    expect(outcome.summary.comparisons.map((c) => [c.method, c.budget, c.metric, c.referenceBudget])).toEqual([
      ['file-bm25', 4096, 'allGold', 'own'], ['file-bm25', 4096, 'noGold', 'own'],
      ['file-bm25', 'selector', 'allGold', 'own'], ['file-bm25', 'selector', 'noGold', 'own'],
    ]);
    expect(fs.readFileSync(path.join(out, 'report.md'), 'utf8')).toMatch(/\| method \| selector's own \| 4K \| at selector's \|/);
  });
});

describe('allot eval prose', () => {
  it('asks each issue as its text and as its title, and measures the edited lines shown', async () => {
    const run = (resume: boolean) => runProse({
      tasksFile: path.join(root, 'issues.jsonl'), mirrors: path.join(root, 'mirrors'), worktrees: path.join(root, 'trees'),
      indexDir: path.join(root, 'idx'), out: path.join(root, 'out-prose'), methods: METHODS.filter((m) => m.name === 'allocation' || m.name === 'chunk-bm25'),
      budgets: [4096], forms: PROSE_FORMS, resume, progress: progressBar(process.stderr, true), command: 'test',
    });
    const outcome = await run(false);
    expect(outcome.computed).toBe(8);
    const res = rows(path.join(root, 'out-prose/results.jsonl'));
    expect(res.map((x) => [x.task, x.form, x.method])).toEqual([
      ['acme__shop-1@text', 'text', 'allocation'], ['acme__shop-1@text', 'text', 'chunk-bm25'],
      ['acme__shop-1@title', 'title', 'allocation'], ['acme__shop-1@title', 'title', 'chunk-bm25'],
      ['acme__shop-2@text', 'text', 'allocation'], ['acme__shop-2@text', 'text', 'chunk-bm25'],
      ['acme__shop-2@title', 'title', 'allocation'], ['acme__shop-2@title', 'title', 'chunk-bm25'],
    ]);
    for (const row of res) {
      expect(row).toMatchObject({ kind: 'prose', repo: 'acme/shop', budget: 4096, hunks: 1 });
      expect(row.tokens).toBeLessThanOrEqual(4096);
    }
    // The whole tiny repository fits in 4K chunks: the edited line is shown for the issue text.
    expect(res.filter((x) => x.form === 'text' && x.method === 'chunk-bm25').map((x) => [x.editedLineShown, x.allHunksShown, x.goldFileShown]))
      .toEqual([[true, true, true], [true, true, true]]);
    expect(outcome.forms.map((f) => f.form)).toEqual(['text', 'title']);
    for (const form of ['text', 'title']) {
      const summary = JSON.parse(fs.readFileSync(path.join(root, `out-prose/${form}/summary.json`), 'utf8'));
      expect(summary).toMatchObject({ kind: 'prose', tasks: 2, reference: 'allocation', methods: ['allocation', 'chunk-bm25'] });
      expect(fs.readFileSync(path.join(root, `out-prose/${form}/report.md`), 'utf8')).toMatch(/edited line shown/);
    }
    expect((await run(true)).computed).toBe(0);
  });

  it('rejects an unknown query form with a one-line error (real process)', () => {
    const bad = allot(['eval', 'prose', 'issues.jsonl', '--mirrors', 'mirrors', '--forms', 'text,body'], { cwd: root });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--forms takes text, title; got "body"/);
  });
});
