/**
 * Progress of an evaluation for a person, in the manner of the index's
 * progress (client/cli/progress.ts): a cli-progress bar with done/total, rate
 * and ETA on a terminal; a plain line every few seconds otherwise.
 */
import cliProgress from 'cli-progress';

export interface Progress {
  /** Starts (or restarts) a bar for a phase of `total` steps. */
  start(label: string, total: number, done?: number): void;
  update(done: number, note?: string): void;
  /** A line above the bar (or on its own when there is no terminal). */
  log(line: string): void;
  stop(): void;
}

export function progressBar(stream: NodeJS.WriteStream = process.stderr, quiet = false): Progress {
  if (quiet) return { start() {}, update() {}, log() {}, stop() {} };
  if (stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      { format: '{label} {bar} {value}/{total} | {rate}/s | ETA {eta_formatted} | {note}', stream, hideCursor: true, etaBuffer: 50, fps: 5 },
      cliProgress.Presets.shades_classic,
    );
    let active = false;
    let started = 0;
    let first = 0;
    let label = '';
    const rate = (done: number) => ((done - first) / Math.max(0.001, (performance.now() - started) / 1000)).toFixed(1);
    return {
      start(l, total, done = 0) {
        if (active) bar.stop();
        label = l;
        started = performance.now();
        first = done;
        bar.start(total, done, { label, rate: '0.0', note: '' });
        active = true;
      },
      update(done, note = '') {
        if (active) bar.update(done, { label, rate: rate(done), note: note.slice(-40) });
      },
      log(line) {
        if (active) {
          bar.stop();
          stream.write(line + '\n');
          active = false;
        } else stream.write(line + '\n');
      },
      stop() {
        if (active) bar.stop();
        active = false;
      },
    };
  }
  let label = '';
  let total = 0;
  let first = 0;
  let started = 0;
  let last = 0;
  return {
    start(l, t, done = 0) {
      label = l;
      total = t;
      first = done;
      started = performance.now();
      last = 0;
    },
    update(done) {
      const now = performance.now();
      if (now - last < 5000 && done < total) return;
      last = now;
      const secs = (now - started) / 1000;
      const r = (done - first) / Math.max(0.001, secs);
      const eta = r > 0 ? Math.round((total - done) / r) : 0;
      stream.write(`${label} ${done}/${total}, ${r.toFixed(1)}/s, ETA ${eta}s\n`);
    },
    log: (line) => void stream.write(line + '\n'),
    stop() {},
  };
}
