/**
 * Tool results as text a model reads directly: the rendered context first,
 * then one line per fact the model may need (what was left out, which source
 * answered, whether the index is catching up). Pure.
 */
import { alreadyShownLine } from '../../allocator/already-shown.ts';
import type { Allocation, FileSelection, ObjectResponse, SearchHit } from '../../daemon/types.ts';
import type { CodeObject } from '../../indexer/types.ts';
import type { IndexStatus } from './backend.ts';

/** `1. sympy/core/add.py:70-95 Add.flatten (method, signature) 12.31` per hit. */
export function searchText(hits: readonly SearchHit[]): string {
  if (!hits.length) return 'No indexed code matches the query.';
  return hits
    .map((h, i) => `${i + 1}. ${h.path}:${h.startLine}-${h.endLine} ${h.object} (${h.kind}, ${h.view}) id=${h.objectId} score=${round(h.score)}`)
    .join('\n');
}

export function contextText(a: Allocation): string {
  const shown = alreadyShownLine(a.alreadyShown ?? []);
  const body = a.text || 'No indexed code matches the query.';
  return [body, shown].filter(Boolean).join('\n\n');
}

const SOURCE_NAMES: Record<string, string> = {
  sampling: "the host's model (MCP sampling)",
  llm: 'the model configured by ALLOT_LLM_URL',
  offline: "allot's offline localizer",
  given: 'the answers given in the call',
};

/** Which source answered "which files must change?", in words. */
export function sourceText(source: string): string {
  return source.split('+').map((s) => SOURCE_NAMES[s] ?? s).join(', then ');
}

export function selectionText(sel: FileSelection): string {
  const l = sel.localization;
  const lines = [
    `Files chosen by ${sourceText(l.source)}: ${l.agreed.join(', ') || '(none agreed)'}.`,
    ...sel.searches.map((s) => `Search ${s.kind} ${s.kind === 'string' ? JSON.stringify(s.query) : s.query}: ${s.added.length} evidence span(s) added.`),
    ...sel.skipped.map((s) => `Skipped ${s.path}:${s.startLine}-${s.endLine} (${s.role}): ${s.reason}.`),
    ...sel.warnings.map((w) => `Warning: ${w}.`),
    `${sel.blocks.filter((b) => b.role === 'file').length} whole file(s), ${sel.totalTokens} of ${sel.budget} tokens. Files are verbatim: quote their lines exactly when editing.`,
  ];
  const shown = alreadyShownLine((sel.alreadyShown ?? []).map((p) => ({ path: p, name: p })));
  return [lines.join('\n'), sel.text, shown].filter(Boolean).join('\n\n');
}

function descriptor(o: CodeObject): string {
  return `${o.path}:${o.startLine}-${o.endLine} ${o.kind} ${o.qualifiedName} id=${o.id}`;
}

export function objectText(r: ObjectResponse, others: readonly CodeObject[] = []): string {
  const o = r.object;
  const out = [descriptor(o), '', r.text ?? `(the text of ${o.path} changed since it was indexed)`];
  const calls = r.references.from.filter((x) => x.kind !== 'import');
  const imports = r.references.from.filter((x) => x.kind === 'import');
  const callers = r.references.to;
  if (callers.length) out.push('', `Referenced from (${callers.length}):`, ...callers.slice(0, 50).map((x) => `- ${x.path}:${x.line} ${x.kind} ${x.qualifier ? `${x.qualifier}.` : ''}${x.name}`));
  else out.push('', 'Referenced from: nowhere in the index.');
  if (calls.length) out.push('', `References (${calls.length}):`, ...calls.slice(0, 50).map((x) => `- line ${x.line} ${x.kind} ${x.qualifier ? `${x.qualifier}.` : ''}${x.name}${x.targetId ? ` -> id=${x.targetId}` : ''}`));
  if (imports.length) out.push('', `Imports (${imports.length}): ${imports.slice(0, 30).map((x) => (x.module ? `${x.module}.${x.name}` : x.name)).join(', ')}`);
  if (others.length) out.push('', `Other objects with that name: ${others.map(descriptor).join('; ')}`);
  return out.join('\n');
}

export function statusText(s: IndexStatus): string {
  const i = s.index;
  const langs = Object.entries(i.filesByLanguage).map(([l, n]) => `${l} ${n}`).join(', ');
  return [
    `Repository: ${s.repo}`,
    `Index: ${i.files} files (${langs || 'none'}), ${i.objects} objects, ${i.views} views, ${i.resolvedReferences}/${i.references} references resolved.`,
    `State: ${s.state}${s.pendingFiles ? `, ${s.pendingFiles} changed file(s) waiting` : ''}${s.catchingUp ? ' (catching up: recent edits may be missing)' : ''}.`,
    s.daemon ? `Daemon: pid ${s.daemon.pid}, allot ${s.daemon.version}, up ${Math.round(s.daemon.uptimeSeconds)} s, ${s.daemon.queriesServed} queries served.` : 'Daemon: none (answering in-process).',
    ...(s.notice ? [`Notice: ${s.notice}`] : []),
  ].join('\n');
}

/** The line appended to results while the index has not caught up with the files. */
export function catchingUpLine(s: IndexStatus | null): string {
  if (!s) return '';
  if (s.notice) return `Note: ${s.notice}.`;
  return s.catchingUp ? `Note: the index is catching up (${s.state}${s.pendingFiles ? `, ${s.pendingFiles} file(s) waiting` : ''}): recent edits may be missing.` : '';
}

const round = (x: number) => Math.round(x * 1000) / 1000;
