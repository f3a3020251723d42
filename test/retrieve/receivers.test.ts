import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readReceivers } from '../../indexer/retrieve/receivers.ts';
import { createStructuralRetriever } from '../../indexer/retrieve/structural.ts';
import { loadQueryLanguages } from '../../indexer/retrieve/query-reading.ts';
import type { DB } from '../../indexer/store/open.ts';
import { indexInPlace, tempDir, writeTree } from '../helpers/repo.ts';

describe('receivers a query binds', () => {
  it.each([
    ['python constructor', 'p = Parser(text)\np.parse()', 'p', 'Parser'],
    ['python module-qualified constructor', 'p = grammar.Parser(text)', 'p', 'Parser'],
    ['python annotation', 'def run(p: Parser):\n    p.parse()', 'p', 'Parser'],
    ['ts new', 'const p = new Parser(text);', 'p', 'Parser'],
    ['ts declared type', 'function run(p: Parser, n: number) {', 'p', 'Parser'],
    ['java declaration', 'Parser p = factory.make();', 'p', 'Parser'],
    ['go composite literal', 's := &Server{addr: a}', 's', 'Server'],
    ['go method receiver', 'func (s *Server) Start() {', 's', 'Server'],
    ['rust typed let', 'let p: Parser = make();', 'p', 'Parser'],
    ['rust constructor path', 'let mut p = Parser::new(text);', 'p', 'Parser'],
    ['python constructor of a lower-case class (the index decides)', 'pot = preorder_traversal(expr)\nfor p in pot:', 'pot', 'preorder_traversal'],
    ['a method result is no binding', 'p = factory.make()', 'p', undefined],
    // A declared type is on the declaration's line: a block's colon ends its line.
    ['else: then a call on the next line binds nothing', 'if ok:\n    x = 1\nelse:\n    Parser(text)\n', 'else', undefined],
    ['try: then a call on the next line binds nothing', 'try:\n    Parser(text)\nexcept ValueError:\n    pass\n', 'try', undefined],
    ['a lambda is no receiver', 'key = lambda: Parser(text)', 'lambda', undefined],
    ['a keyword constant is no variable', 'None = Parser(text)', 'None', undefined],
    ['a keyword is no type (Java-like `C x =` read over a line break)', 'return None\nx = 1', 'x', undefined],
    ['finally: then a typed parameter on its own line still binds', 'finally:\n    def run(p: Parser):', 'p', 'Parser'],
  ])('%s', (_name, text, variable, type) => {
    expect(readReceivers(text).types.get(variable)).toBe(type);
  });

  it('chained calls on a fresh instance and the bases of a class the query declares', () => {
    const r = readReceivers('x = Parser(a, f(b)).parse(s)\ny = new Lexer().scan(t)\nclass Strict(base.Parser, Mixin):\n    pass\nclass Fast extends Lexer {');
    expect(r.chained).toEqual([{ qualifier: 'Parser', name: 'parse' }, { qualifier: 'Lexer', name: 'scan' }]);
    expect(r.bases).toEqual(['Parser', 'Mixin', 'Lexer']);
  });

  it('keywords are never receivers nor types', () => {
    const r = readReceivers('try:\n    Parser(a)\nexcept Error:\n    pass\nelse:\n    Lexer(b)\nwith Lexer() as lx:\n    True\n');
    for (const k of ['try', 'except', 'else', 'with', 'True']) {
      expect(r.types.has(k)).toBe(false);
      expect([...r.types.values()]).not.toContain(k);
    }
  });
});

