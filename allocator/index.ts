/** The allocator's public API. */
export { allocate } from './allocate.ts';
export { explain } from './explain.ts';
export { packChunks, type Chunk, type ChunkPacking, type PackedChunk } from './baseline.ts';
export {
  AllocateOptionsSchema, parseAllocateOptions, parseSlots,
  type AllocateOptions, type AllocateOptionsInput, type Slots,
} from './options.ts';
export type * from './types.ts';
