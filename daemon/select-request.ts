/**
 * A parsed `POST /v1/files/select` answered by the query engine: the one place
 * that decides whether the model configured in the environment
 * (ALLOT_LLM_URL...) is asked, for the daemon and the in-process MCP server alike.
 */
import { llmConfigFromEnv, LlmError, type LlmConfig } from '../allocator/files/llm.ts';
import type { FileSelection } from '../allocator/files/types.ts';
import type { QueryAnswers } from './queries.ts';
import type { FilesSelectRequestParsed } from './requests.ts';

/** A search the caller wrote that cannot be read: the request is at fault. */
export class BadSearch extends Error {
  override name = 'BadSearch';
}

/** Whether answering asks the configured model: then the model's own timeouts and retries bound the wait, not the query watchdog. */
export function asksModel(req: FilesSelectRequestParsed, env: NodeJS.ProcessEnv = process.env): boolean {
  return req.llm && !req.answers?.length && Boolean(env.ALLOT_LLM_URL?.trim());
}

export async function selectForRequest(queries: Pick<QueryAnswers, 'selectFiles'>, req: FilesSelectRequestParsed, env: NodeJS.ProcessEnv = process.env): Promise<FileSelection> {
  const { issue, session, llm: askModel, ...options } = req;
  const warnings: string[] = [];
  let llm: LlmConfig | null = null;
  if (askModel && !options.answers?.length) {
    try {
      llm = llmConfigFromEnv(env);
    } catch (err) {
      if (!(err instanceof LlmError)) throw err;
      warnings.push(`the model settings are unusable (${err.message}); the offline localizer answered`);
    }
  }
  try {
    const selection = await queries.selectFiles(issue, { ...options, llm }, session);
    selection.warnings.unshift(...warnings);
    return selection;
  } catch (err) {
    if (/^cannot read the search/.test((err as Error).message)) throw new BadSearch((err as Error).message);
    throw err;
  }
}
