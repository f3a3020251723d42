/**
 * Where fixes go: the paths the offline localizer and derived evidence look at.
 * Tests and documentation are never chosen (agreement drops them); examples,
 * benchmarks, demos, sandboxes and tooling scripts use the project rather than
 * being it, so the offline rankers leave them out too.
 */
import { isDocPath, isTestPath } from '../../indexer/paths.ts';

const PERIPHERAL = /(^|\/)(examples?|samples?|demos?|sandbox|bench|benchmarks?|asv_bench|scripts)\//;

/** Code that uses the project rather than being it. */
export function isPeripheralPath(p: string): boolean {
  return PERIPHERAL.test(p);
}

/** Neither a test, documentation, nor peripheral code. */
export function isFixTarget(p: string): boolean {
  return !isTestPath(p) && !isDocPath(p) && !PERIPHERAL.test(p);
}
