import type { ExtractedObject, ExtractedReference, ExtractedView, FileExtraction, Language, LimitReason, ObjectKind, ReferenceKind, ViewKind } from '../types.ts';
import type { ReadFile } from './extract-file.ts';
import { moduleObject, sourceLines } from './source.ts';
import { viewText } from './view-text.ts';

/**
 * What extraction made of a file's content, kept so the same content is never parsed twice (another branch,
 * another path): everything but the text, which is the file's own, and the path, on which only the module object
 * depends (`moduleObject`: its name and qualified name). Views are line ranges; their texts are rebuilt from the
 * text by the rule extraction used (view-text.ts). Compact arrays, in extraction order (object ids and ordinals
 * are assigned in that order).
 */
export interface CachedExtraction {
  /** The language the file was extracted as (minified code and parses given up fall back to `text`). */
  language: Language;
  lineCount: number;
  parseErrors: number;
  warnings: string[];
  limit: { reason: LimitReason; message: string } | null;
  objects: [parent: number | null, kind: ObjectKind, name: string, qualifiedName: string, startLine: number, endLine: number, startByte: number, endByte: number, signature: string, docstring: string | null][];
  views: [object: number, kind: ViewKind, startLine: number, endLine: number][];
  references: [source: number, kind: ReferenceKind, name: string, qualifier: string | null, module: string | null, alias: string | null, line: number][];
}

export function toCached(file: FileExtraction): CachedExtraction {
  return {
    language: file.language,
    lineCount: file.lineCount,
    parseErrors: file.parseErrors,
    warnings: file.warnings,
    limit: file.limit,
    objects: file.objects.map((o) => [o.parent, o.kind, o.name, o.qualifiedName, o.startLine, o.endLine, o.startByte, o.endByte, o.signature, o.docstring]),
    views: file.views.map((v) => [v.object, v.kind, v.startLine, v.endLine]),
    references: file.references.map((r) => [r.source, r.kind, r.name, r.qualifier, r.module, r.alias, r.line]),
  };
}

/**
 * The extraction of `read` (at its path), from what a file of the same content and language gave: the module
 * object named for this path, view texts rebuilt from this text. Equal to what extracting the file gives.
 */
export function fromCached(cached: CachedExtraction, read: ReadFile, text: string): FileExtraction {
  const src = sourceLines(text);
  const objects: ExtractedObject[] = cached.objects.map(([parent, kind, name, qualifiedName, startLine, endLine, startByte, endByte, signature, docstring]) => ({
    parent, kind, name, qualifiedName, startLine, endLine, startByte, endByte, signature, docstring,
  }));
  const top = objects[0];
  if (top && top.parent === null && (top.kind === 'module' || top.kind === 'file')) {
    const placed = moduleObject(read.path, src, top.kind);
    objects[0] = { ...top, name: placed.name, qualifiedName: placed.qualifiedName };
  }
  const children = objects.map(() => [] as [number, number][]);
  objects.forEach((o) => o.parent !== null && children[o.parent]?.push([o.startLine, o.endLine]));
  const views: ExtractedView[] = cached.views.map(([object, kind, startLine, endLine]) => ({
    object, kind, startLine, endLine, text: viewText({ kind, startLine, endLine }, src.lines, objects[object], children[object]),
  }));
  const references: ExtractedReference[] = cached.references.map(([source, kind, name, qualifier, module, alias, line]) => ({
    source, kind, name, qualifier, module, alias, line,
  }));
  return {
    path: read.path,
    language: cached.language,
    hash: read.hash,
    size: read.bytes.length,
    mtimeMs: read.mtimeMs,
    lineCount: cached.lineCount,
    text,
    parseErrors: cached.parseErrors,
    warnings: [...cached.warnings],
    objects,
    views,
    references,
    limit: cached.limit,
  };
}
