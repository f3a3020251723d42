import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { createBatcher, type Batch, type Timers } from '../../daemon/batcher.ts';
import { gitBusy } from '../../daemon/git-busy.ts';
import { tempDir } from '../helpers/repo.ts';

/** Manual clock: timers fire only when the test advances time. */
function manualTimers() {
  let now = 0;
  let seq = 0;
  const pending = new Map<number, { at: number; fn: () => void }>();
  const timers: Timers = {
    now: () => now,
    set: (fn, ms) => {
      pending.set(++seq, { at: now + ms, fn });
      return seq;
    },
    clear: (h) => void pending.delete(h as number),
  };
  const advance = (ms: number) => {
    const end = now + ms;
    for (;;) {
      const next = [...pending.entries()].sort((a, b) => a[1].at - b[1].at)[0];
      if (!next || next[1].at > end) break;
      pending.delete(next[0]);
      now = next[1].at;
      next[1].fn();
    }
    now = end;
  };
  return { timers, advance };
}

function setup(quietMs = 100, maxWaitMs = 1000, storm = { events: 100, quietMs: 400, maxWaitMs: 20_000 }, busy?: () => boolean) {
  const { timers, advance } = manualTimers();
  const batches: Batch[] = [];
  const b = createBatcher({ quietMs, maxWaitMs, storm, timers, busy, busyMaxMs: 5000, onBatch: (x) => batches.push(x) });
  return { b, batches, advance };
}

describe('batcher (debounce and batching)', () => {
  it('emits one batch after the quiet period, with paths deduplicated and sorted', () => {
    const { b, batches, advance } = setup();
    b.add({ path: 'b.py', event: 'change' });
    b.add({ path: 'a.py', event: 'add' });
    b.add({ path: 'b.py', event: 'change' });
    advance(99);
    expect(batches).toHaveLength(0);
    expect(b.size()).toBe(2);
    advance(1);
    expect(batches).toEqual([{ paths: ['a.py', 'b.py'], dirs: [], full: false, events: 3 }]);
    expect(b.size()).toBe(0);
  });

  it('keeps extending while changes keep coming; a storm waits out stalls (one checkout, one batch)', () => {
    const { b, batches, advance } = setup(100, 1000);
    for (let i = 0; i < 3000; i++) {
      b.add({ path: `f${i}.py`, event: i % 2 ? 'change' : 'unlink' });
      advance(1);
      // the checkout stalls for 250 ms twice: longer than the normal quiet, shorter than a storm's
      if (i === 1500 || i === 2500) advance(250);
    }
    expect(batches).toHaveLength(0);
    advance(398); // 399 ms after the last change
    expect(batches).toHaveLength(0);
    advance(1);
    expect(batches).toHaveLength(1);
    expect(batches[0].paths).toHaveLength(3000);
    expect(batches[0].events).toBe(3000);
    // the next single change is fast again
    b.add({ path: 'one.py', event: 'change' });
    advance(100);
    expect(batches).toHaveLength(2);
  });

  it('never holds a change longer than maxWait, even under constant writes', () => {
    const { b, batches, advance } = setup(100, 1000);
    for (let t = 0; t < 2500; t += 50) {
      b.add({ path: 'hot.py', event: 'change' });
      advance(50);
    }
    // flushed at 1000 and 2000 ms despite never being quiet
    expect(batches.length).toBe(2);
    advance(100);
    expect(batches.length).toBe(3);
  });

  it('separates folder events and full re-discovery requests', () => {
    const { b, batches, advance } = setup();
    b.add({ path: 'pkg', event: 'unlinkDir' });
    b.add({ path: 'pkg/a.py', event: 'unlink' });
    b.requestFull();
    advance(100);
    expect(batches).toEqual([{ paths: ['pkg/a.py'], dirs: ['pkg'], full: true, events: 3 }]);
  });

  it('flush emits at once, close drops pending work', () => {
    const { b, batches, advance } = setup();
    b.add({ path: 'x.py', event: 'add' });
    b.flush();
    expect(batches).toHaveLength(1);
    b.flush();
    expect(batches).toHaveLength(1);
    b.add({ path: 'y.py', event: 'add' });
    b.close();
    advance(1000);
    b.add({ path: 'z.py', event: 'add' });
    advance(1000);
    expect(batches).toHaveLength(1);
  });

  it('holds a due batch while git rewrites the tree, and at most busyMaxMs after its first change', () => {
    let locked = true;
    const { b, batches, advance } = setup(100, 1000, undefined, () => locked);
    b.add({ path: 'a.py', event: 'change' });
    advance(2000); // past quiet and maxWait: still locked
    expect(batches).toHaveLength(0);
    b.add({ path: 'b.py', event: 'change' });
    locked = false;
    advance(500);
    expect(batches.map((x) => x.paths)).toEqual([['a.py', 'b.py']]);
    // a lock nobody releases (git killed mid-checkout) delays the batch by busyMaxMs, no more
    locked = true;
    b.add({ path: 'c.py', event: 'change' });
    advance(4900);
    expect(batches).toHaveLength(1);
    advance(600);
    expect(batches.map((x) => x.paths)).toEqual([['a.py', 'b.py'], ['c.py']]);
  });
});

describe('gitBusy', () => {
  it("sees git's index lock in a .git folder and in the folder a worktree's .git file names", () => {
    const repo = tempDir('allot-gitbusy-');
    try {
      expect(gitBusy(repo)).toBe(false);
      fs.mkdirSync(path.join(repo, '.git'));
      expect(gitBusy(repo)).toBe(false);
      fs.writeFileSync(path.join(repo, '.git/index.lock'), '');
      expect(gitBusy(repo)).toBe(true);
      const worktree = path.join(repo, 'wt');
      fs.mkdirSync(path.join(repo, '.git/worktrees/wt'), { recursive: true });
      fs.mkdirSync(worktree);
      fs.writeFileSync(path.join(worktree, '.git'), 'gitdir: ../.git/worktrees/wt\n');
      expect(gitBusy(worktree)).toBe(false);
      fs.writeFileSync(path.join(repo, '.git/worktrees/wt/index.lock'), '');
      expect(gitBusy(worktree)).toBe(true);
    } finally {
      fs.rmSync(repo, { recursive: true, force: true });
    }
  });
});
