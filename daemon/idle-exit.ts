/**
 * `--idle-exit MINUTES`: a daemon that an agent session started (`allot mcp`)
 * stops once no request has arrived for that long, so it does not outlive its
 * use by days. An open event stream counts as use: its subscriber is waiting.
 */
export interface IdleExit {
  /** A request arrived: the quiet period starts again. */
  touch(): void;
  /** When the daemon will exit if nothing arrives (ISO time). */
  deadline(): string;
  stop(): void;
}

/** @example const idle = idleExit(30 * 60_000, () => events.subscribers() > 0, () => daemon.stop('idle')); */
export function idleExit(quietMs: number, inUse: () => boolean, onIdle: () => void, now = () => Date.now()): IdleExit {
  let last = now();
  let timer: NodeJS.Timeout | null = null;
  const arm = (ms: number) => {
    timer = setTimeout(check, ms);
    timer.unref();
  };
  const check = () => {
    timer = null;
    const quiet = now() - last;
    if (inUse()) last = now();
    else if (quiet >= quietMs) {
      onIdle();
      return;
    }
    arm(Math.max(10, quietMs - (now() - last)));
  };
  arm(quietMs);
  return {
    touch: () => void (last = now()),
    deadline: () => new Date(last + quietMs).toISOString(),
    stop: () => {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
