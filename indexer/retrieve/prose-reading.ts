import { recentlyUsed } from '../recently-used.ts';
import { isDocPath, isTestPath } from '../paths.ts';

/**
 * How a token of a question is written: `identifier` when its shape says code (snake_case, camelCase, a dotted
 * path, `backticked`, called with parentheses, `name=`), `name` for a capitalised word inside a sentence (a class,
 * a product), `word` for a plain word. A plain word may happen to be an identifier too (`route`, `files`, `parse`),
 * but the question does not say so.
 */
export type TermShape = 'identifier' | 'name' | 'word';

export interface ProseTerm {
  text: string;
  shape: TermShape;
}

/** What a query says in words: the shapes of its tokens, the identifiers its words may spell, what it asks for. */
export interface ProseReading {
  // Readings are shared between callers (see `readProse`): read-only.
  /** Content tokens of the prose lines (stop words left out), in order, each with its shape. */
  terms: ProseTerm[];
  /** Identifiers the query writes as code: shaped tokens of prose lines and every identifier of its code lines. */
  shaped: Set<string>;
  /** Adjacent plain words of one sentence, as written: `parse expr` -> ['parse', 'expr']. */
  pairs: [string, string][];
  /** The pairs as identifiers would spell them: `parse_expr`, `parseExpr`, `ParseExpr`, `PARSE_EXPR` (`joinedForms`). */
  joined: string[];
  /** Share of words (plain or capitalised) among the query's content tokens (code lines' identifiers included). */
  proseShare: number;
  /** Content words (plain or capitalised) of its prose lines: how much the query says in words. */
  words: number;
  /** Most of the query is plain words: retrieval is led by the words (BM25), not by structure. */
  mostlyProse: boolean;
  /** It has no code, or its sentences speak about code marked as pasted (a fence, a prompt, a traceback). */
  question: boolean;
  /** The query asks for tests, examples or documentation (a word or a path): those are not down-ranked. */
  asks: { tests: boolean; docs: boolean };
  /** Why it asks: the asking words as written (`test`, `pytest`, `docs`), and whether a path or a name asks too. */
  asking: { tests: Asking; docs: Asking };
}

export interface Asking {
  words: string[];
  /** A path (`tests/test_x.py`) or an identifier (`test_parse`) asks, whatever the words are. */
  other: boolean;
}

/**
 * What a query asks for in one repository: a word that names one of the repository's own modules (`pytest` on
 * pytest's repository, `fixtures` beside `_pytest/fixtures.py`) names the product there, not its tests or docs.
 * @example asksIn(readProse('pytest --collect-only shortcut'), (w) => w === 'pytest').tests // false
 */
export function asksIn(r: ProseReading, namesModule: (word: string) => boolean): { tests: boolean; docs: boolean } {
  const asks = (a: Asking) => a.other || a.words.some((w) => !namesModule(w));
  return { tests: asks(r.asking.tests), docs: asks(r.asking.docs) };
}

/** Function words of English questions: never content, never joined. */
export const STOP_WORDS = new Set(
  ('a about after all also an and any are as at be been before being but by can could did do does doing done during each ' +
    'either else even ever every for from get gets getting got had has have having he her here him his how i if in into is ' +
    'isn it its just like make makes many may me might more most much must my no nor not now of off on once one only or ' +
    'other our out over own same she should so some still such than that the their them then there these they this those ' +
    'though through to too under until up upon us use used uses using very via was way we were what whatever when where ' +
    'whether which while who whom whose why will with within without would yet you your doesn don didn isn wasn aren weren won couldn shouldn wouldn hasn haven').split(' '),
);

