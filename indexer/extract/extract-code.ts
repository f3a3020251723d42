import type { SyntaxMatch as QueryMatch, SyntaxNode as Node } from '../types.ts';
import type { LoadedLanguage } from '../languages/registry.ts';
import type { ExtractedObject, ExtractedReference, ExtractedView, ObjectKind, ReferenceKind } from '../types.ts';
import { recoverMatches, type Recovered } from './recover.ts';
import { parseBudget } from './parse-budget.ts';
import { moduleObject, SourceLines } from './source.ts';
import { CONTAINERS, viewText } from './view-text.ts';

/** Kinds a query may name in `@definition.<kind>`. */
const DEFINITION_KINDS = new Set<ObjectKind>(['class', 'interface', 'struct', 'enum', 'trait', 'type', 'function', 'method', 'constant', 'namespace']);
/** Kinds whose functions are methods. */
const METHOD_HOSTS = new Set<ObjectKind>(['class', 'interface', 'struct', 'enum', 'trait']);

const MAX_SIGNATURE = 400;
/** Definitions nested deeper than this stay part of their enclosing object: pathological nesting must not cost quadratic view text. */
export const MAX_OBJECT_DEPTH = 16;

interface Definition {
  node: Node;
  /** Start of the object's span: wrappers (decorators, `export`) and leading doc comments included. */
  start: Node;
  /** End of the object's span: the node itself, or an `@extent` capture (Dart's body is the signature's next sibling). */
  end: Node;
  kind: ObjectKind;
  name: string;
  scopeOnly: boolean;
  /** A scope that is a namespace (`mod`, `namespace`): its functions stay functions. */
  namespace: boolean;
  /** Go-style receiver type: qualifies the name and makes the function a method. */
  receiver: string | null;
  docstring: string | null;
  docStartLine: number;
  docEndLine: number;
}

export interface CodeExtraction {
  objects: ExtractedObject[];
  views: ExtractedView[];
  references: ExtractedReference[];
  parseErrors: number;
}

/**
 * Extracts canonical objects, their own views and their outgoing references
 * from one parsed source file, driven by the language's query file.
 * Returns null when the parser gives up (its step budget spent: `parse-budget.ts`);
 * the caller then indexes the file as text.
 */
export function extractCode(
  path: string,
  src: SourceLines,
  lang: LoadedLanguage,
): CodeExtraction | null {
  const budget = parseBudget();
  lang.parser.reset();
  const text = lang.spec.repair?.(src.text) ?? src.text;
  const tree = lang.parser.parse(text, null, { progressCallback: budget.progress });
  if (!tree) return null;
  let recovered: Recovered | undefined;
  try {
    const root = tree.rootNode;
    recovered = recoverMatches(lang, text, src, root, budget);
    const matches = recovered.matches;
    const defs = collectDefinitions(matches, lang, src, attachmentsOf(matches, src.text));
    const objects = buildObjects(path, src, defs);
    const moduleDoc = lang.spec.docStyle === 'leading-string' ? leadingString(root) : null;
    if (moduleDoc) objects[0].docstring = moduleDoc.text;
    const views = buildViews(objects, defs, src, moduleDoc);
    const references = collectReferences(matches, defs);
    return { objects, views, references, parseErrors: root.hasError ? countErrors(root) : 0 };
  } finally {
    for (const t of recovered?.trees ?? []) t.delete();
    tree.delete();
  }
}

function captureOf(m: QueryMatch, name: string): Node | undefined {
  return m.captures.find((c) => c.name === name)?.node;
}

/** Wrapper and leading nodes by position: O(1) questions instead of parent/sibling walks. */
interface Attachments {
  /** The outermost wrapper node that ends where `node` ends and starts before it. */
  wrapperOf(node: Node): Node | undefined;
  /** A leading node (comment, attribute) separated from `node` only by whitespace. */
  leadingBefore(node: Node): Node | undefined;
}

