import fs from 'node:fs';
import os from 'node:os';

/** The Linux id of the calling thread (main or worker), or null where /proc does not tell. */
export function threadId(): number | null {
  try {
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : null;
  } catch {
    return null;
  }
}

/**
 * Lowers the calling thread's scheduling priority to `nice` (never raises it); threads it starts later inherit
 * it. Linux only (a thread's nice value is its own there); elsewhere nothing happens. Returns the nice value now
 * in force, or null when it could not be set.
 */
export function lowerThreadPriority(nice: number): number | null {
  const tid = threadId();
  if (tid === null) return null;
  try {
    if (os.getPriority(tid) < nice) os.setPriority(tid, nice);
    return os.getPriority(tid);
  } catch {
    return null;
  }
}
