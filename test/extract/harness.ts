// The extraction harness every per-language test shares: extract a fixture file or a
// scratch text through the real extractFile (real grammars), and print objects, views
// and references as one-line strings the tables compare against.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect } from 'vitest';
import { DEFAULT_MAX_FILE_BYTES, extractFile } from '../../indexer/extract/extract-file.ts';
import type { ExtractedReference, FileExtraction } from '../../indexer/types.ts';
import { FIXTURES, tempDir } from '../helpers/repo.ts';

/** Extracts one file under `root`; anything but an extraction fails the test. */
export async function extractAt(root: string, rel: string): Promise<FileExtraction> {
  const out = await extractFile(root, rel, { maxFileBytes: DEFAULT_MAX_FILE_BYTES });
  if (out.status !== 'extracted') throw new Error(`${rel}: ${out.status}`);
  return out.file;
}

/** `kind qualifiedName start-end` per object, module first. */
export const objects = (f: FileExtraction) => f.objects.map((o) => `${o.kind} ${o.qualifiedName} ${o.startLine}-${o.endLine}`);

/** The one object with this qualified name. */
export const object = (f: FileExtraction, qualifiedName: string) => {
  const hits = f.objects.filter((o) => o.qualifiedName === qualifiedName);
  expect(hits, qualifiedName).toHaveLength(1);
  return hits[0];
};

export const parentOf = (f: FileExtraction, qualifiedName: string) => {
  const parent = object(f, qualifiedName).parent;
  return parent === null ? null : f.objects[parent].qualifiedName;
};

/** `kind start-end` per view of an object. */
export const views = (f: FileExtraction, qualifiedName: string) => {
  const i = f.objects.indexOf(object(f, qualifiedName));
  return f.views.filter((v) => v.object === i).map((v) => `${v.kind} ${v.startLine}-${v.endLine}`);
};

/** `line kind name [on qualifier] [from module [as alias]] <- source`: every field of a reference. */
export const refs = (f: FileExtraction) =>
  f.references.map((r: ExtractedReference) => {
    if (r.kind === 'import') expect(r.qualifier).toBeNull();
    else expect([r.module, r.alias]).toEqual([null, null]);
    const on = r.qualifier === null ? '' : ` on ${r.qualifier}`;
    const from = r.kind === 'import' ? ` from ${r.module}${r.alias === null ? '' : ` as ${r.alias}`}` : '';
    return `${r.line} ${r.kind} ${r.name}${on}${from} <- ${f.objects[r.source].qualifiedName}`;
  });

/**
 * A test file's extraction helpers: `extract(rel)` reads `test/fixtures/<fixture>/rel`,
 * `extractText(name, text)` writes a scratch file first (removed after the file's tests).
 */
export function extractionHarness(fixture: string) {
  const root = path.join(FIXTURES, fixture);
  const scratch = tempDir(`allot-extract-${fixture}-`);
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));
  return {
    extract: (rel: string, at = root) => extractAt(at, rel),
    extractText(name: string, text: string): Promise<FileExtraction> {
      fs.mkdirSync(path.dirname(path.join(scratch, name)), { recursive: true });
      fs.writeFileSync(path.join(scratch, name), text);
      return extractAt(scratch, name);
    },
  };
}
