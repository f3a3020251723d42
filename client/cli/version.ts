import { createRequire } from 'node:module';

/** allot's version, from package.json. */
export const VERSION: string = createRequire(import.meta.url)('../../package.json').version;