/** From the `@wrapper` and `@leading` captures among the query's matches (the registry appends their patterns). */
function attachmentsOf(matches: QueryMatch[], text: string): Attachments {
  const wrappers = new Map<number, Node[]>();
  const leading = new Map<number, Node>();
  for (const m of matches) {
    for (const c of m.captures) {
      if (c.name === 'wrapper') (wrappers.get(c.node.endIndex) ?? wrappers.set(c.node.endIndex, []).get(c.node.endIndex)!).push(c.node);
      else if (c.name === 'leading') leading.set(c.node.endIndex, c.node);
    }
  }
  return {
    wrapperOf(node) {
      // A wrapper wraps the node it ends with as its last child: a decorated class ends where its last
      // method ends, but wraps the class, not the method.
      let current = node;
      for (;;) {
        const outer = wrappers.get(current.endIndex)?.find((w) => w.startIndex < current.startIndex && w.lastNamedChild?.id === current.id);
        if (!outer) return current === node ? undefined : current;
        current = outer;
      }
    },
    leadingBefore(node) {
      // Walk back over whitespace holding at most one line break (a node may end with its own newline), and over a
      // comment that trails code on its line: it belongs to that code (`#[allow(x)] // why`), never to `node`.
      let breaks = 0;
      for (let i = node.startIndex; i > 0; i--) {
        const hit = leading.get(i);
        if (hit && !trailsCode(hit, text)) return hit;
        if (hit) {
          i = hit.startIndex + 1;
          continue;
        }
        const ch = text[i - 1];
        if (ch === '\n' && ++breaks > 1) return undefined;
        if (ch !== '\n' && ch !== ' ' && ch !== '\t' && ch !== '\r') return undefined;
      }
      return undefined;
    },
  };
}

/** A comment after code on its line (`#define A 1 // items`): it belongs to that code, not to the definition after it. */
function trailsCode(hit: Node, text: string): boolean {
  if (!/comment|haddock/.test(hit.type)) return false;
  for (let i = hit.startIndex; i > 0; i--) {
    const ch = text[i - 1];
    if (ch === '\n') return false;
    if (ch !== ' ' && ch !== '\t' && ch !== '\r') return true;
  }
  return false;
}

function collectDefinitions(matches: QueryMatch[], lang: LoadedLanguage, src: SourceLines, attach: Attachments): Definition[] {
  // Node id -> index in defs: one definition per node, a function beating a constant whatever the match order.
  const seen = new Map<number, number>();
  const defs: Definition[] = [];
  for (const m of matches) {
    const main = m.captures.find((c) => c.name.startsWith('definition.') || c.name === 'scope' || c.name === 'scope.module');
    const nameNode = captureOf(m, 'name');
    if (!main || !nameNode) continue;
    const isScope = main.name === 'scope' || main.name === 'scope.module';
    const kind = isScope ? 'module' : (main.name.slice('definition.'.length) as ObjectKind);
    if (!isScope && !DEFINITION_KINDS.has(kind)) continue;
    const prior = seen.get(main.node.id);
    if (prior !== undefined) {
      // A more specific kind beats a general one (whatever order the matches come in), and a match naming a receiver (`void T::f()`) a plain one.
      const receiver = receiverName(captureOf(m, 'receiver'));
      if ((!isScope && specificity(kind) > specificity(defs[prior].kind)) || (receiver && !defs[prior].receiver)) {
        defs[prior].kind = kind;
        defs[prior].name = nameOf(nameNode);
        defs[prior].receiver = receiver ?? defs[prior].receiver;
      }
      continue;
    }
    seen.set(main.node.id, defs.length);
    // `(#set! name "Companion")` names what the source leaves unnamed (Kotlin's companion object).
    const givenName = m.setProperties?.name ?? null;
    // Wrappers (decorators, `export`) that end with the definition, then leading comments and attributes that touch it.
    let start = attach.wrapperOf(main.node) ?? main.node;
    let docstring: string | null = null;
    let docStartLine = 0;
    let docEndLine = 0;
    if (lang.spec.docStyle === 'leading-string') {
      const doc = leadingString(main.node.childForFieldName('body'));
      if (doc) ({ text: docstring, startLine: docStartLine, endLine: docEndLine } = doc);
    } else {
      const comments: Node[] = [];
      for (let prev = attach.leadingBefore(start); prev; prev = attach.leadingBefore(prev)) {
        if (/comment|haddock/.test(prev.type)) comments.unshift(prev);
        start = prev;
      }
      if (comments.length > 0) {
        // Some grammars (Rust `///`) end a line comment with its newline: it belongs to neither text nor span.
        docstring = comments.map((c) => c.text.replace(/\r?\n$/, '')).join('\n');
        docStartLine = comments[0].startPosition.row + 1;
        docEndLine = lastLine(comments.at(-1)!);
      }
    }
    defs.push({
      node: main.node,
      start,
      end: captureOf(m, 'extent') ?? main.node,
      kind,
      name: givenName ?? nameOf(nameNode),
      scopeOnly: isScope,
      namespace: main.name === 'scope.module',
      receiver: receiverName(captureOf(m, 'receiver')),
      docstring,
      docStartLine,
      docEndLine,
    });
  }
  // Outer definitions before inner ones, in source order.
  defs.sort((a, b) => a.start.startIndex - b.start.startIndex || b.end.endIndex - a.end.endIndex);
  return dropRestatements(dropShadowedConstants(defs));
}

