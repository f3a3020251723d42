import { recentlyUsed, type RecentlyUsed } from '../recently-used.ts';
import { extractCode } from '../extract/extract-code.ts';
import { sourceLines } from '../extract/source.ts';
import { identifiers, splitIdentifier } from '../identifiers.ts';
import { languageOf, loadLanguage, type LoadedLanguage } from '../languages/registry.ts';
import type { CodeLanguage, ExtractedReference } from '../types.ts';
import { parseFrames, type Frame } from './frames.ts';
import { readProse, type ProseReading } from './prose-reading.ts';
import { readReceivers, type Receivers } from './receivers.ts';

/** What a query says in code terms: the facts the structural retriever resolves through the index. */
export interface QueryReading {
  /** The language the query was parsed as, or null when it was only lexed. */
  language: CodeLanguage | null;
  /** Import statements of the query (module, imported name, local alias). */
  imports: ExtractedReference[];
  /** Calls and inheritance in the query (name and qualifier). */
  calls: ExtractedReference[];
  /** Identifiers in order of first appearance. */
  identifiers: string[];
  /** Identifiers used outside import lines. */
  used: Set<string>;
  /** Lower-cased identifier parts of the query's code (imports excluded), weighted 0..1 by closeness to its end. */
  recentParts: Map<string, number>;
  /** Identifiers as written in the query's code (imports excluded), weighted 0..1 by the last line they are on. */
  recency: Map<string, number>;
  /** Things that look like source file paths (`pkg/mod.py`, `src/app.ts`). */
  paths: string[];
  frames: Frame[];
  /** The query read as words: token shapes, joined words, whether it is mostly prose (see `readProse`). */
  prose: ProseReading;
  /** What local receivers stand for (`x = C(...)`, `x: C`, `self` in `class D(B)`): member calls resolve through them. */
  receivers: Receivers;
}

/** Import statements of every supported language, multi-line forms included. */
export const IMPORT_STATEMENTS = new RegExp(
  [
    String.raw`^[ \t]*from[ \t]+[\w.]+[ \t]+import[ \t]*\([^)]*\)`,
    String.raw`^[ \t]*(?:from[ \t]+[\w.]+[ \t]+)?import[ \t][^\n(]*$`,
    String.raw`^[ \t]*import[\s\S]*?from[ \t]*['"][^'"\n]+['"];?`,
    String.raw`^[ \t]*(?:pub[ \t]+)?use[ \t][^;]+;`,
    String.raw`^[ \t]*import[ \t]*\([^)]*\)`,
    String.raw`^.*\brequire\(['"][^'"]+['"]\).*$`,
  ].join('|'),
  'gm',
);

const PATH = /(?:[\w.-]+\/)*[\w.-]+\.(?:py|pyi|ts|tsx|mts|cts|js|jsx|mjs|cjs|java|go|rs)\b/g;

