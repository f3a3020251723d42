import zlib from 'node:zlib';
import type { DB } from './open.ts';

/**
 * File texts are stored deflated (`file_blobs`; SymPy's 30 MB of source take 6 MB) and read through the
 * `file_texts` view, which inflates them, so every reader keeps its SQL. The view's function must exist on
 * every connection: openStore registers it.
 */

/** The stored form of a file's text. */
export function packText(text: string): Buffer {
  return zlib.deflateRawSync(Buffer.from(text, 'utf8'), { level: 6 });
}

export function unpackText(data: Uint8Array): string {
  return zlib.inflateRawSync(data).toString('utf8');
}

/** The SQL functions the store's schema uses: `allot_unpack(data)` in the `file_texts` view, `allot_pack(text)` in its migration. */
export function registerTextFunctions(db: DB): void {
  db.function('allot_unpack', { deterministic: true }, (data: unknown) => (data instanceof Uint8Array ? unpackText(data) : null));
  db.function('allot_pack', { deterministic: true }, (text: unknown) => (typeof text === 'string' ? packText(text) : null));
}
