#!/usr/bin/env node
// The `allot` command. It runs the JavaScript build (`dist/`, which `npm ci`
// makes through the `prepare` script), so it starts without compiling
// anything; from a checkout whose sources changed since, through tsx.
import { buildState } from './build-state.js';

const root = new URL('../../', import.meta.url);
const state = buildState(root);
if (state === 'built') await import(new URL('dist/client/cli/main.js', root).href);
else if (state === 'sources') {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../cli/main.ts');
} else {
  process.stderr.write('allot: this installation has neither its build (dist/) nor its sources; reinstall it\n');
  process.exit(2);
}
