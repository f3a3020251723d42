// `npm run bench`: every benchmark on the corpora present under bench-data/
// (fetch them with `bash test/bench/corpora.sh`). Not a test.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PROJECT = fileURLToPath(new URL('../../', import.meta.url));
const DATA = process.env.ALLOT_BENCH_DIR ?? path.join(PROJECT, 'bench-data');
const CORPORA: Record<string, string> = {
  sympy: 'sympy/usr/lib/python3/dist-packages/sympy',
  django: 'django/usr/lib/python3/dist-packages/django',
  rxjs: 'rxjs-src',
};

const roots = Object.fromEntries(
  Object.entries(CORPORA)
    .map(([name, rel]) => [name, path.join(DATA, rel)] as const)
    .filter(([, dir]) => fs.existsSync(dir)),
);
if (!Object.keys(roots).length) {
  console.error(`no corpora under ${DATA}: run \`bash test/bench/corpora.sh\` first`);
  process.exit(2);
}

const run = (script: string, args: string[]) => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(PROJECT, 'test/bench', script), ...args], { stdio: 'inherit', cwd: PROJECT });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
run('index.ts', Object.values(roots));
if (roots.sympy) run('context.ts', [roots.sympy]);
if (roots.sympy) run('mcp.ts', [roots.sympy]);
