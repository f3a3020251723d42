/** The public API of `allot files` (exact whole files for issue fixing) and `allot inventory`. */
export { selectFiles, inventory, checkSelectOptions, type SelectFilesOptions } from './select.ts';
export { baselineSelection, BASELINES, type BaselineName } from './baselines.ts';
export { buildInventory, rankPaths, pathWords, INVENTORY_TOKEN_CAP, type Inventory } from './inventory.ts';
export { agreeTwo, agreeThird, cleanAnswer } from './agree.ts';
export { parseAnswer } from './parse-answer.ts';
export { chatCompletion, llmConfigFromEnv, LlmError, type LlmConfig } from './llm.ts';
export { givenAnswerSource, llmAnswerSource, localizationPrompt, splitAnswer, parseSearches } from './sources.ts';
export { offlineAnswerSource, lexicalRanking, structuralRanking, titleRanking, pathRanking, DEFAULT_CUTS, type RankedFile } from './offline.ts';
export { deriveSearches, runSearches, parseSearch, MAX_SEARCHES, MAX_FILES } from './searches.ts';
export { renderBlocks, DEFAULT_FILES_BUDGET, FILE_CAP, SPAN_CAP } from './render.ts';
export type * from './types.ts';
