/**
 * The offline localizer: "which files must change?" answered without a model,
 * by rankers that look at different evidence, so that their agreement means
 * something. Answer 0 is lexical (BM25 of the issue over files and over objects
 * aggregated per file), answer 1 structural (files the issue points at: stack
 * frames, paths, module names, identifiers it names that the index defines,
 * messages found literally in the source), answer 2 (asked only when those two
 * share nothing) the paths whose words the issue uses.
 */
import { isDocPath, isTestPath } from '../../indexer/paths.ts';
import { issueWords, pathWords } from './inventory.ts';
import { issueSignals, messageFragments, type IssueSignals } from './issue-signals.ts';
import { suffixIndex } from './parse-answer.ts';
import type { Answer, AnswerSource, FileSource } from './types.ts';

/** A ranked file with the reasons it ranks. */
export interface RankedFile {
  path: string;
  score: number;
  reasons: string[];
}

export interface OfflineOptions {
  /** Most files in one answer. */
  maxFiles?: number;
  /** A file stays in an answer while its score is at least this share of the best one's. */
  minShare?: number;
}

const DEFAULTS: Required<OfflineOptions> = { maxFiles: 5, minShare: 0.25 };

/** Identifiers defined in more source files than this say nothing about where the fix goes. */
const MAX_DEFINING_FILES = 4;
/** Weight of an identifier that is a plain word (not snake_case, camelCase, a call...). */
const PLAIN_WORD = 0.35;
/** Weight of a package's `__init__.py` defining a mentioned package name. */
const PACKAGE = 0.3;
/** Quoted code lines searched per issue. */
const MAX_CODE_LINES = 15;
/** Messages and fragments tried per issue. */
const MAX_MESSAGES = 8;
/** A literal found in more files than this is too common to point anywhere. */
const MAX_STRING_FILES = 3;

/** Code that shows or measures the project rather than being it: examples, benchmarks, demos. */
const PERIPHERAL = /(^|\/)(examples?|samples?|demos?|bench|benchmarks?|asv_bench)\//;

/** Where fixes go: neither tests, documentation, nor examples and benchmarks. */
const source = (p: string): boolean => !isTestPath(p) && !isDocPath(p) && !PERIPHERAL.test(p);

function cut(ranked: RankedFile[], opts: Required<OfflineOptions>): RankedFile[] {
  const top = ranked[0]?.score ?? 0;
  return ranked.filter((r, i) => i < opts.maxFiles && r.score > 0 && r.score >= top * opts.minShare);
}

