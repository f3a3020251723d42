import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { PROJECT } from './repo.ts';

/** Runs the real `allot` command (the package bin) and captures its output. */
export function allot(args: string[], opts: { cwd?: string; env?: Record<string, string>; input?: string } = {}) {
  const r = spawnSync(process.execPath, [path.join(PROJECT, 'client/bin/allot.js'), ...args], {
    cwd: opts.cwd ?? PROJECT,
    env: { ...process.env, ...opts.env },
    encoding: 'utf8',
    ...(opts.input !== undefined ? { input: opts.input } : {}),
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
