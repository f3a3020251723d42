/** allot's version, from package.json. */
export { VERSION } from '../../daemon/package.ts';
