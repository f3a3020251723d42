import cliProgress from 'cli-progress';
import type { IndexProgress } from '../../indexer/index-repository.ts';

/**
 * Index progress for a person: a bar with files done/total, files/s and ETA on
 * a TTY; a plain line every few seconds otherwise (logs, CI).
 */
export function progressReporter(stream: NodeJS.WriteStream = process.stderr): { update(p: IndexProgress): void; stop(): void } {
  const started = performance.now();
  if (stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      { format: 'indexing {bar} {value}/{total} files | {rate} files/s | ETA {eta_formatted} | {file}', stream, hideCursor: true, etaBuffer: 200, fps: 10 },
      cliProgress.Presets.shades_classic,
    );
    let active = false;
    return {
      update(p) {
        if (p.phase === 'parse') {
          const rate = Math.round(p.done / Math.max(0.001, (performance.now() - started) / 1000));
          if (!active) {
            bar.start(p.total, p.done, { rate, file: '' });
            active = true;
          }
          bar.update(p.done, { rate, file: (p.path ?? '').slice(-40) });
        } else if (p.phase === 'resolve' && active) {
          bar.update(bar.getTotal(), { file: 'resolving references' });
        }
      },
      stop() {
        if (active) bar.stop();
        active = false;
      },
    };
  }
  let last = 0;
  return {
    update(p) {
      const now = performance.now();
      if (p.phase === 'parse' && (now - last > 2000 || p.done === p.total) && p.total > 0) {
        last = now;
        const secs = (now - started) / 1000;
        const rate = p.done / Math.max(0.001, secs);
        const eta = rate > 0 ? Math.round((p.total - p.done) / rate) : 0;
        stream.write(`indexing ${p.done}/${p.total} files, ${rate.toFixed(0)} files/s, ETA ${eta}s\n`);
      } else if (p.phase === 'resolve') stream.write('resolving references\n');
    },
    stop() {},
  };
}
