// Benchmark of the daemon under load (not a test): bounded in time, loopback only.
//
//   npm run bench:load [-- CORPUS] [--clients 32] [--seconds 30] [--edit-ms 1000] [--queries mixed|prose|code]
//                      [--dir DIR] [--query-threads N] [--bin PATH]
//   npm run bench:load [-- CORPUS] --replay N [--edit-every 86] [--dir DIR] [--tree CHECKOUT] [--kept N]   (load-replay.ts)
//
// A real daemon (`allot serve`, with the environment `allot start` gives it) on a copy of CORPUS (default: the
// SymPy corpus of `bash test/bench/corpora.sh`; the corpus itself is never edited). N clients on keep-alive
// connections ask `POST /v1/context` (B = 4096, the default retriever) as fast as they are answered, each query
// drawn at random from 200 prose queries (qualified names and docstring first lines) and 200 code queries (a
// file's imports and the 30 lines before a position, as `allot eval gen-crossfile` makes them). Meanwhile a new
// function is appended to a random Python file every EDIT ms, so the index changes (and every remembered answer
// is dropped) all along. Prints latency p50/p90/p99/max, throughput, errors, the batches indexed, and the
// daemon's CPU seconds and peak RSS during the run (all its threads); issue 17's goals last.
//
// --dir keeps the copy and its index there for the next run (edits are undone at the end); without it a
// temporary copy is indexed cold and removed. --bin runs another checkout's `client/bin/allot.js` on the same
// copy: a before/after pair measured on the same machine.
import fs from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { generateCrossfileTasks } from '../../client/eval/generate-crossfile.ts';
import { openStore } from '../../indexer/store/open.ts';
import { MAX_QUERY_CHARS } from '../../daemon/requests.ts';
import { cleanUp, corpusArg, cpuSeconds, printGoals, warmUp, editor, flag, idle, machine, ms, PROJECT, random, rssMb, serveDaemon, workingCopy } from './daemon-run.ts';
import { drawQueries } from './queries.ts';
import { replay } from './load-replay.ts';

const DEFAULT_CORPUS = path.join(PROJECT, 'bench-data/sympy/usr/lib/python3/dist-packages/sympy');