function sortRanked(scores: Map<string, RankedFile>): RankedFile[] {
  return [...scores.values()].sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

// Lexical ranker: "BM25 of the issue over files and over objects aggregated per file" (each normalised by its best, then
// added; code files only: prose and configuration match an issue's words without being where code changes).
export function lexicalRanking(files: FileSource, issue: string): RankedFile[] {
  const byFile = files.fileScores(issue);
  const byObject = files.objectScores(issue);
  const maxF = Math.max(0, ...byFile.values());
  const maxO = Math.max(0, ...byObject.values());
  const scores = new Map<string, RankedFile>();
  const add = (path: string, s: number, why: string) => {
    if (!source(path) || files.language(path) === 'text' || s <= 0) return;
    const r = scores.get(path) ?? { path, score: 0, reasons: [] };
    r.score += s;
    r.reasons.push(why);
    scores.set(path, r);
  };
  for (const [p, s] of byFile) add(p, s / maxF, `file bm25 ${s.toFixed(2)}`);
  for (const [p, s] of byObject) add(p, s / maxO, `object bm25 ${s.toFixed(2)}`);
  return sortRanked(scores);
}

/** Resolves a path written in an issue (absolute, relative, installed copy) to an indexed path by its longest unique tail. */
export function resolveMention(mention: string, tails: Map<string, string[]>, minSegments: number): string | null {
  const segs = mention.replace(/\\/g, '/').replace(/^[a-zA-Z]:/, '').split('/').filter((s) => s && s !== '.');
  for (let i = 0; i <= segs.length - minSegments; i++) {
    const found = tails.get(segs.slice(i).join('/'));
    if (found?.length === 1) return found[0];
    if (found && found.length > 1) return null; // ambiguous at this length: shorter tails only get worse
  }
  return null;
}

/** Files a dotted module name (`requests.sessions`, `_pytest.python.Function`) names: its longest module prefix. */
function moduleFiles(dotted: string, indexed: ReadonlySet<string>, tails: Map<string, string[]>): string | null {
  const parts = dotted.split('.');
  for (let n = parts.length; n >= 2; n--) {
    const base = parts.slice(0, n).join('/');
    for (const candidate of [`${base}.py`, `${base}/__init__.py`, `${base}.js`, `${base}.ts`, `${base}/index.js`, `${base}/index.ts`]) {
      if (indexed.has(candidate)) return candidate;
      const t = tails.get(candidate);
      if (t?.length === 1) return t[0];
    }
  }
  return null;
}

const KIND_WEIGHT: Record<string, number> = { class: 1, interface: 1, struct: 1, enum: 0.8, trait: 1, type: 0.8, function: 1, method: 0.8, constant: 0.6, module: 1 };

// Structural ranker: "files that define the identifiers, stack-trace frames, error strings and paths that the issue mentions, resolved through the index".
export function structuralRanking(files: FileSource, issue: string, signals: IssueSignals = issueSignals(issue)): RankedFile[] {
  const all = files.paths();
  const indexed = new Set(all);
  const tails = suffixIndex(all);
  const scores = new Map<string, RankedFile>();
  const add = (path: string | null, s: number, why: string) => {
    if (!path || !source(path) || s <= 0) return;
    const r = scores.get(path) ?? { path, score: 0, reasons: [] };
    r.score += s;
    r.reasons.push(why);
    scores.set(path, r);
  };

  // Stack frames: every repository file a frame runs through; the innermost such frame most.
  const frameFiles = signals.frames
    .map((f) => ({ f, path: resolveMention(f.path, tails, f.path.startsWith('/') || /^[A-Za-z]:/.test(f.path) ? 2 : 1) }))
    .filter((x) => x.path !== null && source(x.path));
  const seenFrames = new Set<string>();
  frameFiles.forEach(({ f, path }, i) => {
    const innermost = i === frameFiles.length - 1; // Python writes the innermost frame last
    if (!seenFrames.has(path!)) add(path, 2, `frame ${f.path}:${f.line}`);
    seenFrames.add(path!);
    if (innermost) add(path, 1, 'innermost frame');
    if (f.func && files.definitions(f.func).some((d) => d.path === path)) add(path, 0.5, `frame function ${f.func}`);
  });

  // Paths written in the issue: with a folder they name a file; a bare file name may be the reporter's own.
  for (const p of signals.paths) add(resolveMention(p, tails, 1), p.includes('/') ? 2.5 : 1, `path ${p}`);

  // Dotted names: module paths, then qualified names of objects.
  for (const d of signals.dotted.slice(0, 30)) {
    const mod = moduleFiles(d, indexed, tails);
    if (mod) add(mod, 1.5, `module ${d}`);
    const defs = [...new Set(files.definitions(d).map((x) => x.path).filter(source))];
    if (d.split('.').length >= 2 && defs.length > 0 && defs.length <= MAX_DEFINING_FILES) {
      for (const p of defs) add(p, 1.5 / defs.length, `defines ${d}`);
    }
  }

  // Identifiers the index defines in few source files; plain words (`version`, `data`) and package names count little.
  for (const [id, { count, shaped }] of signals.identifiers) {
    if (id.length < 3) continue;
    const defs = files.definitions(id).filter((x) => source(x.path));
    const paths = [...new Set(defs.map((x) => x.path))];
    if (paths.length === 0 || paths.length > MAX_DEFINING_FILES) continue;
    const w = ((shaped ? 1 : PLAIN_WORD) * (1 + 0.5 * Math.log(count))) / paths.length;
    for (const p of paths) {
      const kind = Math.max(...defs.filter((x) => x.path === p).map((x) => (x.kind === 'module' && /(^|\/)__init__\.py$/.test(p) ? PACKAGE : KIND_WEIGHT[x.kind] ?? 0.5)));
      add(p, w * kind, `defines ${id}`);
    }
  }

  // Code quoted from the repository: a source line of the issue found verbatim in a few files.
  for (const line of signals.codeLines.slice(0, MAX_CODE_LINES)) {
    const hits = [...new Set(files.strings(line, 50).map((h) => h.path))].filter(source);
    if (hits.length > 0 && hits.length <= MAX_STRING_FILES) for (const p of hits) add(p, 2 / hits.length, `code "${line.slice(0, 40)}"`);
  }

  // Messages: the longest fragment found literally in a few source files.
  for (const message of signals.messages.slice(0, MAX_MESSAGES)) {
    for (const fragment of messageFragments(message)) {
      const hits = [...new Set(files.strings(fragment, 200).map((h) => h.path))].filter(source);
      if (hits.length === 0) continue;
      if (hits.length <= MAX_STRING_FILES) for (const p of hits) add(p, 2.5 / hits.length, `string "${fragment.slice(0, 40)}"`);
      break;
    }
  }
  return sortRanked(scores);
}

// Path ranker (the third answer): "paths whose words the issue uses", each shared word weighted by its rarity among paths.
export function pathRanking(files: FileSource, issue: string): RankedFile[] {
  const words = issueWords(issue);
  const paths = files.paths().filter(source);
  const df = new Map<string, number>();
  const wordsOf = new Map(paths.map((p) => [p, pathWords(p)]));
  for (const ws of wordsOf.values()) for (const w of ws) df.set(w, (df.get(w) ?? 0) + 1);
  const scores = new Map<string, RankedFile>();
  for (const p of paths) {
    const shared = wordsOf.get(p)!.filter((w) => words.has(w) && w.length > 2);
    if (!shared.length) continue;
    const score = shared.reduce((s, w) => s + Math.log(1 + paths.length / df.get(w)!), 0);
    scores.set(p, { path: p, score, reasons: shared.map((w) => `path word ${w}`) });
  }
  return sortRanked(scores);
}

/** The offline localizer as an answer source: lexical, structural, then path words. */
export function offlineAnswerSource(files: FileSource, options: OfflineOptions = {}): AnswerSource & { rankings(issue: string): RankedFile[][] } {
  const opts = { ...DEFAULTS, ...options };
  const memo = new Map<string, RankedFile[][]>();
  const rankings = (issue: string): RankedFile[][] => {
    let r = memo.get(issue);
    if (!r) {
      r = [lexicalRanking(files, issue), structuralRanking(files, issue), pathRanking(files, issue)];
      memo.clear();
      memo.set(issue, r);
    }
    return r;
  };
  return {
    name: 'offline',
    rankings,
    async answer(request, index): Promise<Answer | null> {
      if (index > 2) return null;
      return { paths: cut(rankings(request.issue)[index], opts).map((r) => r.path) };
    },
  };
}
