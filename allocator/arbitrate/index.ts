/**
 * Program arbitration (`allot arbitrate`, the daemon's `POST /v1/arbitrate`, MCP `arbitrate_programs`):
 * `arbitrate(defaultText, alternativeText, options, index)` with `index` from
 * `storeArbitrateIndex(db, { repoName })` (indexer/store/arbitrate-source.ts).
 */
export { arbitrate, decide } from './gate.ts';
export {
  ARBITRATE_LANGUAGES,
  ArbitrateError,
  WITNESS_TYPES,
  type ArbitrateIndex,
  type ArbitrateLanguage,
  type ArbitrateOptions,
  type Arbitration,
  type Direction,
  type Evidence,
  type Witness,
  type WitnessType,
} from './types.ts';
