/**
 * Tool results as text a model reads directly: the rendered context first,
 * then one line per fact the model may need (what was left out, which source
 * answered, whether the index is catching up). Pure.
 */
import { alreadyShownLine } from '../../allocator/already-shown.ts';
import type {
  BuildProgress, ContextAnswer, FileSelection, ObjectResponse, OutlineAnswer, OutlineNode, ReadFileAnswer, ReferencesAnswer, SearchHit, SymbolAnswer,
} from '../../daemon/types.ts';
import type { CodeObject } from '../../indexer/types.ts';
import type { IndexStatus } from './backend.ts';
import { progressWords } from '../../daemon/status.ts';

/** What an empty answer says: a complete index has no such code; an incomplete one may not have indexed it yet. */
export function noMatch(complete: boolean, what = 'the query'): string {
  return complete
    ? `No indexed code matches ${what}.`
    : `No match for ${what} in the files indexed so far: the index is still being built, so the code may well exist. Call again shortly.`;
}

/** The line put first in every result while no whole-repository run has finished on the index. */
export function incompleteLine(s: IndexStatus | null): string {
  if (!s || s.complete) return '';
  return `Incomplete: the index of ${s.repo} is still being built (${progressWords(s.progress)}); this answer covers only the files indexed so far, so a missing match does not mean the code does not exist. Call again shortly (index_status shows the progress).`;
}

/** `1. sympy/core/add.py:70-95 Add.flatten (method, signature) 12.31` per hit. */
export function searchText(hits: readonly SearchHit[], complete = true): string {
  if (!hits.length) return noMatch(complete);
  return hits
    .map((h, i) => `${i + 1}. ${h.path}:${h.startLine}-${h.endLine} ${h.object} (${h.kind}, ${h.view}) id=${h.objectId} score=${round(h.score)}`)
    .join('\n');
}

export function contextText(a: ContextAnswer, complete = true): string {
  const shown = alreadyShownLine(a.alreadyShown ?? []);
  const warnings = (a.warnings ?? []).map((w) => `Warning: ${w}.`).join('\n');
  const body = a.text || (warnings ? '' : noMatch(complete));
  return [body, warnings, shown].filter(Boolean).join('\n\n');
}

/** `path:lines kind qualifiedName — signature id=...` */
function symbolLine(m: { path: string; startLine: number; endLine: number; kind: string; qualifiedName: string; signature: string; id: string }): string {
  return `${m.path}:${m.startLine}-${m.endLine} ${m.kind} ${m.qualifiedName}${m.signature ? ` — ${oneLine(m.signature)}` : ''} id=${m.id}`;
}

