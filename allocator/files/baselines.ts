/**
 * Baselines through the same interface as the selector: whole files ranked by
 * BM25 of the issue (`file-bm25`), or 20-line chunks ranked by BM25
 * (`chunk-bm25`), packed in rank order until the budget (a block that does not
 * fit is skipped, as the selector does).
 */
import { getTokenizer, type TokenizerName } from '../../indexer/tokenizer.ts';
import { renderBlocks, type BlockRequest } from './render.ts';
import type { FileSelection, FileSource } from './types.ts';

export const BASELINES = ['file-bm25', 'chunk-bm25'] as const;
export type BaselineName = (typeof BASELINES)[number];

/** Ranked files shown in the record of a baseline. */
const RANKING_SHOWN = 20;
/** Files (chunks) tried in rank order: past these, packing stops even if room is left. */
const FILES_TRIED = 100;
const CHUNKS_TRIED = 1_000;

// file-bm25 baseline rule: "whole files ranked by BM25 of the issue, packed in rank order until the budget";
// chunk-bm25: "line chunks" ranked by BM25, packed the same way.
export function baselineSelection(
  issue: string,
  files: FileSource,
  baseline: BaselineName,
  options: { budget: number; tokenizer?: TokenizerName },
): FileSelection {
  const tok = getTokenizer(options.tokenizer ?? 'cl100k_base');
  let requests: BlockRequest[];
  let ranking: string[];
  if (baseline === 'file-bm25') {
    ranking = [...files.fileScores(issue).keys()];
    requests = ranking.slice(0, FILES_TRIED).map((path) => ({ path, role: 'file' }));
  } else {
    const chunks = files.chunks(issue);
    ranking = [...new Set(chunks.map((c) => c.path))];
    requests = chunks.slice(0, CHUNKS_TRIED).map((c) => ({ path: c.path, role: 'chunk', startLine: c.startLine, endLine: c.endLine }));
  }
  const r = renderBlocks(requests, files, tok, { budget: options.budget });
  // Blocks the budget left out are not worth listing one by one: the ranking goes on past them.
  const skipped = r.skipped.filter((s) => !s.reason.startsWith('would exceed the budget'));
  return {
    issue,
    budget: Math.max(0, Math.floor(options.budget)),
    tokenizer: tok.name,
    totalTokens: r.totalTokens,
    localization: { answers: [ranking.slice(0, RANKING_SHOWN)], agreed: [], agreement: 'none', source: baseline, dropped: [] },
    searches: [],
    blocks: r.blocks,
    skipped,
    warnings: r.warnings,
    text: r.text,
    baseline,
  };
}
