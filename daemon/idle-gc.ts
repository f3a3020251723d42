/**
 * A full garbage collection once the daemon has been quiet for a moment after
 * answering queries. Under load V8 grows its heap to keep up with the garbage
 * of many answers and gives the memory back only lazily; a long-running
 * process should return to its resting size between bursts, not keep its peak.
 */
import v8 from 'node:v8';
import vm from 'node:vm';

let collect: (() => void) | null | undefined;

/** V8's collector, exposed at run time (no command-line flag needed); null where that is not possible. */
function collector(): (() => void) | null {
  if (collect !== undefined) return collect;
  try {
    v8.setFlagsFromString('--expose_gc');
    collect = vm.runInNewContext('gc') as () => void;
  } catch {
    collect = null;
  }
  return collect;
}

/** @example const idle = idleCollector(2000); server.on('request', () => idle.touch()); */
export function idleCollector(quietMs = 2000): { touch(): void; stop(): void } {
  let timer: NodeJS.Timeout | null = null;
  return {
    touch() {
      if (timer) timer.refresh();
      else {
        timer = setTimeout(() => {
          timer = null;
          collector()?.();
        }, quietMs);
        timer.unref();
      }
    },
    stop() {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
