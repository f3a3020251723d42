/** Worker entry for backends.test.ts: loads a language in a worker thread and says which backend parses it and what. */
import { parentPort, workerData } from 'node:worker_threads';
import { extractCode } from '../../indexer/extract/extract-code.ts';
import { sourceLines } from '../../indexer/extract/source.ts';
import { loadLanguage } from '../../indexer/languages/registry.ts';
import type { CodeLanguage } from '../../indexer/types.ts';

const { language, path, text } = workerData as { language: CodeLanguage; path: string; text: string };
const lang = await loadLanguage(language);
parentPort!.postMessage({ backend: lang.backend, extraction: extractCode(path, sourceLines(text), lang) });
