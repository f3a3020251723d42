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