/**
 * Two patterns may read one declaration at two nodes (`const f = () => 1` as the
 * statement and as its declarator): an inner definition with the same name and
 * kind as one enclosing it from the same line is the same object.
 */
function dropRestatements(defs: Definition[]): Definition[] {
  // Positions read once (each read crosses into wasm); only definitions of one name, kind and line are compared.
  const spans = defs.map((d) => ({ d, start: d.node.startIndex, end: d.end.endIndex, key: `${d.kind}\0${d.name}\0${d.node.startPosition.row}` }));
  const groups = new Map<string, typeof spans>();
  for (const s of spans) (groups.get(s.key) ?? groups.set(s.key, []).get(s.key)!).push(s);
  return spans
    .filter((s) => {
      const same = groups.get(s.key)!;
      return same.length < 2 || !same.some((o) => o !== s && o.start <= s.start && o.end >= s.end && (o.start < s.start || o.end > s.end));
    })
    .map((s) => s.d);
}

/**
 * The name a `@name` capture holds. A leaf is its own text; a C-style
 * declarator (`*table[10]`, `(*cb)(int)`, `x = 1`) is read down its
 * `declarator` (or `name`) fields to the identifier it declares.
 */
function nameOf(node: Node): string {
  let n: Node | null = node;
  for (let depth = 0; n && n.type.endsWith('declarator') && depth < 8; depth++) {
    n = n.childForFieldName('declarator') ?? n.childForFieldName('name') ?? n.namedChildren.find((c) => c.type.includes('identifier') || c.type.endsWith('declarator')) ?? null;
  }
  return (n ?? node).text;
}

/** A constant is the least specific reading of a node, then a class (`enum class`, Kotlin's `interface` is a class declaration). */
function specificity(kind: ObjectKind): number {
  return kind === 'constant' ? 0 : kind === 'class' ? 1 : 2;
}

/** The bare type name of a receiver type capture: `*Server[T]` -> `Server`. */
function receiverName(node: Node | undefined): string | null {
  if (!node) return null;
  const m = node.text.match(/[A-Za-z_][A-Za-z0-9_]*/g);
  return m?.find((w) => w !== 'mut' && w !== 'const') ?? null;
}

/** `const f = () => ...` matches both a constant and a function: keep the function. */
function dropShadowedConstants(defs: Definition[]): Definition[] {
  return defs.filter(
    (d) =>
      d.kind !== 'constant' ||
      !defs.some(
        (o) => o !== d && o.kind !== 'constant' && o.name === d.name && o.node.startIndex >= d.node.startIndex && o.end.endIndex <= d.end.endIndex,
      ),
  );
}

/** The signature: the declaration up to its body, whitespace collapsed; the first line when there is no body. */
function signatureOf(node: Node, src: SourceLines): { text: string; endLine: number } {
  const startLine = node.startPosition.row + 1;
  const body = node.childForFieldName('body');
  if (body && body.startIndex > node.startIndex) {
    const head = src.text.slice(node.startIndex, body.startIndex).trimEnd();
    const endLine = startLine + (head.match(/\n/g)?.length ?? 0);
    return { text: clip(head.replace(/\s+/g, ' ').trim(), MAX_SIGNATURE), endLine };
  }
  return { text: clip((src.lines[startLine - 1] ?? '').trim(), MAX_SIGNATURE), endLine: startLine };
}

/** The 1-based last line of a node; a node ending with its own newline (`#define`, Rust `///`) ends on the line before. */
function lastLine(node: Node): number {
  const end = node.endPosition;
  return end.row + (end.column === 0 && end.row > node.startPosition.row ? 0 : 1);
}

function clip(s: string, n: number): string {
  return s.length <= n ? s : s.slice(0, n);
}

