/**
 * `allot files` end to end (the CQ2-CARE method): path inventory, localization
 * by agreeing answers, typed evidence, verbatim rendering within the budget.
 * The one function behind the CLI, the daemon's `POST /v1/files/select` and the
 * evaluation harness.
 */
import { getTokenizer, TOKENIZER_NAMES, type TokenizerName } from '../../indexer/tokenizer.ts';
import { agreeAtTheTop, agreeThird, agreeTwo, cleanAnswer, firstAnswerFirst, type DroppedPath } from './agree.ts';
import { baselineSelection, BASELINES, type BaselineName } from './baselines.ts';
import { buildInventory, type Inventory } from './inventory.ts';
import { issueSignals } from '../../indexer/retrieve/issue-signals.ts';
import type { LlmConfig } from './llm.ts';
import { FILE_RETRIEVERS, offlineAnswerSource, offlineDenseQueries, type FileRetriever } from './offline.ts';
import { DEFAULT_FILES_BUDGET, FILE_CAP, renderBlocks, SPAN_CAP, type BlockRequest } from './render.ts';
import { deriveSearches, MAX_SEARCHES, runSearches } from './searches.ts';
import { givenAnswerSource, llmAnswerSource, parseSearches } from './sources.ts';
import type { ShownDigests } from '../already-shown.ts';
import { contentHash } from '../../indexer/extract/extract-file.ts';
import type { Answer, AnswerSource, FileSelection, FileSource, Localization, SearchRecord, SearchSpec } from './types.ts';

export interface SelectFilesOptions {
  /** The whole context's token budget (default 80000). */
  budget?: number;
  tokenizer?: TokenizerName;
  /** Answers given by the caller: ranked path lists. When present, no model is asked. */
  answers?: string[][];
  /** Searches given by the caller, as text (`definition X`) or parsed. */
  searches?: (string | SearchSpec)[];
  /** A model to ask (OpenAI-compatible endpoint); ignored when answers are given. */
  llm?: LlmConfig | null;
  /** Any other answer source (e.g. the MCP host's model); ignored when answers are given, preferred to `llm`. */
  answerSource?: AnswerSource;
  /** fetch for the model client (tests). */
  fetch?: typeof fetch;
  /** Per-file and per-span caps (defaults 60000 and 12000 tokens). */
  fileCap?: number;
  spanCap?: number;
  /** A baseline instead of the selector. */
  baseline?: BaselineName;
  /** How the offline localizer's lexical answer ranks objects: `bm25` (default), `dense`, or `hybrid` (both, where the source has vectors). */
  retriever?: FileRetriever;
  /** A session's files already sent whole: path -> digest of the text sent. Unchanged ones are named, not shown again. */
  shown?: ShownDigests;
  /** The name `localization.source` gives caller answers (default `given`), e.g. `sampling` for the MCP host's model. */
  answersFrom?: string;
}

/** Checks options from a CLI or a request; throws an Error with a message for a person. */
export function checkSelectOptions(options: SelectFilesOptions): void {
  const count = (name: string, v: unknown) => {
    if (v !== undefined && (typeof v !== 'number' || !Number.isInteger(v) || v < 0)) throw new Error(`${name} must be a non-negative integer`);
  };
  count('budget', options.budget);
  count('fileCap', options.fileCap);
  count('spanCap', options.spanCap);
  if (options.tokenizer !== undefined && !TOKENIZER_NAMES.includes(options.tokenizer)) {
    throw new Error(`unknown tokenizer "${options.tokenizer}" (known: ${TOKENIZER_NAMES.join(', ')})`);
  }
  if (options.retriever !== undefined && !FILE_RETRIEVERS.includes(options.retriever)) {
    throw new Error(`unknown retriever "${options.retriever}" (known: ${FILE_RETRIEVERS.join(', ')})`);
  }
  if (options.baseline !== undefined && !BASELINES.includes(options.baseline)) {
    throw new Error(`unknown baseline "${options.baseline}" (known: ${BASELINES.join(', ')})`);
  }
  if (options.answers !== undefined && (!Array.isArray(options.answers) || options.answers.some((a) => !Array.isArray(a) || a.some((p) => typeof p !== 'string')))) {
    throw new Error('answers must be a list of path lists');
  }
}

