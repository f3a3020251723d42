// Runs a command under GNU time and reports wall seconds and peak RSS (all threads of the process).
import { spawn } from 'node:child_process';

export interface Measured {
  seconds: number;
  /** User plus system CPU seconds of the process and its threads (GNU time). */
  cpuSeconds: number;
  peakRssMb: number;
  stdout: string;
  stderr: string;
  code: number | null;
}

/** `onStderr` sees the command's stderr as it comes (a long run's progress lines), before GNU time's report. */
export function measure(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env, onStderr?: (chunk: string) => void): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn('/usr/bin/time', ['-v', cmd, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
      onStderr?.(d);
    });
    child.once('error', (err) => reject(new Error(`cannot run /usr/bin/time (apt-get install time, or run test/bench/corpora.sh): ${err.message}`)));
    child.once('close', (code) => {
      const rss = stderr.match(/Maximum resident set size \(kbytes\): (\d+)/);
      resolve({ seconds: (performance.now() - started) / 1000, cpuSeconds: cpuSecondsOf(stderr), peakRssMb: rss ? Number(rss[1]) / 1024 : NaN, stdout, stderr, code });
    });
  });
}

/** User plus system seconds from GNU time -v's report. */
export function cpuSecondsOf(timeReport: string): number {
  const user = timeReport.match(/User time \(seconds\): ([\d.]+)/);
  const sys = timeReport.match(/System time \(seconds\): ([\d.]+)/);
  return user && sys ? Number(user[1]) + Number(sys[1]) : NaN;
}

/** p-th percentile (0-100) of a list of numbers. */
export function percentile(values: number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
