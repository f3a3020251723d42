// The two parse backends (indexer/languages/backends.ts): a native grammar works in the parse pool's worker
// threads, and one that does not load falls back to the wasm grammar with one line, never a crash.
// (That both backends extract the same is checked per language in languages.test.ts.)
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { extractCode } from '../../indexer/extract/extract-code.ts';
import { sourceLines } from '../../indexer/extract/source.ts';
import { LANGUAGE_SPECS, loadLanguage, loadSpec, type LanguageSpec } from '../../indexer/languages/registry.ts';
import { workerBoot } from '../../indexer/worker-boot.ts';
import { FIXTURES } from '../helpers/repo.ts';

const SCALA = fs.readFileSync(path.join(FIXTURES, 'backends/Shapes.scala'), 'utf8');

afterEach(() => vi.restoreAllMocks());

describe('parse backends', () => {
  it('parses with the native grammar in a worker thread, to what the main thread extracts', async () => {
    const worker = new Worker(workerBoot(import.meta.url, './native-worker'), {
      eval: true,
      workerData: { language: 'scala', path: 'Shapes.scala', text: SCALA },
    });
    const reply = await new Promise<{ backend: string; extraction: unknown }>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    await worker.terminate();
    expect(reply.backend).toBe('native');
    const here = extractCode('Shapes.scala', sourceLines(SCALA), await loadLanguage('scala', 'native'));
    expect(reply.extraction).toEqual(here);
  });

  it('falls back to the wasm grammar with one warning when the native one does not load', async () => {
    const lines: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((s) => (lines.push(String(s)), true));
    const absent = { ...LANGUAGE_SPECS.scala, native: { pkg: 'tree-sitter-absent' } } as unknown as LanguageSpec;
    const lang = await loadSpec(absent, 'native');
    expect(lang.backend).toBe('wasm');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^allot: the native scala parser \(tree-sitter-absent\) did not load, parsing scala with its wasm grammar \(slower\): .*\n$/);
    const wasm = extractCode('Shapes.scala', sourceLines(SCALA), lang);
    expect(wasm?.objects.map((o) => o.qualifiedName)).toContain('AfterTheError.stillFound');
  });

  it('uses the wasm grammar when asked for it (ALLOT_PARSER=wasm), without a warning', async () => {
    const lines: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((s) => (lines.push(String(s)), true));
    expect((await loadSpec(LANGUAGE_SPECS.scala, 'wasm')).backend).toBe('wasm');
    expect(lines).toEqual([]);
  });
});