function buildObjects(path: string, src: SourceLines, defs: Definition[]): ExtractedObject[] {
  const objects: ExtractedObject[] = [moduleObject(path, src, 'module')];
  // Index in `objects` (or -1-scopeIndex for naming scopes) of each definition node.
  const byNode = new Map<number, number>();
  const scopeNames: string[] = [];
  const scopeParent: number[] = [];
  const scopeQualified: string[] = [];
  const scopeNamespace: boolean[] = [];
  const depth: number[] = [0];
  const own = new Set<number>();
  // defs are sorted outer-first, so a stack of open definitions gives each one its enclosing definition.
  const open: Definition[] = [];
  for (const d of defs) {
    while (open.length && open.at(-1)!.end.endIndex < d.end.endIndex) open.pop();
    const enclosing = open.at(-1);
    open.push(d);
    const parentRef = enclosing ? byNode.get(enclosing.node.id)! : 0;
    // A naming scope (e.g. Rust `impl T`) is not an object: its members hang off the scope's own parent.
    const parent = parentRef < 0 ? scopeParent[-1 - parentRef] : parentRef;
    if (depth[parent] >= MAX_OBJECT_DEPTH) {
      byNode.set(d.node.id, parent);
      continue;
    }
    const prefix = d.receiver ?? (parentRef < 0 ? scopeQualified[-1 - parentRef] : parentRef === 0 ? '' : objects[parentRef].qualifiedName);
    const qualifiedName = prefix ? `${prefix}.${d.name}` : d.name;
    if (d.scopeOnly) {
      scopeNames.push(d.name);
      scopeParent.push(parent);
      scopeQualified.push(qualifiedName);
      scopeNamespace.push(d.namespace);
      byNode.set(d.node.id, -scopeNames.length);
      continue;
    }
    const container = (parentRef < 0 && !scopeNamespace[-1 - parentRef]) || (parent > 0 && METHOD_HOSTS.has(objects[parent].kind));
    const kind: ObjectKind = d.kind === 'function' && (container || d.receiver) ? 'method' : d.kind;
    const sig = signatureOf(d.node, src);
    byNode.set(d.node.id, objects.length);
    own.add(d.node.id);
    depth.push(depth[parent] + 1);
    objects.push({
      parent,
      kind,
      name: d.name,
      qualifiedName,
      startLine: d.start.startPosition.row + 1,
      endLine: lastLine(d.end),
      startByte: src.byteOffset(d.start.startPosition.row, d.start.startPosition.column),
      endByte: src.byteOffset(d.end.endPosition.row, d.end.endPosition.column),
      signature: sig.text,
      docstring: d.docstring,
    });
  }
  // Too-deep definitions point at their enclosing object for references, but own no views.
  defs.forEach((d) => {
    (d as Definition & { index?: number }).index = byNode.get(d.node.id);
    (d as Definition & { owned?: boolean }).owned = own.has(d.node.id);
  });
  return objects;
}

/** A docstring: the string literal that is the first statement of a body or module. */
function leadingString(body: Node | null | undefined): { text: string; startLine: number; endLine: number } | null {
  const first = body?.namedChildren[0];
  const str = first?.type === 'expression_statement' ? first.namedChildren[0] : undefined;
  if (!first || str?.type !== 'string') return null;
  return { text: str.text, startLine: first.startPosition.row + 1, endLine: first.endPosition.row + 1 };
}

function buildViews(
  objects: ExtractedObject[],
  defs: Definition[],
  src: SourceLines,
  moduleDoc: { startLine: number; endLine: number } | null,
): ExtractedView[] {
  const views: ExtractedView[] = [];
  // Spans of each object's children, so containers keep only their own text.
  const childLines = objects.map(() => [] as [number, number][]);
  objects.forEach((o) => o.parent !== null && childLines[o.parent].push([o.startLine, o.endLine]));
  const add = (object: number, kind: ExtractedView['kind'], startLine: number, endLine: number) => {
    const text = viewText({ kind, startLine, endLine }, src.lines, objects[object], childLines[object]);
    if (text.trim()) views.push({ object, kind, startLine, endLine, text });
  };
  const docOf = new Map<number, Definition>();
  for (const d of defs) {
    const i = (d as Definition & { index?: number }).index;
    if (i !== undefined && i >= 0 && (d as Definition & { owned?: boolean }).owned) docOf.set(i, d);
  }
  objects.forEach((o, i) => {
    if (o.kind !== 'module') {
      const d = docOf.get(i)!;
      const sigStart = d.node.startPosition.row + 1;
      add(i, 'signature', sigStart, signatureOf(d.node, src).endLine);
    }
    add(i, 'body', o.startLine, o.endLine);
    const d = docOf.get(i);
    if (o.docstring && d) add(i, 'docstring', d.docStartLine, d.docEndLine);
    else if (o.kind === 'module' && o.docstring && moduleDoc) add(i, 'docstring', moduleDoc.startLine, moduleDoc.endLine);
  });
  return views;
}