/** Signals of each language in a code-looking query, strongest first. */
const SIGNALS: [CodeLanguage, RegExp][] = [
  ['python', /^\s*(from\s+[\w.]+\s+import\s|import\s+[\w.]+\s*(as\s+\w+)?\s*$|def\s+\w+\s*\(|class\s+\w+.*:\s*$)/m],
  ['rust', /^\s*(use\s+[\w:]+|fn\s+\w+|impl\b|pub\s+(fn|struct|enum)\b)/m],
  ['go', /^\s*(package\s+\w+\s*$|func\s+[\w(]|import\s+\(\s*$)/m],
  ['java', /^\s*(import\s+[\w.]+(\.\*)?;\s*$|package\s+[\w.]+;|public\s+(class|interface)\b)/m],
  ['typescript', /^\s*(import\s.+\sfrom\s+['"]|export\s|interface\s+\w+|const\s+\w+\s*[:=]|function\s+\w+\s*\(|let\s+\w+)/m],
];

/** The language a code-looking query is written in; null for prose. */
export function guessLanguage(text: string): CodeLanguage | null {
  for (const [lang, re] of SIGNALS) if (re.test(text)) return lang;
  return null;
}

/**
 * Lower-cased identifiers of the query's import statements that the rest of it does not use yet: what the lines at a
 * cursor are about to use (the structural reading seeds them first; BM25 keeps them among a long query's terms).
 * @example pendingImports('from shop.pricing import apply_discount, with_tax\n\ntotal = with_tax(x)') // from, shop, pricing, import, apply_discount
 */
export function pendingImports(text: string): Set<string> {
  const used = new Set(identifiers(text.replace(IMPORT_STATEMENTS, ' ')).map((x) => x.toLowerCase()));
  const out = new Set<string>();
  for (const statement of text.match(IMPORT_STATEMENTS) ?? []) {
    for (const id of identifiers(statement)) if (!used.has(id.toLowerCase())) out.add(id.toLowerCase());
  }
  return out;
}

/** A member access (`.name`): the name is an attribute of what precedes it, not a name of the scope. */
const MEMBER_ACCESS = /\.\s*[A-Za-z_$][A-Za-z0-9_$]*/g;

/**
 * Identifiers a piece of code uses outside its import statements: the names it has already used, as opposed to
 * those it only imports. `p.rotate(...)` uses `p`, not an imported `rotate`.
 * @example usedIdentifiers('from geo import rotate, scale\nq = p.rotate(1)') // q, p
 */
export function usedIdentifiers(text: string): Set<string> {
  return new Set(identifiers(text.replace(IMPORT_STATEMENTS, ' ').replace(MEMBER_ACCESS, ' ')));
}

/**
 * The line (1-based) where a file's code first uses each identifier, outside its imports, strings and comments
 * (`usedIdentifiers` of `withoutProse`, line breaks kept): the names the code above line L already used are those
 * first used before L. The prose is read over the whole file, so a string open across the cursor stays prose.
 * @example firstUses('import os\nx = 1\nos.path(x)\n', 'python').get('os') // 3
 */
export function firstUses(text: string, language: string): Map<string, number> {
  const blank = (m: string) => m.replace(/[^\n]+/g, ' ');
  const code = withoutProse(text, language).replace(IMPORT_STATEMENTS, blank).replace(MEMBER_ACCESS, blank);
  const first = new Map<string, number>();
  code.split('\n').forEach((line, i) => {
    for (const id of identifiers(line)) if (!first.has(id)) first.set(id, i + 1);
  });
  return first;
}

/** String literals (triple-quoted first, then quoted and template ones). */
const STRINGS = String.raw`"""[\s\S]*?"""|'''[\s\S]*?'''|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|` + '`(?:\\\\.|[^`\\\\])*`';
/** Languages whose comments start with `#` (the others here write line and block comments as C does). */
const HASH_COMMENTS = new Set<string>(['python', 'ruby', 'bash', 'elixir', 'r', 'perl']);
const PROSE = { hash: new RegExp(`${STRINGS}|#[^\\n]*`, 'g'), slash: new RegExp(`${STRINGS}|//[^\\n]*|/\\*[\\s\\S]*?\\*/`, 'g') };

/**
 * Code without its prose: string literals and comments blanked (line breaks kept), so a docstring's
 * `>>> from sympy import oo` or a comment naming `Pow` is not a use of them.
 */
export function withoutProse(text: string, language: string): string {
  return text.replace(HASH_COMMENTS.has(language) ? PROSE.hash : PROSE.slash, (m) => m.replace(/[^\n]+/g, ' '));
}

let loaded: Promise<Map<CodeLanguage, LoadedLanguage>> | undefined;
let ready: Map<CodeLanguage, LoadedLanguage> | undefined;
/** Grammars a query waits for: the languages `guessLanguage` names, and TSX and JavaScript. */
const FIRST: CodeLanguage[] = ['python', 'typescript', 'tsx', 'javascript', 'java', 'go', 'rust'];
/**
 * The grammars, loaded once: query reading is synchronous after this. The map
 * resolves with the first languages; another joins it once a query is read in
 * it (some take seconds to compile, so a process never waits for all), and
 * until then queries in it are lexed.
 */
export function loadQueryLanguages(): Promise<Map<CodeLanguage, LoadedLanguage>> {
  loaded ??= Promise.all(FIRST.map(async (l) => [l, await loadLanguage(l)] as const)).then((e) => (ready = new Map(e)));
  return loaded;
}

/** Starts loading a grammar a query needs into the map, for the queries after it. */
function loadLater(grammars: Map<CodeLanguage, LoadedLanguage>, language: CodeLanguage): void {
  loadLanguage(language).then((l) => grammars.set(language, l), () => {});
}

/** The grammars once `loadQueryLanguages()` has resolved; throws before. */
export function loadedQueryLanguages(): Map<CodeLanguage, LoadedLanguage> {
  if (!ready) throw new Error('query grammars are not loaded: await loadQueryLanguages() first');
  return ready;
}

/**
 * Reads a query as code: parses it with the language's grammar when it looks
 * like code (tree-sitter recovers from the fragments editors send), and lexes
 * it otherwise, collecting imports, calls, identifiers, paths and stack frames.
 * `path` is where the query comes from (the file around the cursor), when known.
 */
export function readQuery(text: string, grammars: Map<CodeLanguage, LoadedLanguage>, path?: string): QueryReading {
  let memo = readings.get(grammars);
  if (!memo) readings.set(grammars, (memo = recentlyUsed(READINGS_KEPT)));
  const key = `${path ?? ''}\0${text}`;
  const held = memo.get(key);
  if (held) return held;
  const reading = readNow(text, grammars, path);
  // A reading made before its grammar loaded is only lexed: the next one parses.
  if (reading.language === null || grammars.has(reading.language)) memo.set(key, reading);
  return reading;
}

/**
 * Readings of recent queries, per set of grammars: a reading depends on the text, the path and the grammar alone, and
 * the same lines are asked about again at every index generation (parsing them was ~1.5 ms of a code query on SymPy).
 * Callers never change a reading.
 */
const READINGS_KEPT = 512;
const readings = new WeakMap<Map<CodeLanguage, LoadedLanguage>, RecentlyUsed<string, QueryReading>>();

function readNow(text: string, grammars: Map<CodeLanguage, LoadedLanguage>, path?: string): QueryReading {
  const hinted = path ? languageOf(path) : 'text';
  const language = hinted !== 'text' ? hinted : guessLanguage(text);
  let imports: ExtractedReference[] = [];
  let calls: ExtractedReference[] = [];
  const src = sourceLines(text);
  const grammar = language ? grammars.get(language) : undefined;
  if (language && !grammar) loadLater(grammars, language);
  if (language && grammar) {
    const code = extractCode(path ?? `query.${language}`, src, grammar);
    if (code) {
      imports = code.references.filter((r) => r.kind === 'import');
      calls = code.references.filter((r) => r.kind !== 'import');
    }
  }
  const body = text.replace(IMPORT_STATEMENTS, ' ');
  const used = usedIdentifiers(text);
  const recentParts = new Map<string, number>();
  const recency = new Map<string, number>();
  const bodyLines = body.split('\n');
  bodyLines.forEach((line, i) => {
    const weight = (i + 1) / bodyLines.length;
    for (const id of identifiers(line)) {
      recency.set(id, weight);
      for (const p of splitIdentifier(id)) if (p.length > 2) recentParts.set(p, Math.max(recentParts.get(p) ?? 0, weight));
    }
  });
  return {
    language,
    imports,
    calls,
    identifiers: [...new Set(identifiers(text))],
    used,
    recentParts,
    recency,
    paths: [...new Set(text.match(PATH) ?? [])],
    frames: parseFrames(text),
    prose: readProse(text),
    receivers: readReceivers(body),
  };
}
