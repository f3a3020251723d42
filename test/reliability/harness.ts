// Shared set-up of the reliability tests: a hostile repository (a copy of a
// fixture) beside a sentinel folder that nothing of allot may ever write to,
// and a fingerprint of that folder to prove it.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { copyFixture, tempDir } from '../helpers/repo.ts';

/** Every entry under `dir` (links not followed) with its kind, mode, size and content hash. */
export function fingerprint(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (abs: string, rel: string) => {
    const st = fs.lstatSync(abs);
    const mode = (st.mode & 0o7777).toString(8);
    if (st.isDirectory()) {
      out[rel || '.'] = `dir ${mode}`;
      for (const name of fs.readdirSync(abs).sort()) walk(path.join(abs, name), rel ? `${rel}/${name}` : name);
    } else if (st.isSymbolicLink()) out[rel] = `link -> ${fs.readlinkSync(abs)}`;
    else if (st.isFile()) out[rel] = `file ${mode} ${st.size} ${crypto.createHash('sha1').update(fs.readFileSync(abs)).digest('hex')}`;
    else out[rel] = `other ${mode}`;
  };
  walk(dir, '');
  return out;
}

export interface Hostile {
  /** The repository (symlinks resolved). */
  repo: string;
  /** A folder outside the repository holding a victim file: it must never change. */
  sentinel: string;
  victim: string;
  /** Removes both. */
  cleanup(): void;
}

/** A fixture repository and, beside it, a sentinel folder with `victim.txt`. */
export function hostileRepo(fixture = 'mixed'): Hostile {
  const repo = fs.realpathSync(copyFixture(fixture));
  const sentinel = fs.realpathSync(tempDir('allot-sentinel-'));
  const victim = path.join(sentinel, 'victim.txt');
  fs.writeFileSync(victim, 'precious\n');
  return { repo, sentinel, victim, cleanup: () => [repo, sentinel].forEach((d) => fs.rmSync(d, { recursive: true, force: true })) };
}

/** Links `<repo>/.allot/<name>` to `target` (a committed symlink, as a checkout would create it). */
export function plantLink(repo: string, name: string, target: string): string {
  const link = path.join(repo, '.allot', name);
  fs.mkdirSync(path.dirname(link), { recursive: true });
  fs.symlinkSync(target, link);
  return link;
}

/** Mode bits of a path (links not followed). */
export function modeOf(p: string): number {
  return fs.lstatSync(p).mode & 0o777;
}