/**
 * The innermost object containing a position, found by binary search over
 * definition spans (walking tree-sitter parents is slow in wasm).
 */
function positionIndex(defs: Definition[]): (at: number) => number {
  const spans = defs
    .map((d) => ({ start: d.node.startIndex, end: d.end.endIndex, index: (d as Definition & { index?: number }).index }))
    .filter((x): x is { start: number; end: number; index: number } => x.index !== undefined && x.index >= 0)
    .sort((a, b) => a.start - b.start || b.end - a.end);
  // The enclosing span of each span, by a nesting stack.
  const up: number[] = [];
  const stack: number[] = [];
  spans.forEach((s, i) => {
    while (stack.length && spans[stack.at(-1)!].end < s.end) stack.pop();
    up.push(stack.at(-1) ?? -1);
    stack.push(i);
  });
  return (at) => {
    let lo = 0;
    let hi = spans.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (spans[mid].start <= at) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    // Spans nest, so the innermost container is the nearest enclosing span that still covers `at`.
    for (let i = found; i >= 0; i = up[i]) if (spans[i].end >= at) return spans[i].index;
    return 0;
  };
}

function collectReferences(matches: QueryMatch[], defs: Definition[]): ExtractedReference[] {
  const enclosing = positionIndex(defs);
  const refs: ExtractedReference[] = [];
  const seen = new Set<string>();
  for (const m of matches) {
    const main = m.captures.find((c) => c.name.startsWith('reference.') || c.name === 'import');
    if (!main) continue;
    const source = enclosing(main.node.startIndex);
    if (main.name === 'import') {
      const moduleNode = captureOf(m, 'import.module');
      const nameNode = captureOf(m, 'import.name');
      const aliasNode = captureOf(m, 'import.alias');
      // `@import.path` is a whole dotted path (`a.b.C`, a grammar without fields): module `a.b`, name `C`.
      // Several `@import.path` captures are its segments (Scala's `path:` fields), joined with dots.
      const pathParts = m.captures.filter((c) => c.name === 'import.path').map((c) => c.node.text);
      const pathText = pathParts.length ? pathParts.join('.') : null;
      if (!moduleNode && !nameNode && !pathText) continue;
      // `@import.relative` marks a specifier relative to the file whatever it reads like (Ruby `require_relative`).
      const relative = m.captures.some((c) => c.name === 'import.relative');
      const split = nameNode ? null : pathText?.match(/^(.*?)(?:\.|::|\\)([^.:\\]+)$/);
      let module = moduleNode ? (relative ? './' : '') + unquote(moduleNode.text) : split ? split[1] : pathText;
      let name = nameNode ? nameNode.text : m.captures.some((c) => c.name === 'import.wildcard') ? '*' : split ? split[2] : module!;
      if (pathText && !nameNode && !split) name = module = pathText;
      const alias = aliasNode ? aliasNode.text : null;
      const key = `${source}|import|${name}|${module}|${alias}`;
      if (seen.has(key)) continue;
      seen.add(key);
      refs.push({ source, kind: 'import', name, qualifier: null, module, alias, line: main.node.startPosition.row + 1 });
      continue;
    }
    const nameNode = captureOf(m, 'name');
    if (!nameNode) continue;
    const kind = main.name.slice('reference.'.length) as ReferenceKind;
    if (kind !== 'call' && kind !== 'inherit') continue;
    // Haskell's module qualifier keeps its dot (`M.`).
    const qualifier = captureOf(m, 'qualifier')?.text.replace(/\.$/, '') ?? null;
    // A node's text crosses into wasm on every read: read once.
    const name = nameNode.text;
    const key = `${source}|${kind}|${name}|${qualifier}`;
    if (seen.has(key)) continue;
    seen.add(key);
    refs.push({ source, kind, name, qualifier: qualifier && clip(qualifier, 120), module: null, alias: null, line: nameNode.startPosition.row + 1 });
  }
  return refs;
}

function unquote(s: string): string {
  return s.replace(/^['"`<]|['"`>]$/g, '');
}

/** ERROR and MISSING nodes of a tree, walked iteratively (nesting can be pathological). */
function countErrors(root: Node): number {
  let n = 0;
  const cursor = root.walk();
  try {
    for (;;) {
      const node = cursor.currentNode;
      if (node.isError || node.isMissing) n++;
      if (node.hasError && cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) return n;
      }
    }
  } finally {
    cursor.delete();
  }
}
