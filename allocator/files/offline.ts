/**
 * The offline localizer: "which files must change?" answered without a model,
 * by rankers that look at different evidence, so that their agreement means
 * something. Answer 0 is lexical (BM25 of the issue over files and over objects
 * aggregated per file), answer 1 structural (files the issue points at: stack
 * frames, paths, module names, identifiers it names that the index defines,
 * messages found literally in the source), answer 2 (asked only when those two
 * share nothing) BM25 of the issue's title alone.
 */
import { isFixTarget } from './fix-targets.ts';
import { issueWords, pathWords } from './inventory.ts';
import { issueSignals, messageFragments, stripEnvironment, type IssueSignals } from '../../indexer/retrieve/issue-signals.ts';
import { suffixIndex } from './parse-answer.ts';
import type { Answer, AnswerSource, FileSource } from './types.ts';

/** A ranked file with the reasons it ranks. */
export interface RankedFile {
  path: string;
  score: number;
  reasons: string[];
}

/** How long one answer is: at most `maxFiles`, and only files scoring at least `minShare` of the best one. */
export interface AnswerCut {
  maxFiles: number;
  minShare: number;
}

/** Cuts of the lexical, structural and title answers. */
export interface OfflineOptions {
  cuts?: [AnswerCut, AnswerCut, AnswerCut];
  /** What the lexical answer ranks objects with (default `bm25`, the measured one; `hybrid` adds dense where the source has vectors). */
  retriever?: FileRetriever;
  /**
   * Ablation (issue 10's measure): false leaves the structural ranker out; the title's answer takes its place and
   * the paths' answer becomes the third.
   */
  structural?: boolean;
}

/** `--retriever` for `allot files`: the object-level field of the lexical answer. */
export const FILE_RETRIEVERS = ['bm25', 'hybrid', 'dense'] as const;
export type FileRetriever = (typeof FILE_RETRIEVERS)[number];

// Lexical scores are flat (every file shares some words with an issue): the three best, and only those close to the
// best one. Structural scores are evidence, each piece meaningful: a quarter of the best is still an answer. The third
// answer breaks a tie between the first two: its two best files.
export const DEFAULT_CUTS: [AnswerCut, AnswerCut, AnswerCut] = [
  { maxFiles: 3, minShare: 0.5 },
  { maxFiles: 5, minShare: 0.25 },
  { maxFiles: 2, minShare: 0 },
];

/** Weight of the path's words in the lexical ranker (file text and objects weigh 1 each). */
const PATH_FIELD = 0.25;
/** Identifiers defined in more source files than this say nothing about where the fix goes. */
const MAX_DEFINING_FILES = 4;
/** Weight of an identifier that is a plain word (not snake_case, camelCase, a call...). */
const PLAIN_WORD = 0.35;
/** Weight of a package's `__init__.py` defining a mentioned package name. */
const PACKAGE = 0.3;
/** A rare name is held by at most this many source files. */
const MAX_MENTION_FILES = 4;
/** Flags and hyphenated names searched per issue. */
const MAX_SYMBOLS = 8;
/** Quoted code lines searched per issue. */
const MAX_CODE_LINES = 15;
/** Messages and fragments tried per issue. */
const MAX_MESSAGES = 8;
/** A literal found in more files than this is too common to point anywhere. */
const MAX_STRING_FILES = 3;

const source = isFixTarget;

function cut(ranked: RankedFile[], c: AnswerCut): RankedFile[] {
  const top = ranked[0]?.score ?? 0;
  return ranked.filter((r, i) => i < c.maxFiles && r.score > 0 && r.score >= top * c.minShare);
}

