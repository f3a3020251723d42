/**
 * The daemon's event bus: index progress and file updates fan out to every
 * `GET /v1/events` subscriber. Subscribers that fall behind are not waited
 * for: each has a bounded buffer and is dropped when it overflows (the
 * client reconnects and reads `/v1/status`), so a stalled reader cannot grow
 * the daemon's memory.
 */
import type { DaemonEvent } from './types.ts';

export interface Subscription {
  /** The next event, or null once the subscription is closed. */
  next(): Promise<DaemonEvent | null>;
  close(): void;
}

export interface EventBus {
  publish(event: DaemonEvent): void;
  subscribe(): Subscription;
  /** Ends every subscription (shutdown). */
  closeAll(): void;
  subscribers(): number;
}

/** Events buffered per subscriber before it is dropped. */
const MAX_BUFFERED = 1000;

/** At most this many paths are listed per event; the rest are counted in `truncated`. */
export const MAX_EVENT_PATHS = 200;

export function capPaths(paths: string[]): { paths: string[]; truncated: number } {
  return { paths: paths.slice(0, MAX_EVENT_PATHS), truncated: Math.max(0, paths.length - MAX_EVENT_PATHS) };
}

export function createEventBus(): EventBus {
  const subs = new Set<{ buffer: DaemonEvent[]; wake: (() => void) | null; closed: boolean }>();
  return {
    publish(event) {
      for (const s of subs) {
        if (s.buffer.length >= MAX_BUFFERED) {
          s.closed = true;
          subs.delete(s);
        } else s.buffer.push(event);
        s.wake?.();
      }
    },
    subscribe() {
      const s = { buffer: [] as DaemonEvent[], wake: null as (() => void) | null, closed: false };
      subs.add(s);
      return {
        async next() {
          while (!s.buffer.length && !s.closed) await new Promise<void>((r) => (s.wake = r));
          s.wake = null;
          return s.buffer.shift() ?? null;
        },
        close() {
          s.closed = true;
          subs.delete(s);
          s.wake?.();
        },
      };
    },
    closeAll() {
      for (const s of subs) {
        s.closed = true;
        s.wake?.();
      }
      subs.clear();
    },
    subscribers: () => subs.size,
  };
}