async function main(): Promise<void> {
  const corpus = corpusArg(DEFAULT_CORPUS);
  if (flag('replay')) return replay(corpus, Number(flag('replay')));
  const clients = Number(flag('clients') ?? 32);
  const seconds = Number(flag('seconds') ?? 30);
  const editMs = Number(flag('edit-ms') ?? 1000);
  const kind = flag('queries') ?? 'mixed';
  const threads = flag('query-threads');
  const bin = flag('bin');
  if (!['mixed', 'prose', 'code'].includes(kind)) throw new Error(`--queries must be mixed, prose or code, not ${kind}`);
  console.log(machine('allot load benchmark'));
  const { repo, warm, discard } = workingCopy(corpus, 'allot-bench-load-');

  const started = performance.now();
  const daemon = await serveDaemon(repo, [...(threads ? ['--query-threads', threads] : [])], bin);
  const edits = editor(repo);
  try {
    const c = daemon.client;
    await idle(c);
    const s0 = await c.status();
    console.log(`start-up run (${warm ? 'index reused' : 'cold index'}): ${((performance.now() - started) / 1000).toFixed(1)} s to idle; ${s0.index.files} files, ${s0.index.objects} objects; RSS ${rssMb(daemon.pid).toFixed(0)} MB`);

    const db = openStore(path.join(repo, '.allot/index.db'), { readonly: true });
    const prose = drawQueries(db, 200);
    // a query over the documented maximum is refused with 400 by design: such tasks are left out and counted
    const drawn = generateCrossfileTasks(db, { repo: '.', max: 200, seed: 7 }).map((t) => t.query);
    const code = drawn.filter((q) => q.length <= MAX_QUERY_CHARS);
    if (code.length < drawn.length) console.log(`${drawn.length - code.length} code queries over ${MAX_QUERY_CHARS} characters left out`);
    const pyFiles = db.prepare("SELECT path FROM files WHERE language = 'python' ORDER BY path").pluck().all() as string[];
    db.close();
    const queries = kind === 'prose' ? prose : kind === 'code' ? code : [...prose, ...code];
    console.log(`${queries.length} queries (${kind}: ${kind === 'code' ? 0 : prose.length} prose, ${kind === 'prose' ? 0 : code.length} code), drawn at random by ${clients} clients for ${seconds} s, an edit every ${editMs} ms`);

    // The query threads build their structures after the start-up run: let them finish before the clock starts.
    await warmUp(c, queries.slice(0, 20));

    const pick = random(1717);
    const rand = random(4242);
    let edited = 0;
    const editTimer = setInterval(() => {
      const file = pyFiles[Math.floor(rand() * pyFiles.length)];
      edits.append(file, `\n\ndef allot_load_probe_${edited}(x):\n    """Load probe ${edited++}."""\n    return x\n`);
    }, editMs);
    let peakRss = rssMb(daemon.pid);
    const rssTimer = setInterval(() => (peakRss = Math.max(peakRss, rssMb(daemon.pid))), 250);
    const cpu0 = cpuSeconds(daemon.pid);
    const batches0 = s0.indexing.batches;
    const refused = new Map<string, number>();
    const r = await autocannon({
      url: `http://127.0.0.1:${daemon.info.port}`,
      connections: clients,
      duration: seconds,
      timeout: 60,
      headers: { authorization: `Bearer ${daemon.info.token}`, 'content-type': 'application/json' },
      requests: [{
        method: 'POST',
        path: '/v1/context',
        setupRequest: (req) => ({ ...req, body: JSON.stringify({ query: queries[Math.floor(pick() * queries.length)] }) }),
        // what the answers that were not 2xx said, by status and error code
        onResponse: (status, body) => {
          if (status < 300) return;
          let code = '?';
          try {
            code = (JSON.parse(body) as { error?: { code?: string } }).error?.code ?? '?';
          } catch { /* not JSON */ }
          refused.set(`${status} ${code}`, (refused.get(`${status} ${code}`) ?? 0) + 1);
        },
      }],
    });
    clearInterval(editTimer);
    clearInterval(rssTimer);
    const cpuUsed = cpuSeconds(daemon.pid) - cpu0;
    const s1 = await c.status();

    const total = r.requests.total;
    console.log(`\n${total} requests in ${r.duration.toFixed(1)} s: ${(total / r.duration).toFixed(0)} queries/s; ${r.errors} errors, ${r.non2xx} non-2xx, ${r.timeouts} timeouts`);
    if (refused.size) console.log(`not 2xx: ${[...refused].map(([k, n]) => `${n} x ${k}`).join(', ')}`);
    console.log(`latency p50 ${ms(r.latency.p50)}, p90 ${ms(r.latency.p90)}, p99 ${ms(r.latency.p99)}, max ${ms(r.latency.max)}`);
    console.log(`${edited} edits, ${s1.indexing.batches - batches0} batches indexed; daemon CPU ${cpuUsed.toFixed(1)} s (${(cpuUsed / r.duration).toFixed(2)} cores, ${((cpuUsed * 1000) / Math.max(1, total)).toFixed(1)} CPU-ms a query, writer included), peak RSS ${peakRss.toFixed(0)} MB`);
    const goals = [
      [`p50 <= 50 ms (${ms(r.latency.p50)})`, r.latency.p50 <= 50],
      [`p99 <= 250 ms (${ms(r.latency.p99)})`, r.latency.p99 <= 250],
      [`no errors, no 5xx (${r.errors + r.non2xx + r.timeouts})`, r.errors + r.non2xx + r.timeouts === 0],
    ] as const;
    printGoals('goals (issue 17, item 10):', goals);
    await idle(c);
  } finally {
    await cleanUp(daemon, edits, discard);
  }
}

await main();
