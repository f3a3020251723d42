// A fingerprint of a folder tree, to prove nothing in it changed (shared by the reliability tests and bench:fuzz).
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

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