/**
 * The path inventory for an issue (what `allot inventory` prints and `POST /v1/inventory` answers).
 * @example inventory('Session.send drops headers', storeFileSource(db, root)).paths
 */
export function inventory(issue: string, files: Pick<FileSource, 'paths'>, options: { tokenizer?: TokenizerName } = {}): Inventory {
  return buildInventory(files.paths(), issue, options.tokenizer ?? 'cl100k_base');
}

interface Asked {
  answers: (Answer | null)[];
  source: string;
}

/** Asks the two first answers together; a failing source gives way to the offline localizer, with a warning. */
async function askTwo(primary: AnswerSource, fallback: AnswerSource, request: { issue: string; inventory: string[] }, warnings: string[]): Promise<Asked & { used: AnswerSource }> {
  try {
    // Both settle before anything else is asked: a failed answer must not leave the other's retries in flight.
    const settled = await Promise.allSettled([primary.answer(request, 0), primary.answer(request, 1)]);
    const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    const answers = settled.map((r) => (r as PromiseFulfilledResult<Answer | null>).value);
    return { answers, source: primary.name, used: primary };
  } catch (err) {
    if (primary === fallback) throw err;
    warnings.push(`the ${primary.name} answer source failed (${(err as Error).message}); the offline localizer answered instead`);
    const answers = await Promise.all([fallback.answer(request, 0), fallback.answer(request, 1)]);
    return { answers, source: fallback.name, used: fallback };
  }
}

// Localization rule: "keep the files both name (in the first answer's order); if they share none, ask a third and keep
// what it shares with either; drop test and documentation paths and paths that are not in the index".
async function localize(
  issue: string,
  files: FileSource,
  inv: Inventory,
  primary: AnswerSource,
  offline: AnswerSource,
  warnings: string[],
): Promise<{ localization: Localization; modelSearches: SearchSpec[] }> {
  const request = { issue, inventory: inv.paths };
  const indexed = new Set(files.paths());
  const dropped: DroppedPath[] = [];
  const asked = await askTwo(primary, offline, request, warnings);
  let source = asked.source;
  const raw = asked.answers.filter((a): a is Answer => a !== null);
  const clean = raw.map((a) => cleanAnswer(a.paths, indexed, dropped));
  let agreed: string[];
  if (raw.length === 0) agreed = [];
  else if (raw.length === 1) agreed = clean[0]; // one answer given: the caller's choice stands
  else {
    agreed = agreeTwo(clean[0], clean[1]);
    if (agreed.length === 0) {
      let third: Answer | null = null;
      try {
        third = await asked.used.answer(request, 2);
      } catch (err) {
        warnings.push(`the ${asked.used.name} answer source failed on the third answer (${(err as Error).message}); the offline localizer answered instead`);
      }
      if (!third && asked.used !== offline) {
        third = await offline.answer(request, 2);
        source = `${source}+offline`;
      }
      if (third) {
        raw.push(third);
        clean.push(cleanAnswer(third.paths, indexed, dropped));
        agreed = agreeThird(clean[0], clean[1], clean[2]);
      }
    }
  }
  let agreement: Localization['agreement'] = asked.used.agreement ?? 'all';
  if (clean.length >= 2) {
    if (agreement === 'top') agreed = agreeAtTheTop(agreed, clean);
    if (agreed.length === 0) {
      agreed = firstAnswerFirst(clean);
      agreement = 'none';
      if (agreed.length) warnings.push(`no two answers name the same file: showing the first answer's first file, ${agreed[0]}`);
    }
  }
  const modelSearches: SearchSpec[] = [];
  if (asked.used !== offline) {
    for (const a of raw) for (const s of a.searches ?? []) {
      if (modelSearches.length < MAX_SEARCHES && !modelSearches.some((x) => x.kind === s.kind && x.query === s.query)) modelSearches.push(s);
    }
  }
  return { localization: { answers: raw.map((a) => a.paths), agreed, agreement, source, dropped }, modelSearches };
}

