/**
 * Answer sources other than the offline localizer: answers given by the caller,
 * and a model allot asks itself over an OpenAI-compatible endpoint. (The MCP
 * host's model, through sampling, will be one more `AnswerSource`.)
 */
import { chatCompletion, type ChatMessage, type LlmConfig } from './llm.ts';
import { parseAnswer, suffixIndex } from './parse-answer.ts';
import { parseSearch } from './searches.ts';
import type { Answer, AnswerSource, LocalizationRequest, SearchSpec } from './types.ts';

/** Answers given by the caller (`--answer a.py,b.py`, `answers` in a request), in order; searches optional. */
export function givenAnswerSource(answers: readonly (readonly string[])[], searches: readonly SearchSpec[] = [], name = 'given'): AnswerSource {
  return {
    name,
    async answer(_request, index) {
      const paths = answers[index];
      if (!paths) return null;
      return { paths: [...paths], ...(index === 0 && searches.length ? { searches: [...searches] } : {}) };
    },
  };
}

/** Splits `--answer` values: paths separated by commas, spaces or new lines. */
export function splitAnswer(value: string): string[] {
  return value.split(/[,\s]+/).map((p) => p.trim()).filter(Boolean);
}

/** Parses searches given as text (`definition X`, `callers Y`, `string "Z"`); unreadable ones raise. */
export function parseSearches(texts: readonly string[]): SearchSpec[] {
  return texts.map((t) => {
    const s = parseSearch(t);
    if (!s) throw new Error(`cannot read the search "${t}": write definition NAME, callers NAME or string "TEXT"`);
    return s;
  });
}

const SYSTEM = 'You are a senior engineer triaging an issue in a code repository. You see some of its file paths and the issue. You name the files whose code must be edited to fix it.';

/** The localization prompt: the inventory, the issue, and the answer's expected form. */
export function localizationPrompt(request: LocalizationRequest): ChatMessage[] {
  const user = [
    `Repository files (${request.inventory.length} paths, alphabetical):`,
    request.inventory.join('\n'),
    '',
    'Issue:',
    request.issue.trim(),
    '',
    'Which files must be edited to fix this issue? List their paths exactly as written above, the most likely first, one per line, at most 5. Do not list tests or documentation.',
    'Then write a line `SEARCHES:` and up to 4 searches that would show the code you need to read to write the fix, one per line, each one of:',
    'definition NAME   (where a function, class or method NAME is defined)',
    'callers NAME      (where NAME is called or imported)',
    'string "TEXT"     (where TEXT appears literally, e.g. an error message)',
  ].join('\n');
  return [{ role: 'system', content: SYSTEM }, { role: 'user', content: user }];
}

/**
 * A model allot asks itself: each answer is one independent chat completion
 * (sampled, so two answers can differ), read leniently; paths outside the
 * inventory are dropped by the parser.
 */
export function llmAnswerSource(config: LlmConfig, fetchImpl: typeof fetch = fetch): AnswerSource {
  let tails: { inventory: readonly string[]; index: Map<string, string[]> } | null = null;
  return {
    name: 'llm',
    async answer(request, index): Promise<Answer | null> {
      if (index > 2) return null;
      const text = await chatCompletion(config, localizationPrompt(request), fetchImpl);
      if (tails?.inventory !== request.inventory) tails = { inventory: request.inventory, index: suffixIndex(request.inventory) };
      return parseAnswer(text, request.inventory, tails.index);
    },
  };
}
