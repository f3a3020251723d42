import fs from 'node:fs';
import type { Command } from 'commander';
import { BASELINES, type BaselineName } from '../../../allocator/files/baselines.ts';
import { FILE_RETRIEVERS, type FileRetriever } from '../../../allocator/files/offline.ts';
import type { SelectFilesOptions } from '../../../allocator/files/select.ts';
import type { FileSelection } from '../../../allocator/files/types.ts';
import type { TokenizerName } from '../../../indexer/tokenizer.ts';
import { resolveDb, resolveRepo, UsageError } from '../repo.ts';

interface FilesFlags {
  issue?: string;
  answer: string[];
  search: string[];
  budget: string;
  tokenizer: string;
  json?: boolean;
  baseline?: string;
  budgetFromSelection?: boolean;
  llm: boolean;
  retriever: string;
}

const collect = (value: string, previous: string[]) => [...previous, value];

/** The issue text: a file, or standard input for `-`. */
export function readIssue(source: string | undefined): string {
  if (source === undefined) throw new UsageError('--issue FILE (or - for standard input) is required');
  let text: string;
  try {
    text = source === '-' ? fs.readFileSync(0, 'utf8') : fs.readFileSync(source, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read the issue from ${source === '-' ? 'standard input' : source}: ${(err as Error).message}`);
  }
  if (!text.trim()) throw new UsageError(`the issue ${source === '-' ? 'on standard input' : `in ${source}`} is empty`);
  return text;
}

/** What a person reads on stderr next to the context: localization, searches, skipped blocks, warnings. */
export function report(sel: FileSelection): string {
  const lines: string[] = [];
  const files = sel.blocks.filter((b) => b.role === 'file');
  const spans = sel.blocks.filter((b) => b.role !== 'file');
  if (sel.baseline) lines.push(`baseline ${sel.baseline}: ${files.length} files, ${spans.length} chunks`);
  else {
    const l = sel.localization;
    l.answers.forEach((a, i) => lines.push(`answer ${i + 1} (${l.source}): ${a.join(', ') || '(none)'}`));
    lines.push(`agreed: ${l.agreed.join(', ') || '(none)'}`);
    for (const d of l.dropped) lines.push(`dropped ${d.path}: ${d.reason}`);
    for (const s of sel.searches) lines.push(`search ${s.kind} ${s.kind === 'string' ? JSON.stringify(s.query) : s.query} (${s.origin}): ${s.found} found, ${s.added.length} spans added`);
  }
  for (const s of sel.skipped) lines.push(`skipped ${s.path}:${s.startLine}-${s.endLine} (${s.role}): ${s.reason}`);
  for (const w of sel.warnings) lines.push(`warning: ${w}`);
  lines.push(`${files.length} files, ${spans.length} ${sel.baseline === 'chunk-bm25' ? 'chunks' : 'evidence spans'}, ${sel.totalTokens} of ${sel.budget} tokens (${sel.tokenizer})`);
  return lines.join('\n');
}

export function registerFiles(program: Command): void {
  program
    .command('files')
    .description('exact whole files for fixing an issue: the files that must change, whole and verbatim, plus typed evidence')
    .option('--issue <file>', 'the issue text: a file, or - for standard input')
    .option('--answer <paths>', 'a ranked answer to "which files must change?" (comma-separated paths); repeat for each answer', collect, [])
    .option('--search <search>', 'a typed search: definition NAME, callers NAME or string "TEXT"; repeatable (at most 4 run)', collect, [])
    .option('--budget <tokens>', 'the whole context budget', '80000')
    .option('--tokenizer <name>', 'cl100k_base or o200k_base', 'cl100k_base')
    .option('--json', 'print {issue, budget, tokenizer, totalTokens, localization, searches, blocks, skipped, warnings, text}')
    .option('--baseline <name>', `a baseline through the same interface: ${BASELINES.join(' or ')}`)
    .option('--budget-from-selection', 'with --baseline: the budget is what the selector itself used on this issue')
    .option('--no-llm', 'do not ask the model configured by ALLOT_LLM_URL: the offline localizer answers')
    .option('--retriever <name>', `how the offline localizer ranks objects: ${FILE_RETRIEVERS.join(', ')} (hybrid = BM25 plus dense, for an index with vectors)`, 'bm25')
    .action(async (flags: FilesFlags, cmd: Command) => {
      const global = cmd.optsWithGlobals() as { repo?: string; db?: string };
      const issue = readIssue(flags.issue);
      if (!/^\s*\d+\s*$/.test(flags.budget)) throw new UsageError('--budget must be a non-negative integer');
      if (flags.budgetFromSelection && !flags.baseline) throw new UsageError('--budget-from-selection goes with --baseline');
      const [{ llmConfigFromEnv, LlmError }, { checkSelectOptions, selectFiles }, { splitAnswer }, { activeEmbedder }, { storeFileSource }, { openStore }] = await Promise.all([
        import('../../../allocator/files/llm.ts'), import('../../../allocator/files/select.ts'), import('../../../allocator/files/sources.ts'),
        import('../../../indexer/embed/active.ts'), import('../../../indexer/store/file-source.ts'), import('../../../indexer/store/open.ts'),
      ]);
      let llm = null;
      try {
        llm = flags.llm && !flags.answer.length ? llmConfigFromEnv() : null;
      } catch (err) {
        if (err instanceof LlmError) throw new UsageError(err.message);
        throw err;
      }
      const options: SelectFilesOptions = {
        budget: Number(flags.budget),
        tokenizer: flags.tokenizer as TokenizerName,
        answers: flags.answer.map(splitAnswer).filter((a) => a.length),
        searches: flags.search,
        llm,
        retriever: flags.retriever as FileRetriever,
        ...(flags.baseline ? { baseline: flags.baseline as BaselineName } : {}),
      };
      try {
        checkSelectOptions(options);
      } catch (err) {
        throw new UsageError((err as Error).message);
      }
      const repo = resolveRepo(global.repo);
      const db = openStore(resolveDb(repo, global.db), { readonly: true });
      try {
        const dense = flags.retriever === 'bm25' || flags.baseline ? null : await activeEmbedder(db);
        if (flags.retriever === 'dense' && !dense?.on) throw new UsageError(dense?.on === false ? dense.reason : 'dense retrieval is off');
        const files = storeFileSource(db, repo, { dense: dense?.on ? dense.embedder : undefined });
        let selection: FileSelection;
        try {
          if (flags.baseline && flags.budgetFromSelection) {
            const own = await selectFiles(issue, files, { ...options, baseline: undefined });
            selection = await selectFiles(issue, files, { ...options, budget: own.totalTokens });
            selection.warnings.unshift(...own.warnings);
          } else selection = await selectFiles(issue, files, options);
        } catch (err) {
          if (/^cannot read the search/.test((err as Error).message)) throw new UsageError((err as Error).message);
          throw err;
        }
        if (flags.json) process.stdout.write(JSON.stringify(selection, null, 2) + '\n');
        else {
          if (selection.text) process.stdout.write(selection.text.endsWith('\n') ? selection.text : `${selection.text}\n`);
          process.stderr.write(report(selection) + '\n');
        }
      } finally {
        db.close();
      }
    });
}
