/**
 * allot's own package: where it is installed and its version. Found through
 * the package's name (a self-reference), so the TypeScript sources and the
 * JavaScript build (`dist/`, one folder deeper) agree.
 */
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const manifest = require.resolve('allot/package.json');

export const PACKAGE_ROOT = path.dirname(manifest);
export const VERSION: string = require(manifest).version;
/** The `allot` command (what starts a daemon, what an MCP host runs). */
export const BIN = path.join(PACKAGE_ROOT, 'client/bin/allot.js');
