#!/usr/bin/env node
// The `allot` command: runs the TypeScript sources through tsx, so it works
// right after `npm ci` with no build step.
import { register } from 'tsx/esm/api';

register();
await import('../cli/main.ts');