describe('receiver resolution through the index', () => {
  let repo: string;
  let db: DB;
  beforeAll(async () => {
    repo = tempDir();
    writeTree(repo, {
      'lang/grammar.py': 'class Base:\n    def reset(self):\n        """Forget the input."""\n        self.pos = 0\n\n\nclass Parser(Base):\n    def parse(self, text):\n        """Parse text."""\n        return text.split()\n\n    def peek(self):\n        return None\n',
      'lang/__init__.py': '',
      'web/lexer.ts': 'export class Lexer {\n  scan(text: string): string[] {\n    return text.split(" ");\n  }\n\n  reset(): void {}\n}\n\nexport class FastLexer extends Lexer {\n  turbo(): void {}\n}\n',
      'web/util.ts': 'export function unrelated(): number {\n  return 1;\n}\n',
      // Members a receiver may offer next: every name shares "widget", one shares the query's last words.
      'ui/widgets.py': 'class TextWidget:\n    pass\n\n\nclass SelectWidget:\n    pass\n\n\nclass RawIdWidget:\n    pass\n\n\ndef render_widget(w):\n    return w\n',
      'ui/__init__.py': '',
      // The same member names elsewhere: a name unique in the repository would resolve without its receiver.
      'other/decoy.py': 'class Decoy:\n    def parse(self, text):\n        return text\n\n    def peek(self):\n        return 1\n\n    def reset(self):\n        pass\n',
      // A lower-case class and a function: `x = name(...)` binds a type only when the index says the name is a class.
      'lang/walk.py': 'class walker:\n    def skip(self):\n        return 1\n\n\ndef compute(x):\n    def skip():\n        return 0\n    return skip\n',
      'other/skipper.py': 'class Skipper:\n    def skip(self):\n        return 2\n',
      // A family of classes sharing one member name, but Delta.
      'lang/family.py': 'class Alpha:\n    def apply(self):\n        return 1\n\n\nclass Beta:\n    def apply(self):\n        return 2\n\n    def undo(self):\n        return 0\n\n\nclass Gamma:\n    def apply(self):\n        return 3\n\n\nclass Delta:\n    def other(self):\n        return 4\n\n\nclass Epsilon:\n    def apply(self):\n        return 5\n',
      'other/decoy.ts': 'export class Decoy {\n  scan(t: string): string[] {\n    return [t];\n  }\n\n  reset(): void {}\n}\n',
    });
    db = await indexInPlace(repo);
  });
  afterAll(() => {
    db.close();
    fs.rmSync(repo, { recursive: true, force: true });
  });

  const found = async (query: string, path: string): Promise<Map<string, string>> => {
    const r = createStructuralRetriever(db, await loadQueryLanguages(), { path });
    return new Map(r.retrieve(query, 20).map((c) => [c.objectName, c.reason]));
  };

  it.each([
    ['x = C(...); x.m(', 'from lang.grammar import Parser\n\np = Parser()\np.parse(data)\n', 'Parser.parse', /p\.parse \(p: Parser\)/],
    ['x = C(...); x.m( with m inherited', 'from lang.grammar import Parser\n\np = Parser()\np.reset()\n', 'Base.reset', /p\.reset \(p: Parser\)/],
    ['C(...).m(', 'from lang.grammar import Parser\n\nwords = Parser().parse(data)\n', 'Parser.parse', /Parser\(\.\.\.\)\.parse/],
    ['self.m in a subclass', 'from lang.grammar import Parser\n\nclass Strict(Parser):\n    def run(self):\n        return self.peek()\n', 'Parser.peek', /self\.peek \(inherited from Parser\)/],
    ['super().m', 'from lang.grammar import Parser\n\nclass Strict(Parser):\n    def reset(self):\n        super().reset()\n', 'Base.reset', /inherited from Parser/],
    ['x = c(...); x.m( with a lower-case class', 'from lang.walk import walker\n\nit = walker()\nit.skip()\n', 'walker.skip', /it\.skip \(it: walker\)/],
    ['mod.f for an imported module', 'from lang import grammar\n\np = grammar.Parser()\np.peek()\n', 'Parser.peek', /p\.peek \(p: Parser\)/],
  ])('Python: %s', async (_form, query, member, reason) => {
    const hits = await found(query, 'app/main.py');
    expect(hits.get(member)).toMatch(reason);
  });

  it('a local bound to a function\'s result is no receiver: its members do not resolve', async () => {
    const hits = await found('from lang.walk import compute\n\nr = compute(1)\nr.skip()\n', 'app/main.py');
    expect([...hits.values()].some((reason) => /r\.skip/.test(reason))).toBe(false);
  });

  it('members of a receiver the next line may call: ranked by the rare words they share with the query\'s last lines', async () => {
    const query = 'from ui import widgets\n\ndef field_for(name, raw_id_fields):\n    if name in raw_id_fields:\n        kind = "widget"\n';
    const r = createStructuralRetriever(db, await loadQueryLanguages(), { path: 'app/forms.py' });
    const hits = r.retrieve(query, 20);
    const raw = hits.find((c) => c.objectName === 'RawIdWidget');
    expect(raw?.reason).toMatch(/member of widgets, a receiver in the query \(widgets\.\)/);
    expect(raw?.viaStructure).toBe(true);
    // "widget" is in every member's name, so it ranks none above the others; "raw" picks RawIdWidget.
    const members = hits.filter((c) => /member of widgets/.test(c.reason));
    expect(members[0].objectName).toBe('RawIdWidget');
    // No shared word, no candidate: a receiver does not bring all its members.
    const bare = r.retrieve('from ui import widgets\n\nx = 1\n', 20);
    expect(bare.some((c) => /member of widgets/.test(c.reason))).toBe(false);
  });

  it('C.m( makes C a receiver: its other members are what the next lines may call', async () => {
    const r = createStructuralRetriever(db, await loadQueryLanguages(), { path: 'app/main.py' });
    const hits = r.retrieve('from lang.grammar import Parser\n\nwords = Parser.parse(data)\n', 20);
    expect(hits.find((c) => c.objectName === 'Parser')?.receiver).toBe(true);
    expect(hits.find((c) => c.objectName === 'Parser.peek')?.reason).toMatch(/member of Parser, a receiver in the query \(Parser\.\)/);
  });

  it('marks the classes the query calls members through (bound to a local, instantiated, a declared base) as receivers, not modules', async () => {
    const r = createStructuralRetriever(db, await loadQueryLanguages(), { path: 'app/main.py' });
    const flags = (query: string) => new Map(r.retrieve(query, 20).map((c) => [c.objectName, c.receiver === true]));
    expect(flags('from lang.grammar import Parser\n\np = Parser()\n').get('Parser')).toBe(true);
    expect(flags('from lang.grammar import Parser\n\nclass Strict(Parser):\n    pass\n').get('Parser')).toBe(true);
    expect(flags('from lang.grammar import Parser\n\nprint(Parser)\n').get('Parser')).toBe(false);
    const mod = [...flags('from lang import grammar\n\np = grammar.Parser()\n')];
    expect(mod.filter(([name, on]) => on && name.includes('grammar'))).toEqual([]);
  });

  it('x.m( on a local the query binds to nothing, resolved to a member of one class: x stands for it, its other members are offered', async () => {
    const r = createStructuralRetriever(db, await loadQueryLanguages(), { path: 'app/main.py' });
    const hits = r.retrieve('def handle(b):\n    b.undo()\n', 20);
    expect(hits.find((c) => c.objectName === 'Beta.undo')?.reason).toMatch(/called in the query as b\.undo/);
    expect(hits.find((c) => c.objectName === 'Beta.apply')?.reason).toMatch(/member of Beta, a receiver in the query \(b\.undo is Beta\.undo\)/);
    // A local the query binds itself keeps its binding's reason; self is the query's own class.
    const typed = r.retrieve('from lang.family import Alpha\n\nb = Alpha()\nb.undo()\n', 20);
    expect(typed.some((c) => /b\.undo is Beta/.test(c.reason))).toBe(false);
    const own = r.retrieve('class Mine:\n    def run(self):\n        self.undo()\n', 20);
    expect(own.some((c) => /self\.undo is Beta/.test(c.reason))).toBe(false);
  });

  it('the same member called through two classes: the next imported classes that define it offer it too', async () => {
    const r = createStructuralRetriever(db, await loadQueryLanguages(), { path: 'app/main.py' });
    const imports = 'from lang.family import Alpha, Beta, Gamma, Delta, Epsilon\n\n';
    const parallel = (query: string) => r.retrieve(imports + query, 20).filter((c) => /through other classes/.test(c.reason)).map((c) => c.objectName);
    // Gamma and Epsilon define apply (Delta does not): offered, the class imported next first.
    const hits = r.retrieve(`${imports}Alpha.apply(x)\nBeta.apply(y)\n`, 20);
    expect(parallel('Alpha.apply(x)\nBeta.apply(y)\n').sort()).toEqual(['Epsilon.apply', 'Gamma.apply']);
    expect(hits.find((c) => c.objectName === 'Gamma.apply')?.reason).toMatch(/member apply of Gamma, imported by the query and not yet used: the query calls apply through other classes/);
    // One class is no family; two different member names are none either.
    expect(parallel('Alpha.apply(x)\n')).toEqual([]);
    expect(parallel('Alpha.apply(x)\nBeta.undo(y)\n')).toEqual([]);
    // The family the query went through before its last member call is done.
    expect(parallel('Alpha.apply(x)\nBeta.apply(y)\nBeta.undo(z)\n')).toEqual([]);
  });

  it.each([
    ['new C().m(', "import { Lexer } from '../web/lexer';\n\nconst words = new Lexer().scan(text);\n", 'Lexer.scan', /Lexer\(\.\.\.\)\.scan/],
    ['const x = new C(); x.m(', "import { Lexer } from '../web/lexer';\n\nconst lx = new Lexer();\nlx.scan(text);\n", 'Lexer.scan', /lx\.scan \(lx: Lexer\)/],
    ['a parameter with a declared type', "import { FastLexer } from '../web/lexer';\n\nexport function run(lx: FastLexer) {\n  return lx.scan(text);\n}\n", 'Lexer.scan', /lx\.scan \(lx: FastLexer\)/],
    ['this.m in a subclass', "import { Lexer } from '../web/lexer';\n\nclass Mine extends Lexer {\n  go() {\n    this.reset();\n  }\n}\n", 'Lexer.reset', /this\.reset \(inherited from Lexer\)/],
  ])('TypeScript: %s', async (_form, query, member, reason) => {
    const hits = await found(query, 'app/main.ts');
    expect(hits.get(member)).toMatch(reason);
  });
});