const oneLine = (s: string, max = 160) => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 3)}...` : t;
};

const MATCH_TITLES = { exact: 'Exact matches', prefix: 'Names starting with it', parts: 'Names made of its identifier parts' } as const;

export function symbolText(a: SymbolAnswer, complete = true): string {
  if (!a.matches.length) return noMatch(complete, `the name ${JSON.stringify(a.query)}`);
  const out: string[] = [];
  for (const kind of ['exact', 'prefix', 'parts'] as const) {
    const ms = a.matches.filter((m) => m.match === kind);
    if (ms.length) out.push(`${MATCH_TITLES[kind]} (${a.counts[kind]}${ms.length < a.counts[kind] ? `, ${ms.length} shown` : ''}):`, ...ms.map((m) => `- ${symbolLine(m)}`));
  }
  if (a.truncated) out.push(`(${a.total - a.matches.length} more: raise limit, or narrow with kind or path)`);
  return out.join('\n');
}

export function referencesText(a: ReferencesAnswer, complete = true): string {
  const c = a.counts;
  const targets = a.targets.map(symbolLine);
  const head = `References to ${a.targets.length === 1 ? targets[0] : `${a.targets.length} objects of that name:\n${targets.map((t) => `  ${t}`).join('\n')}`}`;
  const counts = `${c.call} call(s), ${c.import} import(s), ${c.inherit} subclass(es) outside tests; ${c.test} use(s) from tests.`;
  if (!a.references.length) return `${head}\n${counts}\n${complete ? 'Nothing in the index references it.' : 'Nothing references it in the files indexed so far (the index is still being built).'}`;
  const lines = a.references.map((r) => {
    const where = r.enclosing.kind === 'module' || r.enclosing.kind === 'file' ? 'top level' : `${r.enclosing.kind} ${r.enclosing.qualifiedName}`;
    return `- ${r.path}:${r.line} ${r.kind}${r.test ? ' (test)' : ''} in ${where}${a.targets.length > 1 ? ` -> id=${r.targetId}` : ''}: ${r.text.trim()}`;
  });
  const more = a.truncated ? [`(${a.total - a.references.length} more: raise limit, or filter with kinds)`] : [];
  return [head, counts, ...lines, ...more].join('\n');
}

function outlineLines(nodes: readonly OutlineNode[], depth: number, out: string[]): void {
  for (const n of nodes) {
    out.push(`${'  '.repeat(depth)}- ${n.startLine}-${n.endLine} ${n.kind} ${n.name}${n.signature ? `: ${oneLine(n.signature)}` : ''} id=${n.id}`);
    outlineLines(n.children, depth + 1, out);
  }
}

export function outlineText(a: OutlineAnswer): string {
  const out = [`${a.path} (${a.language}, ${a.lineCount} lines, ${a.count} objects)`];
  if (!a.objects.length) out.push('(no functions, classes or other objects: a text file or top-level code only)');
  outlineLines(a.objects, 0, out);
  return out.join('\n');
}

/** The header line of a `read_file` result; the lines themselves follow verbatim in a content item of their own. */
export function readFileHeader(a: ReadFileAnswer): string {
  const shown = a.endLine >= a.startLine ? `lines ${a.startLine}-${a.endLine} of ${a.lineCount}` : `nothing (line ${a.startLine} alone is over the budget)`;
  const cut = a.truncated ? `; cut at the budget of ${a.budget} tokens: continue with startLine ${a.nextLine}` : '';
  return `${a.path}: ${shown} (${a.language}, ${a.tokens} tokens${cut}). The text that follows is verbatim.`;
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
  const d = s.daemon;
  const daemon = d
    ? [
        `Daemon: pid ${d.pid} on ${d.address || 'loopback'}, allot ${d.version}, up ${Math.round(d.uptimeSeconds)} s, ${d.queriesServed} queries served; ${d.startedBySession ? 'started by this MCP server' : 'was already running'}.`,
        `Stop it with \`${d.stop}\`${d.idleExit ? `; it stops by itself after ${d.idleExit.minutes} minute(s) without a request (at ${d.idleExit.exitsAt} if none comes)` : '; it keeps running after this session ends (`allot mcp --idle-exit MINUTES` makes a daemon it starts stop when unused)'}. Log: ${d.log}.`,
      ]
    : ['Daemon: none (answering in-process: the index is brought up to date once, when this server starts; later edits are not seen).'];
  return [
    `Repository: ${s.repo}`,
    `Index: ${i.files} files (${langs || 'none'}), ${i.objects} objects, ${i.views} views, ${i.resolvedReferences}/${i.references} references resolved.`,
    s.complete ? 'Complete: a full build of the repository has finished.' : `Incomplete: the first full build is running (${progressWords(s.progress)}); answers cover only the files indexed so far.`,
    `State: ${s.state}${s.pendingFiles ? `, ${s.pendingFiles} changed file(s) waiting` : ''}${s.catchingUp ? ' (catching up: recent edits may be missing)' : ''}.`,
    ...daemon,
    ...(s.notice ? [`Notice: ${s.notice}`] : []),
  ].join('\n');
}

/** The line appended to results while the index has not caught up with the files. */
export function catchingUpLine(s: IndexStatus | null): string {
  if (!s) return '';
  if (s.notice) return `Note: ${s.notice}.`;
  return s.catchingUp && s.complete ? `Note: the index is catching up (${s.state}${s.pendingFiles ? `, ${s.pendingFiles} file(s) waiting` : ''}): recent edits may be missing.` : '';
}

const round = (x: number) => Math.round(x * 1000) / 1000;
