// Error recovery: a syntax error never loses the declarations after it.
import { describe, expect, it } from 'vitest';
import { extractionHarness, objects, refs } from './harness.ts';

const { extractText } = extractionHarness('recovery');

describe('declarations after a syntax error survive', () => {
  it.each([
    {
      name: 'broken.js',
      text: 'function before() { return 1 }\n\nfunction broken() {\n  if (x {\n    return [1, 2\n}\n\nfunction after() { return before() }\n\nclass Later {\n  run() { return after() }\n}\n',
      kept: ['function before 1-1', 'function after 8-8', 'class Later 10-12', 'method Later.run 11-11'],
      calls: ['8 call before <- after', '11 call after <- Later.run'],
    },
    {
      name: 'broken.py',
      text: 'def before():\n    return 1\n\nclass Broken:\n    def m(self:\n        return [1,\n\ndef after():\n    return before()\n\nclass Later:\n    pass\n',
      kept: ['function before 1-2', 'function after 8-9', 'class Later 11-12'],
      calls: ['9 call before <- after'],
    },
    {
      name: 'broken.kt',
      text: 'fun before() = 1\n\nclass Broken {\n    fun m( {\n}\n\nfun after() = before()\n\nobject Later { fun run() = after() }\n',
      kept: ['function before 1-1', 'function after 7-7', 'class Later 9-9', 'method Later.run 9-9'],
      calls: ['7 call before <- after', '9 call after <- Later.run'],
    },
    {
      // inside a namespace only the broken declaration is re-parsed: the rest keeps the namespace's qualification
      name: 'broken.cc',
      text: 'namespace store {\n\nint before() { return 1; }\n\nint broken() {\n  return 1 +;\n}\n\nint after() { return before(); }\n\n}  // namespace store\n',
      kept: ['function store.before 3-3', 'function store.broken 5-7', 'function store.after 9-9'],
      calls: ['9 call before <- store.after'],
    },
  ])('$name', async ({ name, text, kept, calls }) => {
    const f = await extractText(name, text);
    expect(f.parseErrors).toBeGreaterThan(0);
    expect(objects(f)).toEqual(expect.arrayContaining(kept));
    expect(refs(f)).toEqual(expect.arrayContaining(calls));
  });

  it('reads a TypeScript interface of generic call signatures and everything after it (hono types.ts shape)', async () => {
    const text = [
      'export interface HandlerInterface<E extends Env = Env> {',
      '  // app.get(handler)',
      '  <',
      '    P extends string = string,',
      '    R = any,',
      '  >(',
      '    handler: H<E, P, R>',
      '  ): Hono<E, P>',
      '',
      '  // app.get(path, handler)',
      '  <P extends string, R = any>(path: P, handler: H<E, P, R>): Hono<E, P>',
      '}',
      '',
      'export type Schema = { [path: string]: Endpoint }',
      'export interface MiddlewareHandlerInterface<E extends Env = Env> {',
      '  <P extends string>(path: P): Hono<E, P>',
      '  <P extends string>(path: P, ...handlers: H<E, P>[]): Hono<E, P>',
      '}',
      'export function defineRoute(path: string): Schema { return toSchema(path) }',
      '',
    ].join('\n');
    const f = await extractText('types.ts', text);
    expect(f.parseErrors).toBe(0);
    expect(objects(f)).toEqual(['module types 1-19', 'interface HandlerInterface 1-12', 'type Schema 14-14', 'interface MiddlewareHandlerInterface 15-18', 'function defineRoute 19-19']);
    // The repair that separates the signatures never changes the text objects quote.
    expect(f.objects[1].signature).toBe('interface HandlerInterface<E extends Env = Env>');
    expect(f.text).toBe(text);
  });

  it('reads C++ classes marked with export and thread-safety macros as clean code, statements using macros as calls', async () => {
    const text = [
      'class STORE_EXPORT Cache {',
      ' public:',
      '  static Cache OK() { return Cache(); }',
      '  void Insert(int key) EXCLUSIVE_LOCKS_REQUIRED(mu_);',
      '  int Lookup(int key, int* out)',
      '      LOCKS_EXCLUDED(mu_);',
      '  ~Cache() UNLOCK_FUNCTION() { Clear(); }',
      ' private:',
      '  int Clear() {',
      '    // the count ends here (see Insert)',
      '    CHECK_OK(count_);',
      '    if (count_ > 0) CHECK_NE(count_, 0);',
      '    return count_;',
      '  }',
      '  int count_ GUARDED_BY(mu_);',
      '  int slots_[4] GUARDED_BY(mu_);',
      '};',
      '',
    ].join('\n');
    const f = await extractText('cache.h', text);
    expect(f.language).toBe('cpp');
    expect(f.parseErrors).toBe(0);
    // `OK()` is a method whose name is all capitals, not an annotation (prototypes are no objects); the macros in
    // statements stay calls.
    expect(objects(f)).toEqual(['module cache 1-17', 'class Cache 1-17', 'method Cache.OK 3-3', 'method Cache.~Cache 7-7', 'method Cache.Clear 9-14']);
    expect(refs(f)).toEqual(expect.arrayContaining(['11 call CHECK_OK <- Cache.Clear', '12 call CHECK_NE <- Cache.Clear']));
    expect(f.objects[1].signature).toBe('class STORE_EXPORT Cache');
  });
});
