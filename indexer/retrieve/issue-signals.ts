/**
 * What an issue says about code, read from its text: stack-trace frames, paths,
 * code identifiers and dotted names, and quoted messages. Pure.
 */

/** One frame of a stack trace. */
export interface Frame {
  path: string;
  line: number;
  /** The function named by the frame, when it names one. */
  func: string | null;
  /** Position among the issue's frames (0 = first written). */
  order: number;
}

export interface IssueSignals {
  frames: Frame[];
  /** File paths written in the issue (frames excluded), first mention first. */
  paths: string[];
  /** Identifiers written as code (in code spans, or shaped like code in prose): how often, and whether shaped like code (`snake_case`, `camelCase`, a call...). */
  identifiers: Map<string, { count: number; shaped: boolean }>;
  /** Source-looking lines of the issue's code (and of its tracebacks), trimmed: repository code quoted verbatim is found literally. */
  codeLines: string[];
  /** Dotted names (`Session.send`, `requests.sessions`), first mention first. */
  dotted: string[];
  /** Messages quoted in the issue or raised in its tracebacks. */
  messages: string[];
  /** Exception class names raised in tracebacks (`ValueError`), first first. */
  exceptions: string[];
  /** Command-line flags and hyphenated names (`--ignore-paths`, `invalid-name`): found as literals where they are declared. */
  symbols: string[];
}

