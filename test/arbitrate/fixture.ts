import fs from 'node:fs';
import path from 'node:path';
import { arbitrate } from '../../allocator/arbitrate/gate.ts';
import type { ArbitrateOptions, Arbitration, Direction, WitnessType } from '../../allocator/arbitrate/types.ts';
import { indexRepository } from '../../indexer/index-repository.ts';
import { storeArbitrateIndex } from '../../indexer/store/arbitrate-source.ts';
import { openStore, type DB } from '../../indexer/store/open.ts';
import { copyFixture } from '../helpers/repo.ts';

/** The `arbitrate` fixture repository indexed into a temporary database. */
export async function indexedFixture(): Promise<{ repo: string; db: DB; index: ReturnType<typeof storeArbitrateIndex>; close(): void }> {
  const repo = copyFixture('arbitrate');
  const db = openStore(path.join(repo, '.allot/index.db'));
  await indexRepository({ repo, db, workers: 0 });
  return {
    repo,
    db,
    index: storeArbitrateIndex(db, { repoName: path.basename(repo) }),
    close() {
      db.close();
      fs.rmSync(repo, { recursive: true, force: true });
    },
  };
}

/** Witness directions by type, for compact assertions. */
export function directions(r: Arbitration): Record<WitnessType, Direction> {
  return Object.fromEntries(r.witnesses.map((w) => [w.type, w.direction])) as Record<WitnessType, Direction>;
}

/** Strips a template literal's common indentation and its first/last blank lines. */
export function code(s: string): string {
  const lines = s.replace(/^\n/, '').replace(/\n\s*$/, '').split('\n');
  const indent = Math.min(...lines.filter((l) => l.trim()).map((l) => l.match(/^ */)![0].length));
  return lines.map((l) => l.slice(indent)).join('\n') + '\n';
}

export type Arbitrate = (def: string, alt: string, opts: ArbitrateOptions) => Promise<Arbitration>;

export function arbitrator(index: ReturnType<typeof storeArbitrateIndex>): Arbitrate {
  return (def, alt, opts) => arbitrate(def, alt, opts, index);
}