/** Lines that are code, not prose: inside a fence, a REPL or shell prompt, a traceback line, or dense with code punctuation. */
const PROMPT = /^\s*(>>>|\.\.\.\s|\$\s|In \[\d+\]:|Traceback \(|File "|at\s+\S+\s*\(|#include|import\s|from\s+\S+\s+import\s)/;
/** A statement's opening keyword, lower-case as code writes it. */
const KEYWORD = /^\s*(def|class|return|const|let|var|function|fn|func|pub|if|elif|else|for|while|try|except|catch|raise|throw|assert|yield|await|export|package|@\w+)\b/;
/** Code punctuation: a call's opening bracket (a parenthesis after a space opens an aside of a sentence), braces, `=`... */
const CODE_PUNCTUATION = /[\w$]\(|[{}[\];=<>]|->|=>|::/g;
const TICKED = /`[^`\n]*`/g;

function isCodeLine(line: string): boolean {
  if (PROMPT.test(line)) return true;
  // A ticked span inside a sentence is part of the sentence, whatever punctuation it holds.
  const bare = line.replace(TICKED, ' ');
  const punct = bare.match(CODE_PUNCTUATION)?.length ?? 0;
  if (KEYWORD.test(bare) && (punct > 0 || /[:{]\s*$/.test(bare))) return true;
  // A sentence has a bracket or two among many words; a line of code has one for every other name or more.
  const names = bare.match(/[A-Za-z_$][\w$]*/g)?.length ?? 0;
  return punct >= 2 && punct * 2 >= names;
}

/** The query's lines, split into prose and code (fenced blocks and code-looking lines). */
export function splitProse(text: string): { prose: string[]; code: string[] } {
  const prose: string[] = [];
  const code: string[] = [];
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced || isCodeLine(line)) code.push(line);
    else prose.push(line);
  }
  return { prose, code };
}

const TOKEN = /`[^`\n]+`|[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:\(|=(?!=))?|[.!?](?=\s|$)/g;
const IDENT = /[A-Za-z_$][\w$]*/g;

/** The shape of one bare token (no backticks, no trailing `(`). */
export function shapeOf(token: string, sentenceStart: boolean): TermShape {
  if (/[_$]/.test(token.replace(/^_+|_+$/g, '')) || /[a-z0-9][A-Z]/.test(token) || /[A-Z]{2,}[a-z]/.test(token)) return 'identifier';
  if (/^[A-Z][a-z]+$/.test(token) && !sentenceStart) return 'name';
  return 'word';
}

/** Joined forms of two plain words as an identifier would spell them. */
export function joinedForms(a: string, b: string): string[] {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  const cap = (s: string) => s[0].toUpperCase() + s.slice(1);
  return [`${x}_${y}`, `${x}${cap(y)}`, `${cap(x)}${cap(y)}`, `${x.toUpperCase()}_${y.toUpperCase()}`];
}

const ASKS_TESTS = /\b(tests?|testing|unit ?tests?|spec|specs|fixtures?|pytest|conftest)\b/gi;
const TEST_NAME = /^(test_|Test[A-Z_])|_test$|[a-z]Tests?$/;
const ASKS_DOCS = /\b(docs?|documentation|docstrings?|readme|examples?|tutorials?|guide)\b/gi;
/** Content words that say something about pasted code: more than a comment line holds (a sentence or two). */
export const SENTENCE_WORDS = 8;
/** Code marked as pasted into a text: a fence, a REPL prompt, a traceback. */
const PASTED = /^\s*(?:```|~~~|>>>\s|Traceback \(|File ")/m;
/** Phrases with an asking word that ask for nothing: `for example`, `e.g.`. */
const NOT_ASKING = /\bfor (?:an? )?example\b|\be\.g\./gi;

/**
 * Reads a query as words. Tokens of prose lines are shaped (see `TermShape`); every identifier of a code line counts
 * as shaped; adjacent plain words of one sentence are tried joined. A query is mostly prose when more than half of
 * its content tokens are words (plain or capitalised), not identifiers.
 * @example readProse('how does ripgrep detect binary files').joined // [..., 'detect_binary', 'detectBinary', ...]
 */
export function readProse(text: string): ProseReading {
  let r = recent.get(text);
  if (!r) recent.set(text, (r = read(text)));
  return r;
}

/** Every retriever of a fused query reads it (structure, BM25, fusion): the last few readings are kept. */
const RECENT = 16;
const recent = recentlyUsed<string, ProseReading>(RECENT);

function read(text: string): ProseReading {
  const { prose, code } = splitProse(text.replace(URL, ' '));
  const terms: ProseTerm[] = [];
  const shaped = new Set<string>();
  const joined = new Set<string>();
  const pairs: [string, string][] = [];
  for (const line of prose) {
    let sentenceStart = true;
    // The previous plain word and where it ended: a compound is two plain words with only blanks between them.
    let previous: { text: string; end: number } | null = null;
    for (const m of line.replace(CONTRACTION, '$1').matchAll(TOKEN)) {
      const raw = m[0];
      const end = m.index + raw.length;
      if (/^[.!?]$/.test(raw)) {
        sentenceStart = true;
        previous = null;
        continue;
      }
      const ticked = raw.startsWith('`');
      const called = !ticked && /[(=]$/.test(raw);
      const bare = ticked ? raw.slice(1, -1).trim() : raw.replace(/[(=]$/, '');
      const parts = bare.match(IDENT) ?? [];
      const dotted = !ticked && parts.length > 1;
      const atStart = sentenceStart || sentenceStartAt(line, m.index);
      sentenceStart = false;
      if (dotted && parts.every((p) => p.length === 1)) {
        previous = null; // e.g., i.e.
        continue;
      }
      if (ticked || called || dotted) {
        if (dotted || ticked) shaped.add(bare);
        for (const p of parts) {
          shaped.add(p);
          if (!STOP_WORDS.has(p.toLowerCase())) terms.push({ text: p, shape: 'identifier' });
        }
        previous = null;
        continue;
      }
      if (STOP_WORDS.has(bare.toLowerCase())) {
        previous = null;
        continue;
      }
      const shape = shapeOf(bare, atStart);
      terms.push({ text: bare, shape });
      if (shape === 'identifier') {
        shaped.add(bare);
        previous = null;
        continue;
      }
      if (previous && /^[ \t]+$/.test(line.slice(previous.end, m.index)) && previous.text.length > 1 && bare.length > 1) {
        pairs.push([previous.text, bare]);
        for (const j of joinedForms(previous.text, bare)) joined.add(j);
      }
      previous = { text: bare, end };
    }
  }
  const proseShaped = new Set(shaped);
  let codeTokens = 0;
  for (const line of code) {
    for (const id of line.match(IDENT) ?? []) {
      if (STOP_WORDS.has(id.toLowerCase())) continue;
      codeTokens++;
      shaped.add(id);
    }
  }
  // Capitalised words inside sentences are prose too (Sphinx, Python, GitHub), as often as they are classes.
  const words = terms.filter((t) => t.shape !== 'identifier').length;
  const content = terms.length + codeTokens;
  const proseShare = content ? words / content : 0;
  // What a question asks for is said in its sentences: code pasted beside them, tracebacks and URLs are the
  // reporter's own material (a reproduction written as a test, a link to a docs page), and `for example` is a turn
  // of phrase. Code that is not marked as pasted (the lines at a cursor, comments and all) is what is asked about.
  const question = code.length === 0 || (words >= SENTENCE_WORDS && PASTED.test(text));
  const said = (question ? prose.join('\n') : text).replace(NOT_ASKING, ' ');
  const paths = said.match(PATH_LIKE) ?? [];
  const tests: Asking = { words: lowerSet(said.match(ASKS_TESTS)), other: paths.some(isTestPath) || [...(question ? proseShaped : shaped)].some((id) => TEST_NAME.test(id)) };
  const docs: Asking = { words: lowerSet(said.match(ASKS_DOCS)), other: paths.some((p) => isDocPath(p) && !p.endsWith('.txt')) };
  return {
    terms,
    shaped,
    pairs,
    joined: [...joined],
    proseShare,
    words,
    mostlyProse: proseShare > 0.5,
    question,
    asks: { tests: tests.other || tests.words.length > 0, docs: docs.other || docs.words.length > 0 },
    asking: { tests, docs },
  };
}

/** A capitalised word opens a sentence when only blanks, quotes or list marks stand before it on its line. */
const sentenceStartAt = (line: string, index: number): boolean => /^[\s>*#\-+"'(\[\d.)]*$/.test(line.slice(0, index));

const URL = /\b[a-z]+:\/\/\S+/gi;
const CONTRACTION = /([A-Za-z])'(?:t|s|re|ve|ll|d|m)\b/g;
const PATH_LIKE = /(?:[\w.-]+\/)+[\w.-]+/g;
const lowerSet = (words: readonly string[] | null): string[] => [...new Set((words ?? []).map((w) => w.toLowerCase()))];