function sortRanked(scores: Map<string, RankedFile>): RankedFile[] {
  return [...scores.values()].sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The text the lexical answer ranks with: the title (the reporter's own summary, so its words count twice), then the issue without its environment dump. */
export function lexicalQuery(issue: string): string {
  const title = issue.trimStart().split(/\r?\n/, 1)[0];
  return `${title}\n${stripEnvironment(issue)}`;
}

// Lexical ranker: "BM25 of the issue over files and over objects aggregated per file" (each normalised by its best, then
// added, with the path's words as a small third field; code files only: prose and configuration match an issue's words
// without being where code changes).
export function lexicalRanking(files: FileSource, issue: string, retriever: FileRetriever = 'bm25'): RankedFile[] {
  const query = lexicalQuery(issue);
  const byFile = files.fileScores(query);
  const byObject = retriever === 'dense' ? new Map<string, number>() : files.objectScores(query);
  // Dense similarity of objects, where the index has vectors: issues are prose, where it was measured to help.
  const byDense = retriever !== 'bm25' ? files.denseScores?.(query) ?? new Map<string, number>() : new Map<string, number>();
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
  const maxD = Math.max(0, ...byDense.values());
  for (const [p, s] of byDense) add(p, s / maxD, `object dense ${s.toFixed(2)}`);
  // A file's path is a short field of it: its words shared with the issue add a quarter, normalised the same way.
  const byPath = pathRanking(files, query);
  const maxP = byPath[0]?.score ?? 0;
  for (const r of byPath) add(r.path, (PATH_FIELD * r.score) / maxP, `path words ${r.score.toFixed(2)}`);
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

// Structural ranker: "files that define the identifiers, stack-trace frames, error strings and paths that the issue
// mentions, resolved through the index". Frames and written paths may name any file; every other signal only code files.
export function structuralRanking(files: FileSource, issue: string, signals: IssueSignals = issueSignals(stripEnvironment(issue))): RankedFile[] {
  const all = files.paths();
  const indexed = new Set(all);
  const tails = suffixIndex(all);
  const title = issue.trimStart().split(/\r?\n/, 1)[0];
  const scores = new Map<string, RankedFile>();
  const credited = new Set<string>();
  // One piece of evidence counts once per file (`module x.y` and `defines x.y` are the same evidence).
  const add = (path: string | null, s: number, why: string, key = why, anyFile = false) => {
    if (!path || !source(path) || s <= 0) return;
    if (!anyFile && files.language(path) === 'text') return;
    if (credited.has(`${path}\u0000${key}`)) return;
    credited.add(`${path}\u0000${key}`);
    const r = scores.get(path) ?? { path, score: 0, reasons: [] };
    r.score += s;
    r.reasons.push(why);
    scores.set(path, r);
  };
  // How specific a name is: the fewer source files mention it, the more it says (`DataArray` is everywhere in xarray).
  const specificity = (name: string) => 1 / (1 + Math.log(1 + files.mentions(name).filter(source).length / 3));

  // Stack frames: every repository file a frame runs through; the innermost such frame most.
  const frameFiles = signals.frames
    .map((f) => ({ f, path: resolveMention(f.path, tails, f.path.startsWith('/') || /^[A-Za-z]:/.test(f.path) ? 2 : 1) }))
    .filter((x) => x.path !== null && source(x.path));
  frameFiles.forEach(({ f, path }, i) => {
    add(path, 2, `frame ${f.path}:${f.line}`, 'frame', true);
    if (i === frameFiles.length - 1) add(path, 1, 'innermost frame', 'innermost', true); // Python writes the innermost frame last
    if (f.func && files.definitions(f.func).some((d) => d.path === path)) add(path, 0.5, `frame function ${f.func}`, `defines ${f.func}`, true);
  });

  // Paths written in the issue: with a folder they name a file; a bare file name may be the reporter's own.
  for (const p of signals.paths) add(resolveMention(p, tails, 1), p.includes('/') ? 2.5 : 1, `path ${p}`, 'path', true);

  // Dotted names: the module they name, else the objects whose qualified name they are.
  for (const d of signals.dotted.slice(0, 30)) {
    const mod = moduleFiles(d, indexed, tails);
    if (mod) {
      add(mod, 1.5 * specificity(d.split('.').at(-1)!), `module ${d}`, `module ${d}`);
      continue;
    }
    const defs = [...new Set(files.definitions(d).map((x) => x.path).filter(source))];
    if (defs.length > 0 && defs.length <= MAX_DEFINING_FILES) {
      for (const p of defs) add(p, (1.5 * specificity(d.split('.').at(-1)!)) / defs.length, `defines ${d}`);
    }
  }

  // Identifiers the index defines in few source files, by how specific they are; plain words and package names count little.
  for (const [id, { count, shaped }] of signals.identifiers) {
    if (id.length < 3) continue;
    const defs = files.definitions(id).filter((x) => source(x.path));
    const paths = [...new Set(defs.map((x) => x.path))];
    if (paths.length === 0 || paths.length > MAX_DEFINING_FILES) continue;
    const w = ((shaped ? 1 : PLAIN_WORD) * (1 + 0.5 * Math.log(count)) * specificity(id)) / paths.length;
    for (const p of paths) {
      const kind = Math.max(...defs.filter((x) => x.path === p).map((x) => (x.kind === 'module' && /(^|\/)__init__\.py$/.test(p) ? PACKAGE : KIND_WEIGHT[x.kind] ?? 0.5)));
      add(p, w * kind, `defines ${id}`);
    }
  }

  // Rare code names the issue writes (`rst_prolog`, `autodoc_type_aliases`): the few source files that hold them.
  for (const [id, { shaped }] of signals.identifiers) {
    if (!shaped || id.length < 5 || !/[_a-z][A-Z]|_/.test(id)) continue;
    const holders = files.mentions(id).filter(source);
    if (holders.length === 0 || holders.length > MAX_MENTION_FILES) continue;
    for (const p of holders) add(p, 1 / holders.length, `mentions ${id}`);
  }

  // Flags and hyphenated names (`--ignore-paths`, `invalid-name`): where they are declared, as string literals; those
  // of the title are the subject, others often belong to the reproduction's commands.
  for (const symbol of signals.symbols.slice(0, MAX_SYMBOLS)) {
    const hits = [...new Set([...files.strings(`"${symbol}"`, 50), ...files.strings(`'${symbol}'`, 50)].map((h) => h.path))].filter(source);
    const w = title.includes(symbol) ? 1.5 : 0.5;
    if (hits.length > 0 && hits.length <= MAX_STRING_FILES) for (const p of hits) add(p, w / hits.length, `literal ${symbol}`);
  }

  // Code quoted from the repository: a source line of the issue found verbatim in a few code files.
  for (const line of signals.codeLines.slice(0, MAX_CODE_LINES)) {
    const hits = [...new Set(files.strings(line, 50).map((h) => h.path))].filter((p) => source(p) && files.language(p) !== 'text');
    if (hits.length > 0 && hits.length <= MAX_STRING_FILES) for (const p of hits) add(p, 2 / hits.length, `code "${line.slice(0, 40)}"`);
  }

  // Messages: the longest fragment found literally in a few source files.
  for (const message of signals.messages.slice(0, MAX_MESSAGES)) {
    for (const fragment of messageFragments(message)) {
      const hits = [...new Set(files.strings(fragment, 200).map((h) => h.path))].filter(source);
      if (hits.length === 0) continue;
      if (hits.length <= MAX_STRING_FILES) for (const p of hits) add(p, 2.5 / hits.length, `string "${fragment.slice(0, 40)}"`, 'message');
      break;
    }
  }
  return sortRanked(scores);
}

// Path ranker: paths whose words the issue uses, each shared word weighted by its rarity among paths (the third answer
// of an issue without a title line).
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

// Title ranker (the third answer): the issue's first line is the reporter's own summary of it; BM25 of that line alone
// over files and objects, asked only when the lexical and structural answers share nothing.
export function titleRanking(files: FileSource, issue: string, retriever: FileRetriever = 'bm25'): RankedFile[] {
  const title = issueTitle(issue);
  return title ? lexicalRanking(files, title, retriever) : pathRanking(files, issue);
}

function issueTitle(issue: string): string {
  return issue.trimStart().split(/\r?\n/, 1)[0].trim();
}

/** The queries the offline answers may embed (for a model that embeds asynchronously). */
export function offlineDenseQueries(issue: string): string[] {
  const title = issueTitle(issue);
  return title ? [lexicalQuery(issue), lexicalQuery(title)] : [lexicalQuery(issue)];
}

/** The offline localizer as an answer source: lexical, structural, then (only when those share nothing) the title's. */
export function offlineAnswerSource(files: FileSource, options: OfflineOptions = {}): AnswerSource & { rankings(issue: string): RankedFile[][] } {
  const cuts = options.cuts ?? DEFAULT_CUTS;
  const memo = new Map<string, RankedFile[][]>();
  const retriever = options.retriever ?? 'bm25';
  const title = (f: FileSource, issue: string) => titleRanking(f, issue, retriever);
  const rankers = options.structural === false
    ? [(f: FileSource, issue: string) => lexicalRanking(f, issue, retriever), title, pathRanking]
    : [(f: FileSource, issue: string) => lexicalRanking(f, issue, retriever), structuralRanking, title];
  const answerCuts = options.structural === false ? [cuts[0], cuts[2], cuts[2]] : cuts;
  const ranking = (issue: string, index: number): RankedFile[] => {
    let r = memo.get(issue);
    if (!r) {
      r = [];
      memo.clear();
      memo.set(issue, r);
    }
    return (r[index] ??= rankers[index](files, issue));
  };
  return {
    name: 'offline',
    // Two rankers over the same repository agree on neighbours of the right file too: only agreement at the top counts.
    agreement: 'top',
    rankings: (issue) => rankers.map((_, i) => ranking(issue, i)),
    async answer(request, index): Promise<Answer | null> {
      if (index > 2) return null;
      return { paths: cut(ranking(request.issue, index), answerCuts[index]).map((r) => r.path) };
    },
  };
}
