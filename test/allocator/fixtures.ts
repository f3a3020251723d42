/**
 * Literal objects, an in-memory ObjectSource and candidate builders for the
 * allocator's unit tests.
 */
import fc from 'fast-check';
import type { Candidate, ObjectKind, ViewKind } from '../../indexer/types.ts';
import type { ObjectInfo, ObjectSource, ObjectText } from '../../allocator/types.ts';

export function memorySource(objects: readonly ObjectText[]): ObjectSource {
  const byId = new Map(objects.map((o) => [o.id, o]));
  return {
    objects: (ids) => new Map(ids.filter((id) => byId.has(id)).map((id) => [id, byId.get(id)!])),
    infos: (ids) => new Map(ids.filter((id) => byId.has(id)).map((id) => { const { text: _text, ...info } = byId.get(id)!; return [id, info]; })),
    fiberObjects: (path) =>
      objects.filter((o) => o.path === path).map(({ text: _text, ...info }): ObjectInfo => info),
  };
}

/** An object whose text is `lines`, starting at `startLine`. */
export function obj(
  id: string,
  path: string,
  startLine: number,
  lines: string[],
  extra: Partial<Pick<ObjectText, 'name' | 'qualifiedName' | 'kind' | 'signature'>> = {},
  eol = '\n',
): ObjectText {
  const name = extra.name ?? id;
  return {
    id,
    path,
    name,
    qualifiedName: extra.qualifiedName ?? name,
    kind: extra.kind ?? ('function' as ObjectKind),
    signature: extra.signature ?? lines[0] ?? '',
    startLine,
    endLine: startLine + lines.length - 1,
    text: lines.join(eol),
  };
}

let nextView = 1000;

/** A retrieved view of `o` (defaults: a body view spanning the object). */
export function view(
  o: ObjectText,
  score: number,
  kind: ViewKind = 'body',
  at: Partial<Pick<Candidate, 'path' | 'startLine' | 'endLine' | 'viewId'>> = {},
): Candidate {
  return {
    viewId: at.viewId ?? nextView++,
    objectId: o.id,
    fiber: o.path,
    path: at.path ?? o.path,
    objectName: o.name,
    objectKind: o.kind,
    viewKind: kind,
    startLine: at.startLine ?? o.startLine,
    endLine: at.endLine ?? o.endLine,
    score,
    reason: 'bm25',
  };
}

// ---------------------------------------------------------------------------
// A small repository: the worked example of the quotient rule.

export const parseConfig = obj('cfg.parse', 'src/config.ts', 10, [
  'export function parseConfig(text: string): Config {',
  '  const lines = text.split("\\n");',
  '  const entries = lines.map((line) => line.split("="));',
  '  return Object.fromEntries(entries) as Config;',
  '}',
], { name: 'parseConfig' });

export const configError = obj('cfg.error', 'src/config.ts', 20, [
  'export class ConfigError extends Error {',
  '  constructor(message: string) { super(message); }',
  '}',
], { name: 'ConfigError', kind: 'class' });

export const configModule = obj('cfg.module', 'src/config.ts', 1, [
  ...Array.from({ length: 25 }, (_, i) => `// config module line ${i + 1}`),
], { name: 'config', qualifiedName: 'src.config', kind: 'module', signature: '' });

export const startServer = obj('srv.start', 'src/server.ts', 1, [
  'export function startServer(port: number): Server {',
  '  const server = createServer(handleRequest);',
  '  server.listen(port);',
  '  return server;',
  '}',
], { name: 'startServer' });

export const handleRequest = obj('srv.handle', 'src/server.ts', 7, [
  'function handleRequest(req: Request, res: Response): void {',
  '  res.writeHead(200);',
  '  res.end(render(req.url));',
  '}',
], { name: 'handleRequest' });

export const logLine = obj('log.line', 'src/log.ts', 1, [
  'export function logLine(message: string): void {',
  '  process.stderr.write(message + "\\n");',
  '}',
], { name: 'logLine' });

export const main = obj('cli.main', 'src/cli.ts', 1, [
  'export function main(argv: string[]): void {',
  '  const settings = parseConfig(readFileSync(argv[2], "utf8"));',
  '  startServer(settings.port);',
  '}',
], { name: 'main' });

export const repo = [configModule, parseConfig, configError, startServer, handleRequest, logLine, main];

// ---------------------------------------------------------------------------
// Random repositories and retrievals for property tests.

const WORDS = [
  'parse', 'config', 'load', 'render', 'token', 'budget', 'server', 'cache', 'index', 'query', 'value', 'item',
  'x', 'id', 'the', 'return', 'if', '{', '}', '(', ')', '=', ';', '"str"', '42',
  'ünïcödé', '日本語', 'emoji🚀', 'naïve_café', 'parseConfig', 'load_budget',
];
const KINDS: ViewKind[] = ['signature', 'body', 'docstring', 'callsite', 'import', 'testref'];
const PATHS = ['src/a.ts', 'src/b.py', 'lib/c.go'];

const lineArb = fc.tuple(
  fc.constantFrom('', '  ', '    ', '\t'),
  fc.array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 10 }),
).map(([indent, words]) => indent + words.join(' '));

export interface World {
  objects: ObjectText[];
  candidates: Candidate[];
  query: string;
}

