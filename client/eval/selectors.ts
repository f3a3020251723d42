/**
 * Issue selectors: methods that choose their own context for an issue (and so
 * their own budget), such as `allot files` (CQ2-CARE's exact whole files). The
 * issue runner speaks to them through this one small interface; baselines are
 * then measured both at fixed budgets and at each issue's selector budget.
 */
import { baselineSelection, type BaselineName } from '../../allocator/files/baselines.ts';
import { selectFiles } from '../../allocator/files/select.ts';
import { storeFileSource } from '../../indexer/store/file-source.ts';
import type { DB } from '../../indexer/store/open.ts';
import type { Tokenizer } from '../../indexer/tokenizer.ts';
import type { Method } from './methods.ts';

export interface SelectorBlock {
  path: string;
  role: string;
  startLine: number;
  endLine: number;
  tokens: number;
  text: string;
}

export interface SelectorResult {
  blocks: SelectorBlock[];
  totalTokens: number;
  /** The whole rendered context, when the blocks' texts leave out what joins them (headers). */
  text?: string;
}

/** What a selector gets besides the issue text: the index of the repository at the issue's commit. */
export interface SelectorContext {
  db: DB;
  /** The work tree, at the issue's base commit. */
  repo: string;
  tokenizer: Tokenizer;
}

export interface IssueSelector {
  name: string;
  description: string;
  select(issue: string, ctx: SelectorContext): SelectorResult | Promise<SelectorResult>;
}

/** The selectors `allot eval issues` knows. */
export const SELECTORS: readonly IssueSelector[] = [
  {
    name: 'files',
    description: 'allot files (CQ2-CARE): exact whole files chosen by agreeing answers of the offline localizer (no model asked), typed evidence spans, verbatim, within its own budget (at most 80K)',
    async select(issue, ctx) {
      const sel = await selectFiles(issue, storeFileSource(ctx.db, ctx.repo), { tokenizer: ctx.tokenizer.name });
      return { blocks: sel.blocks, totalTokens: sel.totalTokens, text: sel.text };
    },
  },
];

/**
 * The selector's own baselines (`allot files --baseline NAME`), as issue methods at any budget: code files only
 * (tests and documentation are not ranked), BM25 with the selector's query weighting, packed in rank order with a
 * block that does not fit skipped rather than cut. They read files from the work tree, so they run on issues only.
 */
function selectorBaseline(baseline: BaselineName): Method {
  return {
    name: `files-${baseline}`,
    description: `\`allot files --baseline ${baseline}\`: ${baseline === 'file-bm25' ? 'whole code files' : '20-line chunks of code files'} (tests and docs not ranked) by the selector's BM25, packed in rank order, a block that does not fit skipped`,
    prepare(env, query) {
      const files = storeFileSource(env.db, env.root);
      return {
        retrieved: () => [],
        render(budget) {
          const sel = baselineSelection(query, files, baseline, { budget, tokenizer: env.tokenizer.name });
          return { blocks: sel.blocks, totalTokens: sel.totalTokens, text: sel.text };
        },
      };
    },
  };
}

export const SELECTOR_BASELINES: readonly Method[] = [selectorBaseline('file-bm25'), selectorBaseline('chunk-bm25')];
