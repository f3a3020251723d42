// `npm run bench:load -- CORPUS --replay N [--edit-every 86] [--dir DIR] [--tree CHECKOUT] [--kept N]` (not a test): bench:load's
// workload replayed in one process, for the CPU a query costs while the index changes, which a shared machine does
// not blur the way it blurs latency. N queries drawn as bench:load draws them (the same seeds), one after the other,
// through the query engine a query thread runs (on its own read connection); every E queries a new function is
// appended to a random Python file and indexed by a writer connection (the default E matches 86 queries a second
// with an edit a second). Prints the queries' CPU alone (the writer's is left out): per query, p50 and p99.
// --tree runs another checkout's engine and indexer on the same copy: a before/after pair. --kept N: the kept answers'
// memory (the second argument of `createKeptAnswers`: tokens on this branch, answers before it).
import fs from 'node:fs';
import path from 'node:path';
import { MAX_QUERY_CHARS } from '../../daemon/requests.ts';
import { editor, flag, machine, PROJECT, random, workingCopy } from './daemon-run.ts';
import { percentile } from './measure.ts';

export async function replay(corpus: string, n: number): Promise<void> {
  const every = Number(flag('edit-every') ?? 86);
  const tree = path.resolve(flag('tree') ?? PROJECT);
  const from = async <T>(rel: string): Promise<T> => (await import(path.join(tree, rel))) as T;
  const { createQueryEngine } = await from<typeof import('../../daemon/queries.ts')>('daemon/queries.ts');
  const { createKeptAnswers } = await from<typeof import('../../daemon/kept-answers.ts')>('daemon/kept-answers.ts');
  const { parseAllocateOptions } = await from<typeof import('../../allocator/options.ts')>('allocator/options.ts');
  const { indexRepository } = await from<typeof import('../../indexer/index-repository.ts')>('indexer/index-repository.ts');
  const { openStore } = await from<typeof import('../../indexer/store/open.ts')>('indexer/store/open.ts');
  const { drawQueries } = await from<typeof import('./queries.ts')>('test/bench/queries.ts');
  const { generateCrossfileTasks } = await from<typeof import('../../client/eval/generate-crossfile.ts')>('client/eval/generate-crossfile.ts');
  console.log(machine(`allot load replay (${tree})`));
  const { repo, discard } = workingCopy(corpus, 'allot-bench-replay-');
  const dbFile = path.join(repo, '.allot/index.db');
  fs.mkdirSync(path.dirname(dbFile), { recursive: true, mode: 0o700 });
  const writer = openStore(dbFile);
  const edits = editor(repo);
  const edited = new Set<string>();
  try {
    await indexRepository({ repo, db: writer });
    const db = openStore(dbFile, { readonly: true });
    const prose = drawQueries(db, 200);
    const code = generateCrossfileTasks(db, { repo: '.', max: 200, seed: 7 }).map((t) => t.query).filter((q) => q.length <= MAX_QUERY_CHARS);
    const queries = [...prose, ...code];
    const pyFiles = db.prepare("SELECT path FROM files WHERE language = 'python' ORDER BY path").pluck().all() as string[];
    const keptMax = flag('kept') ? Number(flag('kept')) : undefined;
    const kept = createKeptAnswers<Awaited<ReturnType<ReturnType<typeof createQueryEngine>['context']>>>(db, keptMax);
    const engine = createQueryEngine(db, repo, { keptAnswers: kept });
    const options = parseAllocateOptions({ budget: 4096 });
    for (const q of queries.slice(0, 20)) await engine.context(q, options); // the structure built, as bench:load's warm-up
    const kept0 = { ...kept.stats };
    const pick = random(1717);
    const rand = random(4242);
    const cpu: number[] = [];
    for (let i = 0; i < n; i++) {
      if (i % every === every - 1) {
        const file = pyFiles[Math.floor(rand() * pyFiles.length)];
        edits.append(file, `\n\ndef allot_load_probe_${edited.size}_${i}(x):\n    """Load probe ${i}."""\n    return x\n`);
        edited.add(file);
        await indexRepository({ repo, db: writer, workers: 0, paths: [file] });
      }
      const q = queries[Math.floor(pick() * queries.length)];
      const c0 = process.cpuUsage();
      await engine.context(q, options);
      const c = process.cpuUsage(c0);
      cpu.push((c.user + c.system) / 1000);
    }
    db.close();
    const total = cpu.reduce((a, b) => a + b, 0);
    console.log(`${n} queries (${queries.length} distinct), an edit every ${every}: ${(total / n).toFixed(2)} CPU-ms a query, p50 ${percentile(cpu, 50).toFixed(2)}, p99 ${percentile(cpu, 99).toFixed(2)} CPU-ms; answers recalled across edits ${kept.stats.recalled - kept0.recalled}, allocated ${kept.stats.allocated - kept0.allocated}`);
  } finally {
    edits.restore();
    if (edited.size) await indexRepository({ repo, db: writer, workers: 0, paths: [...edited] });
    writer.close();
    discard();
  }
}