/**
 * Exact whole files for fixing an issue: the files that must change, whole and
 * verbatim, then short evidence spans, within the budget.
 * @example
 *   const files = storeFileSource(db, repoRoot);
 *   const sel = await selectFiles(issueText, files, { budget: 80000 });
 *   sel.blocks.filter((b) => b.role === 'file').map((b) => b.path)
 */
export async function selectFiles(issue: string, files: FileSource, options: SelectFilesOptions = {}): Promise<FileSelection> {
  checkSelectOptions(options);
  const budget = options.budget ?? DEFAULT_FILES_BUDGET;
  const tokenizer = options.tokenizer ?? 'cl100k_base';
  if (options.baseline) return baselineSelection(issue, files, options.baseline, { budget, tokenizer });
  const tok = getTokenizer(tokenizer);
  const warnings: string[] = [];

  const inv = buildInventory(files.paths(), issue, tok);
  const retriever = options.retriever ?? 'bm25';
  if (retriever !== 'bm25') await files.prepareDense?.(offlineDenseQueries(issue));
  const offline = offlineAnswerSource(files, { retriever });
  const given = (options.searches ?? []).map((s) => (typeof s === 'string' ? parseSearches([s])[0] : s));
  const primary: AnswerSource = options.answers?.length
    ? givenAnswerSource(options.answers, [], options.answersFrom)
    : options.answerSource ?? (options.llm ? llmAnswerSource(options.llm, options.fetch) : offline);
  const { localization, modelSearches } = await localize(issue, files, inv, primary, offline, warnings);

  const signals = issueSignals(issue);
  const chosenSearches: (SearchSpec & { origin: SearchRecord['origin'] })[] = given.length
    ? given.map((s) => ({ ...s, origin: 'model' as const }))
    : modelSearches.length
      ? modelSearches.map((s) => ({ ...s, origin: 'model' as const }))
      : deriveSearches(issue, files, localization.agreed, signals).map((s) => ({ ...s, origin: 'issue' as const }));
  const { records, spans } = runSearches(chosenSearches, files, localization.agreed);

  const unchanged = alreadySent(localization.agreed, files, options.shown);
  const requests: BlockRequest[] = [
    ...localization.agreed.filter((path) => !unchanged.has(path)).map((path) => ({ path, role: 'file' as const })),
    ...spans
      .filter((s) => !unchanged.has(s.path))
      .map((s) => ({ path: s.path, role: 'evidence' as const, startLine: s.startLine, endLine: s.endLine, search: s.search })),
  ];
  const r = renderBlocks(requests, files, tok, { budget, fileCap: options.fileCap ?? FILE_CAP, spanCap: options.spanCap ?? SPAN_CAP });
  return {
    issue,
    budget,
    tokenizer: tok.name,
    totalTokens: r.totalTokens,
    localization,
    searches: records,
    blocks: r.blocks,
    skipped: r.skipped,
    warnings: [...warnings, ...r.warnings],
    text: r.text,
    ...(options.shown ? { alreadyShown: [...unchanged] } : {}),
  };
}

/** Chosen files the session already has, byte for byte as they are now. */
function alreadySent(paths: readonly string[], files: FileSource, shown: ShownDigests | undefined): Set<string> {
  const out = new Set<string>();
  if (!shown?.size) return out;
  for (const p of paths) {
    const digest = shown.get(p);
    if (!digest) continue;
    const c = files.content(p);
    if ('text' in c && contentHash(c.text) === digest) out.add(p);
  }
  return out;
}
