/**
 * Parses a candidate program (or a repository file) with the registry's
 * grammar and collects its facts. A candidate may be a whole file or a single
 * function or method: Python text is dedented; TypeScript/JavaScript text is
 * also read inside a class body, and the reading with fewer syntax errors is
 * kept (a method alone does not parse at the top level).
 */
import type { SyntaxNode as Node, SyntaxTree as Tree } from '../../indexer/types.ts';
import { loadLanguage, type LoadedLanguage } from '../../indexer/languages/registry.ts';
import { parseBudget } from '../../indexer/extract/parse-budget.ts';
import { analyzePython, type AnalyzeContext } from './analyze-python.ts';
import { analyzeScript } from './analyze-script.ts';
import { emptyFacts, type ProgramFacts } from './facts.ts';
import type { ArbitrateLanguage } from './types.ts';

/** Errors listed per program; the count is exact. */
const MAX_LISTED_ERRORS = 5;
const CLASS_OPEN = 'class __Candidate__ {\n';

export interface AnalyzeOptions {
  /** TS/JS: read the text as class members first (the candidate replaces a method). */
  preferClassBody?: boolean;
  /** A whole repository file: read as it is. */
  asFile?: boolean;
}

/** Removes the indentation every non-blank line shares (textwrap.dedent), so a method copied from a class parses alone. */
export function dedent(text: string): string {
  const lines = text.split('\n');
  let common: string | null = null;
  for (const l of lines) {
    if (!l.trim()) continue;
    const indent = l.match(/^[ \t]*/)![0];
    if (common === null) common = indent;
    else {
      let i = 0;
      while (i < common.length && i < indent.length && common[i] === indent[i]) i++;
      common = common.slice(0, i);
    }
    if (common === '') return text;
  }
  return common ? lines.map((l) => (l.startsWith(common!) ? l.slice(common!.length) : l.trimStart())).join('\n') : text;
}

/** The facts of one program. Never throws on bad input: syntax errors are facts too. */
export async function analyzeProgram(text: string, language: ArbitrateLanguage, opts: AnalyzeOptions = {}): Promise<ProgramFacts> {
  return analyzeText(text, language, await loadLanguage(language), opts);
}

/** `analyzeProgram` with the grammar already loaded. */
export function analyzeText(text: string, language: ArbitrateLanguage, lang: LoadedLanguage, opts: AnalyzeOptions = {}): ProgramFacts {
  const source = text.replace(/\r\n?/g, '\n');
  const parse = (t: string): Tree | null => {
    lang.parser.reset();
    return lang.parser.parse(t, null, { progressCallback: parseBudget().progress });
  };
  if (language === 'python') {
    const body = dedent(source);
    return collect(parse(body), body, language, 0);
  }
  // TS/JS: the candidate as written, and as the members of a class.
  const wrapped = `${CLASS_OPEN}${source}\n}`;
  const readings: [string, number][] = opts.preferClassBody ? [[wrapped, 1], [source, 0]] : [[source, 0], [wrapped, 1]];
  let best: ProgramFacts | null = null;
  for (const [t, offset] of readings) {
    if (opts.asFile && offset) continue; // repository files are read as they are
    const facts = collect(parse(t), t, language, offset);
    if (offset) {
      facts.bindings.delete('__Candidate__');
      facts.bindingLines.delete('__Candidate__');
      facts.defs = facts.defs.filter((d) => d.name !== '__Candidate__').map((d) => (d.className === '__Candidate__' ? { ...d, className: null } : d));
      facts.calls = facts.calls.map((c) => (c.enclosingClass === '__Candidate__' ? { ...c, enclosingClass: null } : c));
    }
    if (!best || facts.errorCount < best.errorCount) best = facts;
    if (best.errorCount === 0) break;
  }
  return best!;
}

function collect(tree: Tree | null, text: string, language: ArbitrateLanguage, lineOffset: number): ProgramFacts {
  const facts = emptyFacts(language);
  if (!tree) {
    facts.errors.push({ line: 1, detail: 'the parser gave up (timeout)' });
    facts.errorCount = 1;
    return facts;
  }
  try {
    const root = tree.rootNode;
    const ctx: AnalyzeContext = { facts, text, lineOffset, docstrings: new Set() };
    if (language === 'python') analyzePython(root, ctx);
    else analyzeScript(root, ctx);
    scan(root, ctx);
    return facts;
  } finally {
    tree.delete();
  }
}

/** One cursor pass: syntax errors (ERROR and MISSING nodes) and the size in leaf tokens without comments and docstrings. */
function scan(root: Node, ctx: AnalyzeContext): void {
  const { facts } = ctx;
  let errors = 0;
  let tokens = 0;
  let errorEnd = -1;
  const cursor = root.walk();
  try {
    for (;;) {
      const type = cursor.nodeType;
      const isDoc = ctx.docstrings.has(cursor.startIndex) && type === 'expression_statement';
      // Errors nested in an ERROR node are part of it: one syntax error per region.
      const node = (cursor.nodeIsMissing || type === 'ERROR') && cursor.startIndex >= errorEnd ? cursor.currentNode : null;
      if (node) {
        if (type === 'ERROR') errorEnd = cursor.endIndex;
        errors++;
        if (facts.errors.length < MAX_LISTED_ERRORS) {
          const line = Math.max(1, node.startPosition.row + 1 - ctx.lineOffset);
          const snippet = node.text.replace(/\s+/g, ' ').trim().slice(0, 40);
          facts.errors.push({ line, detail: node.isMissing ? `missing "${node.type}"` : snippet ? `cannot parse "${snippet}"` : 'cannot parse' });
        }
      }
      const descend = !isDoc && type !== 'comment' && cursor.gotoFirstChild();
      if (descend) continue;
      if (!isDoc && type !== 'comment' && cursor.startIndex < cursor.endIndex) tokens++;
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) {
          facts.tokens = tokens;
          facts.errorCount = errors;
          return;
        }
      }
    }
  } finally {
    cursor.delete();
  }
}
