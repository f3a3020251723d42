// `npm run build` (which `npm ci` runs through `prepare`): compiles the layers
// to JavaScript with declarations in dist/ (client/bin/tsconfig.build.json), copies what
// the code reads from beside itself (migrations, tree-sitter queries: every
// file that is not TypeScript), and last stamps the build with the time it
// began, so the bin never runs a half-made build or one older than an edit.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { BUILD_STAMP, SOURCE_DIRS } from './build-state.js';

const root = new URL('../../', import.meta.url);
const dist = new URL('dist/', root);
const began = Date.now();
// The stamp goes first: a bin starting meanwhile runs the sources, never a build half removed.
fs.rmSync(new URL(BUILD_STAMP, root), { force: true });
fs.rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', 'client/bin/tsconfig.build.json'], { cwd: fileURLToPath(root), stdio: 'inherit' });
const bin = fileURLToPath(new URL('client/bin/', root));
for (const dir of SOURCE_DIRS) {
  fs.cpSync(new URL(dir, root), new URL(dir, dist), { recursive: true, filter: (src) => !src.endsWith('.ts') && !`${src}/`.startsWith(bin) });
}
fs.writeFileSync(new URL(BUILD_STAMP, root), String(began));
