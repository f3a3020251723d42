import { describe, expect, it } from 'vitest';
import { createIndexQueue, type IndexJob } from '../../daemon/queue.ts';

/** A queue whose jobs finish only when the test says so. */
function controlled(fullThreshold?: number) {
  const jobs: IndexJob[] = [];
  const finish: (() => void)[] = [];
  const q = createIndexQueue({
    fullThreshold,
    run: (job) => {
      jobs.push(job);
      return new Promise<void>((r) => finish.push(r));
    },
  });
  const tick = () => new Promise((r) => setImmediate(r));
  return { q, jobs, finish: async () => { finish.shift()!(); await tick(); }, tick };
}

describe('index queue (fences)', () => {
  it('runs one fence at a time and coalesces what arrives meanwhile', async () => {
    const { q, jobs, finish } = controlled();
    const first = q.submit({ full: true });
    expect(q.running()).toMatchObject({ id: first, full: true });
    const second = q.submit({ paths: ['a.py', 'b.py'] });
    const again = q.submit({ paths: ['a.py'], dirs: ['pkg'] });
    expect(again).toBe(second);
    expect(q.pending()).toEqual({ paths: 3, full: false });
    expect(jobs).toHaveLength(1);
    await finish();
    expect(q.committed()).toBe(first);
    expect(jobs[1]).toEqual({ id: second, full: false, paths: ['a.py', 'b.py'], dirs: ['pkg'] });
    await finish();
    expect(q.committed()).toBe(second);
    await q.idle();
  });

  it('lets callers wait for a fence', async () => {
    const { q, finish } = controlled();
    const a = q.submit({ paths: ['a.py'] });
    const b = q.submit({ paths: ['b.py'] });
    let done = false;
    const waiting = q.whenCommitted(b).then(() => (done = true));
    await finish();
    expect(a).toBe(1);
    expect(done).toBe(false);
    await finish();
    await waiting;
    expect(done).toBe(true);
  });

  it('turns a large pending job into a full run, and a full run absorbs paths', async () => {
    const { q, jobs, finish } = controlled(3);
    q.submit({ paths: ['x.py'] });
    q.submit({ paths: ['a', 'b', 'c', 'd'] });
    expect(q.pending()).toEqual({ paths: 0, full: true });
    q.submit({ paths: ['e'] });
    expect(q.pending()).toEqual({ paths: 0, full: true });
    await finish();
    expect(jobs[1]).toMatchObject({ full: true, paths: [], dirs: [] });
    await finish();
  });

  it('goes on after a failing job and reports it', async () => {
    const errors: unknown[] = [];
    let n = 0;
    const q = createIndexQueue({
      run: async () => {
        if (++n === 1) throw new Error('boom');
      },
      onError: (_j, e) => errors.push(e),
    });
    q.submit({ paths: ['a'] });
    await q.idle();
    q.submit({ paths: ['b'] });
    await q.idle();
    expect(n).toBe(2);
    expect(errors).toHaveLength(1);
  });

  it('close waits for the running job and starts no other', async () => {
    const { q, jobs, finish, tick } = controlled();
    q.submit({ paths: ['a'] });
    q.submit({ paths: ['b'] });
    const closed = q.close();
    await finish();
    await closed;
    await tick();
    expect(jobs).toHaveLength(1);
  });
});