const EXT = '(?:py|pyi|pyx|js|jsx|mjs|cjs|ts|tsx|mts|cts|java|go|rs|rb|php|c|h|cc|cpp|hpp|cs|kt|scala|swift|json|ya?ml|toml|cfg|ini|html|css|scss|jinja2?|txt)';
const PY_FRAME = /File "([^"\n]+)", line (\d+)(?:, in ([\w<>.$]+))?/g;
const JS_FRAME = /\bat (?:(?:async |new )?([\w$.<>[\]]+) )?\(?((?:[A-Za-z]:)?[^\s()'"]+?\.[A-Za-z]{1,5}):(\d+)(?::\d+)?\)?/g;
const PYTEST_FRAME = new RegExp(`^\\s*((?:[\\w.\\-]+/)*[\\w.\\-]+\\.${EXT}):(\\d+):(?: in ([\\w<>.$]+))?`, 'gm');
const PATH_MENTION = new RegExp(`(?<![\\w./\\-])((?:[\\w.\\-@]+/)*[\\w\\-@][\\w.\\-@]*\\.${EXT})(?![\\w/])`, 'g');
const FENCE = /```[^\n]*\n([\s\S]*?)(?:```|$)/g;
const INLINE = /`([^`\n]+)`/g;
const IDENT = /[A-Za-z_$][A-Za-z0-9_$]*/g;
const DOTTED = /\b[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+\b/g;
const EXCEPTION_LINE = /^\s*(?:[\w.]+\.)?([A-Z]\w*(?:Error|Exception|Warning|Exit|Interrupt|Failure|Fault))(?::[ \t]*(.+))?$/gm;
const QUOTED = /(?<![\w\\])"([^"\n]{8,200})"(?!\w)|(?<![\w\\])'([^'\n]{8,200})'(?!\w)|“([^”\n]{8,200})”/g;
const GITHUB_FILE = /github\.com\/[\w.-]+\/[\w.-]+\/(?:blob|tree|edit)\/[^/\s]+\/([^\s#?)\]'"]+)/g;

/** Code-shaped identifiers in prose: snake_case, camelCase, PascalCase with an inner capital, dunder names, or a call. */
function codeShaped(id: string, after: string): boolean {
  return /_/.test(id.replace(/^_+|_+$/g, '')) || /^__\w+__$/.test(id) || /[a-z][A-Z]/.test(id) || /^[A-Z][a-z0-9]+[A-Z]/.test(id) || after.startsWith('(');
}

/** The parts of an issue written as code: fenced blocks, inline spans, indented blocks. */
export function codeParts(issue: string): string[] {
  const out: string[] = [];
  for (const m of issue.matchAll(FENCE)) out.push(m[1]);
  const noFences = issue.replace(FENCE, '');
  for (const m of noFences.matchAll(INLINE)) out.push(m[1]);
  const indented = noFences.split(/\r?\n/).filter((l) => /^(?: {4}|\t)\S/.test(l));
  if (indented.length) out.push(indented.join('\n'));
  return out;
}

/**
 * Reads what an issue says about code.
 * @example issueSignals('File "/x/requests/models.py", line 12, in send\n`Session.send` fails').frames[0].path // '/x/requests/models.py'
 */
export function issueSignals(issue: string): IssueSignals {
  const frames: Frame[] = [];
  const addFrame = (p: string, line: string, func: string | undefined) => {
    const path = p.replace(/\\/g, '/').replace(/^file:\/\//, '');
    if (!frames.some((f) => f.path === path && f.line === Number(line))) frames.push({ path, line: Number(line), func: func ?? null, order: frames.length });
  };
  for (const m of issue.matchAll(PY_FRAME)) addFrame(m[1], m[2], m[3]);
  for (const m of issue.matchAll(JS_FRAME)) if (!/^https?:/.test(m[2])) addFrame(m[2], m[3], m[1]);
  for (const m of issue.matchAll(PYTEST_FRAME)) addFrame(m[1], m[2], m[3]);

  const framePaths = new Set(frames.map((f) => f.path));
  const paths: string[] = [];
  for (const m of issue.matchAll(GITHUB_FILE)) {
    const p = decodeURIComponent(m[1]).replace(/[.,;:]+$/, '');
    if (!paths.includes(p)) paths.push(p);
  }
  for (const m of issue.replace(/https?:\/\/\S+/g, ' ').matchAll(PATH_MENTION)) {
    const p = m[1].replace(/^\.\//, '');
    if (/^https?:|^www\./.test(p) || framePaths.has(p) || paths.includes(p)) continue;
    // `e.g.py` style accidents need a letter before the extension's dot
    if (!/[A-Za-z0-9_]\.[A-Za-z]+$/.test(p)) continue;
    paths.push(p);
  }

  const identifiersFound = new Map<string, { count: number; shaped: boolean }>();
  const addId = (id: string, shaped: boolean) => {
    const cur = identifiersFound.get(id);
    if (cur) {
      cur.count++;
      cur.shaped ||= shaped;
    } else identifiersFound.set(id, { count: 1, shaped });
  };
  const code = codeParts(issue);
  // Paths in code (traceback frames, commands) are not identifiers: `site-packages/netkit/client.py` names no `client`.
  const unpathed = (t: string) => t.replace(/(?:[\w.\-@~]*\/)+[\w.\-@]+|\b[\w\-]+\.(?:py|js|ts|tsx|jsx|go|rs|java|rb)\b/g, ' ');
  for (const part of code.map(unpathed)) {
    for (const m of part.matchAll(IDENT)) addId(m[0], codeShaped(m[0], part.charAt(m.index! + m[0].length)) || /^[.(]|^\s*=/.test(part.slice(m.index! + m[0].length)) || part.charAt(m.index! - 1) === '.');
  }
  const prose = issue.replace(FENCE, ' ').replace(INLINE, ' ').replace(/https?:\/\/\S+/g, ' ');
  for (const m of prose.matchAll(IDENT)) {
    const after = prose.slice(m.index! + m[0].length, m.index! + m[0].length + 1);
    if (codeShaped(m[0], after)) addId(m[0], true);
  }
  for (const f of frames) if (f.func) addId(f.func.split('.').at(-1)!, true);

  const codeLines: string[] = [];
  for (const part of code) {
    for (const raw of part.split(/\r?\n/)) {
      const line = raw.trim();
      if (line.length < 16 || line.length > 200 || codeLines.includes(line)) continue;
      if (/^(>>>|\.\.\.|\$|#|E\s|>\s|File "|Traceback|at\s)/.test(line) || !/[(=:\[]/.test(line) || /^[\w.]+Error\b/.test(line)) continue;
      codeLines.push(line);
    }
  }

  const dotted: string[] = [];
  const dottedSource = [...code, prose.replace(/https?:\/\/\S+/g, ' ')].join('\n');
  for (const m of dottedSource.matchAll(DOTTED)) {
    const d = m[0];
    if (/\.(com|org|net|io|html?|py|js|ts|md|rst|txt)$/.test(d) || dotted.includes(d)) continue;
    dotted.push(d);
  }

  const messages: string[] = [];
  const exceptions: string[] = [];
  const addMessage = (m: string | undefined) => {
    const t = m?.trim();
    if (t && specific(t) && !messages.includes(t)) messages.push(t);
  };
  for (const text of [issue, ...code.filter((c) => !c.includes('\n'))]) {
    for (const m of text.matchAll(EXCEPTION_LINE)) {
      if (!exceptions.includes(m[1])) exceptions.push(m[1]);
      addMessage(m[2]);
    }
  }
  // An inline span written as an error report: `InvalidURL: URL has an invalid label.`
  for (const c of code.filter((c) => !c.includes('\n'))) {
    const m = /^\s*(?:[\w.]+\.)?([A-Z][A-Za-z0-9]+):\s+(.+)$/.exec(c);
    if (!m) continue;
    if (!exceptions.includes(m[1])) exceptions.push(m[1]);
    addMessage(m[2]);
  }
  for (const m of issue.matchAll(QUOTED)) addMessage(m[1] ?? m[2] ?? m[3]);
  const symbols: string[] = [];
  const symbolSource = [...code, prose].join('\n').replace(/https?:\/\/\S+/g, ' ');
  for (const m of symbolSource.matchAll(/(?<![\w./-])(--?[a-z][a-z0-9]*(?:-[a-z0-9]+)*|[a-z][a-z0-9]*(?:-[a-z0-9]+)+)(?![\w/-])/g)) {
    const s = m[1];
    if (s.length < 6 || symbols.includes(s) || /^-[a-z]$/.test(s) || /^\d/.test(s.replace(/^-+/, ''))) continue;
    // hyphenated prose words (`built-in`, `well-known`) are not names: keep flags, and hyphenated names of 3+ parts or in code
    if (!s.startsWith('-') && s.split('-').length < 3 && !code.some((c) => c.includes(s))) continue;
    symbols.push(s);
  }
  return { frames, paths, identifiers: identifiersFound, codeLines, dotted, messages, exceptions, symbols };
}

// A line of an environment report: `numpy: 1.18.1`, `- Python version: 3.9.0`, `pandas==1.0.3`, `OS: Linux`,
// `scipy      : None` (keys with values that are versions, or typical report keys).
const ENVIRONMENT_LINE = /^(?!\s*(?:assert|if|elif|while|return|yield|and|or|not|print)\b)\s*(?:[-*]\s*)?[\w.-]+(?: [\w.-]+){0,3}\s*(?::|==|\s{2,})\s*(?:v?\d+(?:\.\d+)+\S*|None|installed|not installed)(?:\s.*)?$|^\s*(?:[-*]\s*)?(?:OS|os|platform|Platform|python|Python|machine|processor|byteorder|LC_ALL|LANG|LOCALE|libhdf5|libnetcdf|commit|python-bits|OS-release)\s*:.*$/;

/**
 * The issue without its environment report (version lists such as `xr.show_versions()`
 * or `pip freeze` output), whose package names would otherwise point at the
 * code that prints versions.
 */
export function stripEnvironment(issue: string): string {
  return issue
    .split(/\r?\n/)
    .filter((l) => !ENVIRONMENT_LINE.test(l))
    .join('\n');
}

/** Text specific enough for a literal search: three words and 12 characters, or 16 characters. */
export function specific(text: string): boolean {
  const t = text.trim();
  return /[A-Za-z]{3}/.test(t) && (t.length >= 16 || (t.length >= 12 && t.split(/\s+/).length >= 3));
}

/**
 * Fragments of a message worth a literal search: the message whole, then its
 * longest stretches between quoted or formatted values (where source holds
 * `%s`, `{}` or a variable), longest first; at least three words or 16 characters.
 * @example messageFragments("Invalid URL 'http://': No host supplied") // ["Invalid URL 'http://': No host supplied", 'No host supplied']
 */
export function messageFragments(message: string): string[] {
  const out = specific(message) ? [message.trim()] : [];
  const pieces = message
    .split(/'[^']*'|"[^"]*"|`[^`]*`|<[^>]*>|\b0x[0-9a-f]+\b|\d+(?:\.\d+)?|[:()[\]{}=,]/i)
    .map((p) => p.trim().replace(/[.!]+$/, ''))
    .filter(specific);
  for (const p of pieces.sort((a, b) => b.length - a.length)) if (!out.includes(p)) out.push(p);
  return out;
}