/** 1-10 objects over 3 files (some CRLF), 1-25 views (some found through structure), a query from the same vocabulary (empty cases have their own tests). */
export const worldArb: fc.Arbitrary<World> = fc
  .record({
    objects: fc.array(
      fc.record({
        path: fc.constantFrom(...PATHS),
        start: fc.integer({ min: 1, max: 500 }),
        lines: fc.array(lineArb, { minLength: 1, maxLength: 60 }),
        name: fc.constantFrom('parseConfig', 'loadBudget', 'render', 'x', 'cacheItem', 'handle', 'Ünïcode'),
        crlf: fc.boolean(),
      }),
      { minLength: 1, maxLength: 10 },
    ),
    views: fc.array(
      fc.record({
        object: fc.nat(),
        score: fc.oneof(fc.double({ min: 0, max: 20, noNaN: true }), fc.constantFrom(1, 2, 3)),
        kind: fc.constantFrom(...KINDS),
        elsewhere: fc.boolean(),
        from: fc.nat(40),
        len: fc.nat(10),
        viaStructure: fc.boolean(),
      }),
      { minLength: 1, maxLength: 25 },
    ),
    query: fc.array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 5 }).map((w) => w.join(' ')),
  })
  .map(({ objects, views, query }) => {
    const built = objects.map((o, k) => obj(`o${k}`, o.path, o.start, o.lines, { name: o.name }, o.crlf ? '\r\n' : '\n'));
    const candidates: Candidate[] = [];
    if (built.length > 0) {
      views.forEach((v, k) => {
        const o = built[v.object % built.length];
        const startLine = o.startLine + Math.min(v.from, o.endLine - o.startLine);
        const c = view(o, v.score, v.kind, {
          viewId: k + 1,
          path: v.elsewhere ? 'test/other.ts' : o.path,
          startLine,
          endLine: startLine + v.len,
        });
        candidates.push(v.viaStructure ? { ...c, viaStructure: true } : c);
      });
      candidates.sort((a, b) => b.score - a.score);
    }
    return { objects: built, candidates, query };
  });

/** A class `Engine` whose methods have the given body lengths (in order), each method `m<k>` (a member: parentId) with a docstring. */
export function classOf(bodies: readonly number[]): { cls: ObjectText; methods: ObjectText[]; lines: string[] } {
  const lines = ['class Engine:', '    """Runs things."""', ''];
  const methods: ObjectText[] = [];
  bodies.forEach((n, k) => {
    const start = lines.length + 1;
    lines.push(`    def m${k}(self, x):`, `        """Method ${k}."""`, ...Array.from({ length: n }, (_, i) => `        v${i} = x * ${i} + ${k}`), '');
    const end = lines.length - 1;
    methods.push({
      id: `m${k}`, path: 'pkg/engine.py', name: `m${k}`, qualifiedName: `Engine.m${k}`, kind: 'method', signature: `def m${k}(self, x)`,
      startLine: start, endLine: end, parentId: 'cls', docstring: `"""Method ${k}."""`, text: lines.slice(start - 1, end).join('\n'),
    });
  });
  const cls: ObjectText = {
    id: 'cls', path: 'pkg/engine.py', name: 'Engine', qualifiedName: 'Engine', kind: 'class', signature: 'class Engine',
    startLine: 1, endLine: lines.length, parentId: null, docstring: '"""Runs things."""', text: lines.join('\n'),
  };
  return { cls, methods, lines };
}

/** A file's objects cut from its lines: each object is lines [start, end] of `lines`. */
export function objectsOf(path: string, lines: string[], spans: { id: string; name: string; kind: ObjectKind; start: number; end: number; parentId: string | null; docstring?: string }[]): ObjectText[] {
  return spans.map((s) => ({
    id: s.id, path, name: s.name, qualifiedName: s.name, kind: s.kind, signature: lines[s.start - 1].trim().replace(/:$/, ''),
    startLine: s.start, endLine: s.end, parentId: s.parentId, docstring: s.docstring ?? null,
    text: lines.slice(s.start - 1, s.end).join('\n'),
  }));
}

/** A Python class of `n` methods, 8 lines each, every one with a docstring. */
export function bigClass(n: number): { objects: ObjectText[]; lines: string[] } {
  const lines = ['class Matrix(Base):', '    """A dense matrix of numbers."""', '    rows = 0', ''];
  const spans: Parameters<typeof objectsOf>[2] = [];
  for (let k = 0; k < n; k++) {
    const start = lines.length + 1;
    lines.push(
      `    def op_${k}(self, other, scale=${k}):`, `        """Apply operation ${k} to other."""`,
      `        left = self.value * ${k}`, `        right = other.value + scale`, `        total = left + right`,
      `        self.log("op_${k}", total)`, `        return total`, '',
    );
    spans.push({ id: `m${k}`, name: `Matrix.op_${k}`, kind: 'method', start, end: start + 6, parentId: 'cls', docstring: `"""Apply operation ${k} to other."""` });
  }
  spans.unshift({ id: 'cls', name: 'Matrix', kind: 'class', start: 1, end: lines.length - 1, parentId: 'mod', docstring: '"""A dense matrix of numbers."""' });
  spans.unshift({ id: 'mod', name: 'linalg', kind: 'module', start: 1, end: lines.length, parentId: null });
  return { objects: objectsOf('pkg/linalg.py', lines, spans), lines };
}

/** A top-level function of `n` lines in its own file `pkg/<id>.py` (a further object beside a class). */
export function functionOf(id: string, n = 45): ObjectText {
  return objectsOf(`pkg/${id}.py`, [`def ${id}(x):`, ...Array.from({ length: n - 2 }, (_, i) => `    step_${i} = x + ${i}`), '    return x'], [{ id, name: id, kind: 'function', start: 1, end: n, parentId: null }])[0];
}
