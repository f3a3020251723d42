// Benchmark of the repository-trained embedder (indexer/embed/repo-embedder.ts), not a test.
//
//   npx tsx test/bench/embed-repo.ts [DB] [--dimension N]      (DB default /tmp/sympy.db)
//
// DB is an existing index, e.g. built by
//   node client/bin/allot.js index bench-data/sympy/usr/lib/python3/dist-packages/sympy --db /tmp/sympy.db
// Trains on one document per object (its body view, which holds signature and docstring; objects
// without one use signature + docstring), then reports training seconds, vocabulary, peak RSS,
// embedOne rates, and nearest sub-tokens of a few probes as a smell test of quality.
import { openStore, StoreError, type DB } from '../../indexer/store/open.ts';
import { viewTexts } from '../../indexer/store/view-texts.ts';
import { trainRepositoryEmbedder, loadRepositoryEmbedder } from '../../indexer/embed/repo-embedder.ts';

const args = process.argv.slice(2);
const dimFlag = args.indexOf('--dimension');
const dimension = dimFlag >= 0 ? Number(args.splice(dimFlag, 2)[1]) : 128;
const dbPath = args[0] ?? '/tmp/sympy.db';

const mb = (bytes: number) => (bytes / 2 ** 20).toFixed(0);

/** Opens the index read-only. An index of an older schema is not upgraded here: a copy would be one allot did not
 * build in place (which it rebuilds rather than trust), and upgrading the caller's file is `allot index`'s job. */
function openForReading(file: string): { db: DB; cleanup: () => void } {
  try {
    return { db: openStore(file, { readonly: true }), cleanup: () => {} };
  } catch (err) {
    if (err instanceof StoreError && err.code === 'newer' && /needs an upgrade/.test(err.message)) {
      throw new Error(`${file} needs an upgrade: run \`allot index --db ${file}\` on its repository first`);
    }
    throw err;
  }
}

function objectTexts(file: string): string[] {
  const { db, cleanup } = openForReading(file);
  try {
    // An object's body view's text (rebuilt from its file's lines), else its signature and docstring.
    const texts = viewTexts(db);
    const rows = db
      .prepare(
        `SELECT o.id AS objectId, o.signature, o.docstring, v.file_id AS fileId, v.start_line AS startLine, v.end_line AS endLine
         FROM objects o LEFT JOIN views v ON v.id = (SELECT b.id FROM views b WHERE b.object = o.key AND b.kind = 'body' LIMIT 1) ORDER BY o.id`,
      )
      .all() as { objectId: string; signature: string; docstring: string | null; fileId: number | null; startLine: number; endLine: number }[];
    return rows.map((r) =>
      r.fileId === null
        ? `${r.signature}\n${r.docstring ?? ''}`
        : texts({ objectId: r.objectId, fileId: r.fileId, kind: 'body', derived: 0, startLine: r.startLine, endLine: r.endLine }),
    );
  } finally {
    db.close();
    cleanup();
  }
}

function rate(label: string, texts: string[], embed: (t: string) => Float32Array): void {
  const started = performance.now();
  let zero = 0;
  for (const t of texts) if (embed(t).every((x) => x === 0)) zero++;
  const s = (performance.now() - started) / 1000;
  console.log(`  embedOne ${label.padEnd(22)} ${(texts.length / s).toFixed(0).padStart(8)} texts/s  (${texts.length} texts, ${zero} zero vectors)`);
}

function cosine(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

const texts = objectTexts(dbPath);
const chars = texts.reduce((n, t) => n + t.length, 0);
const rssBefore = process.memoryUsage().rss;
const started = performance.now();
const embedder = trainRepositoryEmbedder(texts, { dimension });
const trainSeconds = (performance.now() - started) / 1000;
const peakRss = process.resourceUsage().maxRSS * 1024;
console.log(`repository-trained embedder on ${dbPath}: ${texts.length} documents, ${(chars / 1e6).toFixed(1)} M chars`);
console.log(`  training ${trainSeconds.toFixed(2)} s, vocabulary ${embedder.vocabulary.length}, dimension ${embedder.dimension}, version ${embedder.version}`);
console.log(`  RSS before training ${mb(rssBefore)} MB (documents loaded), peak RSS ${mb(peakRss)} MB`);

const bytes = embedder.toBuffer();
const loadStarted = performance.now();
const loaded = loadRepositoryEmbedder(bytes);
console.log(`  model ${(bytes.length / 1e6).toFixed(2)} MB, load ${(performance.now() - loadStarted).toFixed(0)} ms, same version after load: ${loaded.version === embedder.version}`);

const queries = ['read the contents of a file', 'solve a system of linear equations', 'simplify trigonometric expression',
  'matrix determinant', 'integrate rational function', 'print latex', 'parse a string into an expression', 'series expansion'];
rate('queries', Array.from({ length: 2000 }, (_, i) => queries[i % queries.length]), (t) => embedder.embedOne(t));
rate('object bodies', texts.slice(0, 20_000), (t) => embedder.embedOne(t));

const vocab = embedder.vocabulary;
const tokenVec = vocab.map((t) => embedder.embedOne(t));
for (const probe of ['matrix', 'integral', 'polynomial', 'latex', 'file', 'solve']) {
  const p = vocab.indexOf(probe);
  if (p < 0) continue;
  const near = tokenVec.map((v, i) => [cosine(tokenVec[p], v), i] as const).sort((a, b) => b[0] - a[0]).slice(1, 9);
  console.log(`  nearest to ${probe.padEnd(10)} ${near.map(([c, i]) => `${vocab[i]} ${c.toFixed(2)}`).join(', ')}`);
}
