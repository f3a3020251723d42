/** What every `allot eval` run starts with: the query grammars, its tasks, the results file and the tokenizer. */
import fs from 'node:fs';
import path from 'node:path';
import { loadQueryLanguages } from '../../indexer/retrieve/query-reading.ts';
import { getTokenizer, type Tokenizer, type TokenizerName } from '../../indexer/tokenizer.ts';
import type { Progress } from './progress.ts';
import { ResultsWriter } from './results.ts';

/** What every `allot eval` run is given. */
export interface RunOptions {
  tasksFile: string;
  out: string;
  limit?: number;
  resume: boolean;
  workers?: number;
  tokenizer?: TokenizerName;
  progress: Progress;
  /** The command line, for the report. */
  command: string;
  /** Checked between tasks (Ctrl-C): the run stops there, its rows kept. */
  shouldStop?: () => boolean;
}

export interface RunStart<T> {
  tasks: T[];
  resultsFile: string;
  writer: ResultsWriter;
  tokenizer: Tokenizer;
}

/** Reads the tasks (the first `limit`), opens `<out>/results.jsonl` (kept with `resume`), loads the query grammars. */
export async function startRun<T>(
  o: Pick<RunOptions, 'tasksFile' | 'limit' | 'out' | 'resume' | 'tokenizer'>,
  read: (file: string) => T[],
): Promise<RunStart<T>> {
  await loadQueryLanguages(); // the structural methods read queries as code
  let tasks = read(o.tasksFile);
  if (o.limit !== undefined) tasks = tasks.slice(0, o.limit);
  fs.mkdirSync(o.out, { recursive: true });
  const resultsFile = path.join(o.out, 'results.jsonl');
  return { tasks, resultsFile, writer: new ResultsWriter(resultsFile, o.resume), tokenizer: getTokenizer(o.tokenizer ?? 'cl100k_base') };
}
