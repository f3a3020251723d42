import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { lowerThreadPriority, threadId } from '../../daemon/thread-priority.ts';
import { workerBoot } from '../../indexer/worker-boot.ts';

// A worker thread that lowers its own priority and reports its id and nice value.
const BOOT = `${workerBoot(new URL('../../daemon/thread-priority.ts', import.meta.url).href, './thread-priority')}
  .then((m) => require('node:worker_threads').parentPort.postMessage({ tid: m.threadId(), nice: m.lowerThreadPriority(7) }))`;

describe.runIf(process.platform === 'linux')('the writer thread yields to queries', () => {
  it('lowers the calling thread only, and never raises it', async () => {
    const main = threadId()!;
    const before = os.getPriority(main);
    const w = new Worker(BOOT, { eval: true });
    const got = await new Promise<{ tid: number; nice: number }>((resolve, reject) => {
      w.once('message', resolve);
      w.once('error', reject);
    });
    expect(got.tid).not.toBe(main);
    expect(got.nice).toBe(Math.max(7, before));
    expect(os.getPriority(main)).toBe(before);
    await w.terminate();
    // Asking for a higher priority than the thread has changes nothing.
    expect(lowerThreadPriority(before - 1 < -20 ? -20 : before - 1)).toBe(before);
  });
});
