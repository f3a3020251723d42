/**
 * Where `allot search` and `allot context` get their answers: the running
 * daemon when there is one for this repository and index (started on demand
 * with `--daemon`), else in-process. In-process answers come from the
 * daemon's own query engine (`search()`, `buildContext()`), so the output is
 * identical on both paths. The engine is loaded only for an in-process answer:
 * a query the daemon answers loads neither SQLite nor any retriever here.
 */
import type { AllocateOptions } from '../../allocator/options.ts';
import type { SearchHit } from '../../indexer/retrieve/search.ts';
import type { QueryEngine } from '../../daemon/queries.ts';
import type { ContextAnswer, DaemonStatus } from '../../daemon/types.ts';
import type { RetrievalOptions } from '../../indexer/retrieve/select.ts';
import type { DB, sqliteFault } from '../../indexer/store/open.ts';
import { UsageError } from './repo.ts';
import { createClient, DaemonError, DaemonUnreachable, findDaemon, startDaemonProcess, type AllotClient } from '../lib/index.ts';

export interface QueryRoute {
  via: 'daemon' | 'in-process';
  search(query: string, k: number, retrieval?: RetrievalOptions): Promise<SearchHit[]>;
  context(query: string, options: AllocateOptions, retrieval?: RetrievalOptions): Promise<ContextAnswer>;
  /** Why dense retrieval is not part of the answers (no vectors, a model that failed), or null when it is. */
  denseOff(): Promise<string | null>;
  close(): void;
}

/** `true`: use the daemon, starting it if needed; `false`: never; undefined: use one if it runs. */
export type DaemonMode = boolean | undefined;

/** The daemon's own query engine over a connection of our own: the same code answers on both paths. */
function inProcess(repo: string, dbFile: string): QueryRoute {
  let db: DB | null = null;
  let opened: Promise<{ engine: QueryEngine; fault: typeof sqliteFault }> | null = null;
  const open = () =>
    (opened ??= Promise.all([import('../../daemon/queries.ts'), import('../../indexer/store/open.ts')]).then(([{ createQueryEngine }, store]) => {
      const engine = createQueryEngine((db = store.openStore(dbFile, { readonly: true })), repo);
      // A first build cut short (Ctrl-C, kill -9) left part of the repository: say so before answering from it.
      if (!engine.completeness().complete && engine.hasFiles()) {
        process.stderr.write('allot: the index is incomplete (no full indexing run has finished on it): answers cover only the files indexed so far; run `allot index` to complete it\n');
      }
      return { engine, fault: store.sqliteFault };
    }));
  // A damaged index met half-way through a query: the index's words, not SQLite's.
  const answer = async <T>(query: (engine: QueryEngine) => Promise<T>): Promise<T> => {
    const { engine, fault } = await open();
    try {
      return await query(engine);
    } catch (err) {
      throw fault(dbFile, err) ?? err;
    }
  };
  return {
    via: 'in-process',
    search: (query, k, retrieval) => answer((e) => e.search(query, k, retrieval)),
    context: (query, options, retrieval) => answer((e) => e.context(query, options, retrieval)),
    denseOff: async () => {
      await open();
      const { activeEmbedder } = await import('../../indexer/embed/active.ts');
      const d = await activeEmbedder(db!);
      return d.on ? null : d.reason;
    },
    close: () => db?.close(),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits out a first index build, saying so once on stderr. */
async function whileBuilding<T>(client: AllotClient, call: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 30 * 60_000;
  let told = false;
  for (;;) {
    try {
      return await call();
    } catch (err) {
      if (!(err instanceof DaemonError && err.code === 'index-building') || Date.now() > deadline) throw err;
      if (!told) process.stderr.write(`allot: ${err.message.replace(/; try again shortly$/, '')}: waiting\n`);
      told = true;
      await sleep(250);
      await client.status();
    }
  }
}

/** Why dense retrieval is not part of a daemon's answers, from its status. */
function denseOffIn(status: DaemonStatus): string | null {
  const d = status.dense;
  return d.state === 'off' || d.state === 'failed' ? `dense retrieval is ${d.state === 'off' ? 'off' : 'failing'}: ${d.reason}` : null;
}

/** `status`: the daemon's answer when it was found, which already says whether dense retrieval is on. */
function viaDaemon(client: AllotClient, status: DaemonStatus, fallback: () => QueryRoute): QueryRoute {
  let local: QueryRoute | null = null;
  // A daemon that vanished between the lookup and the query is not an error: answer in-process.
  const guarded = async <T>(remote: () => Promise<T>, here: (r: QueryRoute) => Promise<T>): Promise<T> => {
    try {
      return await whileBuilding(client, remote);
    } catch (err) {
      if (!(err instanceof DaemonUnreachable)) throw err;
      local ??= fallback();
      return here(local);
    }
  };
  return {
    via: 'daemon',
    search: (query, k, retrieval = {}) => guarded(() => client.search({ query, k, ...retrieval }), (r) => r.search(query, k, retrieval)),
    context: (query, options, retrieval = {}) =>
      guarded(() => client.context({ query, ...options, ...retrieval }), (r) => r.context(query, options, retrieval)),
    denseOff: async () => (local ? local.denseOff() : denseOffIn(status)),
    close: () => {
      client.close();
      local?.close();
    },
  };
}

export async function openQueryRoute(repo: string, dbFile: string, mode: DaemonMode): Promise<QueryRoute> {
  if (mode === false) return inProcess(repo, dbFile);
  const found = await findDaemon(repo);
  if (found.state === 'running' && found.info.db === dbFile) return viaDaemon(createClient(repo, found.info), found.status, () => inProcess(repo, dbFile));
  if (mode !== true) return inProcess(repo, dbFile);
  if (found.state === 'running') {
    throw new UsageError(`the daemon for ${repo} serves ${found.info.db}, not ${dbFile}; stop it or drop --daemon`);
  }
  const { info, status } = await startDaemonProcess(repo, { db: dbFile });
  process.stderr.write(`allot: started the daemon for ${repo} (pid ${info.pid})\n`);
  return viaDaemon(createClient(repo, info), status, () => inProcess(repo, dbFile));
}
