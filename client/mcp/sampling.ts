/**
 * Localization answers from the MCP host's own model, through MCP sampling:
 * the CQ2-CARE rule run by the host's model. Two independent requests go out
 * together (sampled, so they can differ); a third only when the first two name
 * no file in common. Answers are read leniently and kept to inventory paths.
 */
import { agreeTwo, cleanAnswer } from '../../allocator/files/agree.ts';
import type { ChatMessage } from '../../allocator/files/llm.ts';
import { parseAnswer, suffixIndex } from '../../allocator/files/parse-answer.ts';
import { searchLabel } from '../../allocator/files/searches.ts';
import { localizationPrompt } from '../../allocator/files/sources.ts';
import type { Answer } from '../../allocator/files/types.ts';

/** Sends one chat to the host's model and returns its text. */
export type AskModel = (messages: ChatMessage[]) => Promise<string>;

export interface SampledAnswers {
  /** Ranked path lists, in the order asked (two, or three when the first two share nothing). */
  answers: string[][];
  /** The searches the answers asked for, as text (`definition X`), at most four, first mention first. */
  searches: string[];
}

/**
 * @example
 *   const { answers, searches } = await sampledAnswers(issue, inventory.paths, askHost);
 *   await backend.selectFiles({ issue, answers, searches, answersFrom: 'sampling' });
 */
export async function sampledAnswers(issue: string, inventory: string[], ask: AskModel): Promise<SampledAnswers> {
  const messages = localizationPrompt({ issue, inventory });
  const tails = suffixIndex(inventory);
  const known = new Set(inventory);
  const one = async (): Promise<Answer> => parseAnswer(await ask(messages), inventory, tails);
  const got = await Promise.all([one(), one()]);
  if (agreeTwo(cleanAnswer(got[0].paths, known), cleanAnswer(got[1].paths, known)).length === 0) got.push(await one());
  const searches: string[] = [];
  for (const a of got) for (const s of a.searches ?? []) {
    const label = searchLabel(s);
    if (searches.length < 4 && !searches.includes(label)) searches.push(label);
  }
  return { answers: got.map((a) => a.paths), searches };
}
