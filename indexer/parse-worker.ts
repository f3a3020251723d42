/** Worker-thread entry: extracts files sent by the parse pool, one message each. */
import { parentPort } from 'node:worker_threads';
import type { FileOutcome } from './extract/extract-file.ts';
import { extractRequest, type ParseRequest } from './parse-pool.ts';

parentPort!.on('message', async (req: ParseRequest) => {
  let outcome: FileOutcome;
  try {
    outcome = await extractRequest(req);
  } catch (err) {
    outcome = { status: 'skipped', path: req.path, reason: 'unreadable', message: `extraction failed: ${(err as Error).message}` };
  }
  parentPort!.postMessage({ id: req.id, outcome });
});
