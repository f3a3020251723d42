/**
 * Dense embeddings end to end on a real index: the transformers.js pipeline
 * with a generated tiny model (it proves loading, tokenising, pooling and
 * storage work, nothing about quality), model stamping, the vector cache,
 * the repository-trained model through dense retrieval, fusion, and the
 * errors a person sees.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTransformersEmbedder } from '../../indexer/embed/transformers.ts';
import { activeEmbedder } from '../../indexer/embed/active.ts';
import { lexicalRanking } from '../../allocator/files/offline.ts';
import { storeFileSource } from '../../indexer/store/file-source.ts';
import { runEmbedding } from '../../indexer/embed/run.ts';
import { ModelError, modelKey } from '../../indexer/embed/types.ts';
import { indexRepository } from '../../indexer/index-repository.ts';
import { topK } from '../../indexer/retrieve/dense.ts';
import { hybridRetriever } from '../../indexer/retrieve/fusion.ts';
import type { Retriever } from '../../indexer/retrieve/retriever.ts';
import { retrieverFor, RetrievalError } from '../../indexer/retrieve/select.ts';
import { activeDenseModel, countEmbedded } from '../../indexer/store/embeddings.ts';
import { openStore, type DB } from '../../indexer/store/open.ts';
import type { Candidate } from '../../indexer/types.ts';
import { allot } from '../helpers/cli.ts';
import { copyFixture, indexInPlace, tempDir } from '../helpers/repo.ts';
import { writeTinyBert } from '../helpers/tiny-bert.ts';

const norm = (v: Float32Array) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

let models: string;
let tinyA: string;
let tinyB: string;
beforeAll(() => {
  models = tempDir('allot-models-');
  tinyA = writeTinyBert(path.join(models, 'tiny-a'), { seed: 7 });
  tinyB = writeTinyBert(path.join(models, 'tiny-b'), { seed: 8 });
});
afterAll(() => fs.rmSync(models, { recursive: true, force: true }));

describe('transformers.js embedder (generated tiny model)', () => {
  it('loads through the real pipeline: shape, unit norm, determinism, batch invariance', async () => {
    const e = await loadTransformersEmbedder(tinyA);
    expect(e.id).toBe('tiny-a');
    expect(e.dimension).toBe(32);
    expect(e.version).toMatch(/^[0-9a-f]{12}$/);
    const texts = ['read the file path', 'def apply_discount(amount, percent):', 'cart total with tax'];
    const batch = await e.embed(texts);
    expect(batch.map((v) => v.length)).toEqual([32, 32, 32]);
    for (const v of batch) expect(norm(v)).toBeCloseTo(1, 5);
    expect(await e.embed(texts)).toEqual(batch);
    for (let i = 0; i < texts.length; i++) {
      const [alone] = await e.embed([texts[i]]);
      for (let j = 0; j < 32; j++) expect(alone[j]).toBeCloseTo(batch[i][j], 5);
    }
    expect(batch[0]).not.toEqual(batch[1]);
    // Other weights, other version: their vectors must never be mixed.
    expect((await loadTransformersEmbedder(tinyB)).version).not.toBe(e.version);
  });

  it('says what is wrong with a damaged model folder', async () => {
    const bad = path.join(models, 'bad');
    fs.cpSync(tinyA, bad, { recursive: true });
    fs.rmSync(path.join(bad, 'tokenizer.json'));
    await expect(loadTransformersEmbedder(bad)).rejects.toThrow(/not a transformers\.js model folder: tokenizer\.json is missing/);
    fs.cpSync(path.join(tinyA, 'tokenizer.json'), path.join(bad, 'tokenizer.json'));
    fs.writeFileSync(path.join(bad, 'onnx', 'model.onnx'), 'not a model');
    await expect(loadTransformersEmbedder(bad)).rejects.toThrow(ModelError);
    await expect(loadTransformersEmbedder(bad)).rejects.toThrow(/cannot load the model in .*bad/);
    await expect(loadTransformersEmbedder(path.join(models, 'none'))).rejects.toThrow(/no model folder at/);
  });
});

describe('embedding pass over an index', () => {
  let repo: string;
  let db: DB;
  beforeAll(async () => {
    repo = copyFixture('mixed');
    db = await indexInPlace(repo);
  });
  afterAll(() => db.close());

  it('embeds each object once, re-embeds only what changed, and never mixes two models', async () => {
    const first = await runEmbedding(db, 'model', { modelDir: tinyA });
    const { objects } = countEmbedded(db, first!.model);
    expect(first!.embedded).toBeGreaterThan(10);
    expect(countEmbedded(db, first!.model).embedded).toBe(objects);
    expect(activeDenseModel(db)).toBe(first!.model);

    const again = await runEmbedding(db, 'model', { modelDir: tinyA });
    expect(again!.embedded).toBe(0);

    // Edit one function: only its text is new.
    const file = path.join(repo, 'shop/pricing.py');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('return amount * (1 + TAX_RATE)', 'return round(amount * (1 + TAX_RATE), 2)'));
    await indexRepository({ repo, db, workers: 0 });
    const edited = await runEmbedding(db, 'model', { modelDir: tinyA });
    expect(edited!.embedded).toBe(1);
    expect(edited!.pruned).toBe(1);

    // Another model: everything is embedded anew and the old vectors are gone.
    const other = await runEmbedding(db, 'model', { modelDir: tinyB });
    expect(other!.model).not.toBe(first!.model);
    expect(other!.embedded).toBe(objects);
    const models = db.prepare('SELECT DISTINCT model FROM embeddings').pluck().all();
    expect(models).toEqual([other!.model]);
    expect(activeDenseModel(db)).toBe(other!.model);
  });

  it('the repository-trained model drives dense retrieval, and hybrid fuses it in', async () => {
    const summary = await runEmbedding(db, 'repo');
    expect(summary!.model).toMatch(/^allot\/repo-ppmi@[0-9a-f]{12}$/);
    const dense = await retrieverFor(db, 'dense');
    const top = dense.retrieve('discount percent out of range', 3).map((c) => c.objectName);
    expect(top).toContain('apply_discount');
    const hybrid = await retrieverFor(db, 'hybrid');
    await hybrid.prepare?.('discount percent');
    expect(hybrid.retrieve('discount percent', 5).some((c) => c.reason.includes('dense (allot/repo-ppmi)'))).toBe(true);
    // Code queries leave dense out (on cross-file tasks it only hurt); so does a query from a code file.
    const code = 'from shop.pricing import apply_discount\n\ndef total(cart):\n    return apply_discount(cart.subtotal(), 10)\n';
    await hybrid.prepare?.(code);
    expect(hybrid.retrieve(code, 10).some((c) => c.reason.includes('dense'))).toBe(false);
    const fromFile = await retrieverFor(db, 'hybrid', { path: 'shop/cart.py' });
    expect(fromFile.retrieve('discount percent', 10).some((c) => c.reason.includes('dense'))).toBe(false);
    // Reused, not retrained: the version (and so every vector) stays valid.
    expect((await runEmbedding(db, 'repo'))!.model).toBe(summary!.model);
    expect((await runEmbedding(db, 'repo', { retrain: false }))!.embedded).toBe(0);
  });

  it('finds vectors written before the embedding sequence existed (an index upgraded from schema 3)', async () => {
    await runEmbedding(db, 'repo');
    const before = (await retrieverFor(db, 'dense')).retrieve('discount percent out of range', 3).map((c) => c.objectName);
    expect(before).toContain('apply_discount');
    db.exec("UPDATE embeddings SET seq = 0; DELETE FROM state WHERE key = 'vectors_seq'");
    const upgraded = openStore(path.join(repo, '.allot/index.db'), { readonly: true });
    try {
      expect((await retrieverFor(upgraded, 'dense')).retrieve('discount percent out of range', 3).map((c) => c.objectName)).toEqual(before);
    } finally {
      upgraded.close();
    }
  });

  it('the files localizer ranks objects densely when asked (hybrid adds dense to BM25; bm25, the default, does not)', async () => {
    const dense = await activeEmbedder(db);
    expect(dense.on).toBe(true);
    const files = storeFileSource(db, repo, { dense: dense.on ? dense.embedder : undefined });
    const issue = 'The discount percent check raises for values out of range\n\nWhen a percent is over 100 we get an error.';
    const ranked = lexicalRanking(files, issue, 'dense');
    expect(ranked[0].path).toBe('shop/pricing.py');
    expect(ranked[0].reasons.some((r) => r.startsWith('object dense'))).toBe(true);
    expect(ranked.every((r) => !r.reasons.some((x) => x.startsWith('object bm25')))).toBe(true);
    expect(lexicalRanking(files, issue, 'hybrid').some((r) => r.reasons.some((x) => x.startsWith('object dense')))).toBe(true);
    expect(lexicalRanking(files, issue, 'hybrid').some((r) => r.reasons.some((x) => x.startsWith('object bm25')))).toBe(true);
    expect(lexicalRanking(files, issue).some((r) => r.reasons.some((x) => x.startsWith('object dense')))).toBe(false);
  });

  it('with no vectors, dense retrieval refuses clearly and hybrid still answers', async () => {
    await runEmbedding(db, 'none');
    expect(activeDenseModel(db)).toBeNull();
    await expect(retrieverFor(db, 'dense')).rejects.toThrow(RetrievalError);
    await expect(retrieverFor(db, 'dense')).rejects.toThrow(/dense retrieval is off: the index holds no vectors/);
    const hybrid = await retrieverFor(db, 'hybrid');
    expect(hybrid.retrieve('apply discount', 5).length).toBeGreaterThan(0);
  });
});

describe('fusion and the vector scan', () => {
  const list = (name: string, ids: string[]): Retriever => ({
    name,
    retrieve: () => ids.map((id, i) => ({ viewId: i + (name === 'a' ? 0 : 100), objectId: id, fiber: 'f', path: 'f', objectName: id, objectKind: 'function', viewKind: 'body', startLine: 1, endLine: 1, score: 1, reason: name }) as Candidate),
  });

  it('reciprocal rank fusion: objects both lists rank high win, weights count', () => {
    const fused = hybridRetriever([{ retriever: list('a', ['x', 'y', 'z']), weight: 1 }, { retriever: list('b', ['y', 'w', 'x']), weight: 1 }]);
    // y: 1/12 + 1/11; x: 1/11 + 1/13; w: 1/12; z: 1/13
    expect([...new Set(fused.retrieve('q', 10).map((c) => c.objectId))]).toEqual(['y', 'x', 'w', 'z']);
    const weighted = hybridRetriever([{ retriever: list('a', ['x', 'y', 'z']), weight: 3 }, { retriever: list('b', ['y', 'w', 'x']), weight: 1 }]);
    expect(weighted.retrieve('q', 10)[0].objectId).toBe('x');
    // The constant decides between "first in one list" and "fourth in both": y scores 2/(k+4), x 1/(k+1).
    const parts = [{ retriever: list('a', ['x', 'a2', 'a3', 'y']), weight: 1 }, { retriever: list('b', ['z', 'b2', 'b3', 'y']), weight: 1 }];
    expect(hybridRetriever(parts, 'h', 1).retrieve('q', 10)[0].objectId).toBe('x');
    expect(hybridRetriever(parts, 'h', 10).retrieve('q', 10)[0].objectId).toBe('y');
  });

  it('topK returns the largest dot products, best first', () => {
    const m = Float32Array.from([1, 0, 0, 1, 0.6, 0.8, -1, 0]);
    expect(topK(m, 2, Float32Array.of(0, 1), 2)).toEqual([{ row: 1, score: 1 }, { row: 2, score: expect.closeTo(0.8, 5) }]);
    expect(topK(m, 2, Float32Array.of(1, 0), 10).map((r) => r.row)).toEqual([0, 2, 1, 3]);
    // Against a full sort on random data, ties included.
    let seed = 11;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) - 0.5;
    const dim = 7;
    const big = Float32Array.from({ length: 500 * dim }, () => Math.round(rand() * 8) / 8);
    const q = Float32Array.from({ length: dim }, rand);
    const all = Array.from({ length: 500 }, (_, r) => ({ row: r, score: big.subarray(r * dim, (r + 1) * dim).reduce((s, x, j) => s + x * q[j], 0) }))
      .sort((a, b) => b.score - a.score || a.row - b.row);
    const got = topK(big, dim, q, 17);
    expect(got.map((g) => g.row)).toEqual(all.slice(0, 17).map((a) => a.row));
  });
});

describe('the command line', () => {
  it('embeds with --embed, searches densely, and says when a model folder is gone', () => {
    const repo = copyFixture('mixed');
    const model = path.join(tempDir('allot-model-'), 'tiny');
    fs.cpSync(tinyA, model, { recursive: true });
    const idx = allot(['index', repo, '--embed', 'model', '--model', model]);
    expect(idx.status, idx.stderr).toBe(0);
    expect(idx.stdout).toMatch(/embedding {3}tiny@[0-9a-f]{12}: \d+ embedded, 0 cached/);
    const dense = allot(['--repo', repo, 'search', 'discount', '--retriever', 'dense', '--k', '2']);
    expect(dense.status, dense.stderr).toBe(0);
    expect(dense.stdout.trim().split('\n')).toHaveLength(2);
    fs.rmSync(model, { recursive: true });
    const gone = allot(['--repo', repo, 'search', 'discount', '--retriever', 'dense']);
    expect(gone.status).toBe(2);
    expect(gone.stderr).toMatch(/dense retrieval is off: the model folder .*tiny is gone/);
    const hybrid = allot(['--repo', repo, 'search', 'apply_discount', '--k', '1']);
    expect(hybrid.status).toBe(0);
    expect(hybrid.stdout).toContain('apply_discount');
    expect(hybrid.stderr).toMatch(/dense retrieval is off: the model folder .* is gone; hybrid is structural \+ BM25/);
    const plain = copyFixture('mixed');
    expect(allot(['index', plain]).status).toBe(0);
    const noVectors = allot(['--repo', plain, 'files', '--issue', '-', '--retriever', 'dense'], { input: 'discount is wrong\n' });
    expect(noVectors.status).toBe(2);
    expect(noVectors.stderr).toMatch(/dense retrieval is off: the index holds no vectors/);
    expect(allot(['--repo', plain, 'files', '--issue', '-'], { input: 'apply_discount raises for percent 101\n' }).status).toBe(0);
    const unknown = allot(['index', repo, '--embed', 'bert']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('--embed must be one of repo, model, none');
  });
});

describe('allot model fetch', () => {
  it('downloads from a hub, verifies the model loads, and says clearly when the hub is unreachable', async () => {
    const http = await import('node:http');
    const { fetchModel } = await import('../../indexer/embed/fetch-model.ts');
    const requested: string[] = [];
    // A local hub serving the tiny model's files at /<owner>/<name>/resolve/main/<file>.
    const server = http.createServer((req, res) => {
      requested.push(req.url!);
      const file = req.url!.replace(/^\/acme\/tiny\/resolve\/main\//, '').replace('onnx/model_quantized.onnx', 'onnx/model.onnx');
      const abs = path.join(tinyA, file);
      if (!fs.existsSync(abs)) return void res.writeHead(404).end();
      res.writeHead(200).end(fs.readFileSync(abs));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    try {
      const dir = path.join(tempDir('allot-fetch-'), 'acme--tiny');
      const m = await fetchModel('acme/tiny', { dir, hub: `http://127.0.0.1:${port}` });
      expect(m).toMatchObject({ id: 'acme/tiny', dir, dimension: 32 });
      expect(fs.existsSync(path.join(dir, 'onnx', 'model_quantized.onnx'))).toBe(true);
      expect(requested).toContain('/acme/tiny/resolve/main/config.json');
      expect((await loadTransformersEmbedder(dir)).dimension).toBe(32);
      await expect(fetchModel('acme/missing', { dir: path.join(tempDir(), 'x'), hub: `http://127.0.0.1:${port}` })).rejects.toThrow(/HTTP 404/);
    } finally {
      server.close();
    }
    await expect(fetchModel('acme/tiny', { dir: path.join(tempDir(), 'y'), hub: 'http://127.0.0.1:9' })).rejects.toThrow(/cannot download .*this machine cannot reach the model hub/);
    await expect(fetchModel('not a model id')).rejects.toThrow(/is not a model id like owner\/name/);
  });
});
