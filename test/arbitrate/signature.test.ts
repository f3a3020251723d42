import { describe, expect, it } from 'vitest';
import type { CallSite } from '../../allocator/arbitrate/facts.ts';
import { callMismatch, parseParams } from '../../allocator/arbitrate/signature.ts';

const call = (positional: number, keywords: string[] = [], spread = false): CallSite => ({
  line: 1, name: 'f', qualifier: null, positional, keywords, spread, isNew: false, enclosingClass: null,
});

describe('parameter lists from signatures', () => {
  it('reads Python defaults, *args, keyword-only parameters, **kwargs and the receiver', () => {
    const p = parseParams('def f(self, a, b: int = 3, *args, c, d=1, **kw) -> X:', 'f', 'python')!;
    expect(p.receiver).toBe('self');
    expect(p.positional).toEqual([{ name: 'a', optional: false }, { name: 'b', optional: true }]);
    expect(p.keywordOnly).toEqual([{ name: 'c', optional: false }, { name: 'd', optional: true }]);
    expect(p).toMatchObject({ varPositional: true, varKeyword: true });
    expect(parseParams('async def g(cls, x=(1, 2), *, y={"a": [1, 2]}):', 'g', 'python')).toMatchObject({
      receiver: 'cls', positional: [{ name: 'x', optional: true }], keywordOnly: [{ name: 'y', optional: true }],
    });
    expect(parseParams('def h(a, /, b, *, c):', 'h', 'python')!.positional.map((x) => x.name)).toEqual(['a', 'b']);
  });

  it('reads TypeScript optional, default, rest, destructured and `this` parameters', () => {
    const p = parseParams('export function f<T extends (a: number) => void>(this: W, a: T, b?: number, { x, y }: O = {}, ...rest: T[]): void', 'f', 'typescript')!;
    expect(p.positional).toEqual([{ name: 'a', optional: false }, { name: 'b', optional: true }, { name: '{ x, y }', optional: true }]);
    expect(p.varPositional).toBe(true);
    expect(parseParams('constructor(private readonly owner: string, n = 2)', 'constructor', 'typescript')!.positional).toEqual([
      { name: 'owner', optional: false }, { name: 'n', optional: true },
    ]);
    expect(parseParams('export const sum = (...xs: number[]): number => xs.reduce((a, b) => a + b, 0);', 'sum', 'typescript')).toMatchObject({ positional: [], varPositional: true });
    expect(parseParams('const twice = x => x * 2;', 'twice', 'javascript')!.positional).toEqual([{ name: 'x', optional: false }]);
    expect(parseParams('const g = async function inner(a, b) {', 'g', 'javascript')!.positional).toHaveLength(2);
    expect(parseParams('render(lines: Map<string, Array<number>>, cb: (e: Error) => void): string', 'render', 'typescript')!.positional.map((x) => x.name)).toEqual(['lines', 'cb']);
  });

  it('gives up (null) where a list cannot be read with certainty', () => {
    expect(parseParams('def f(a, # the first', 'f', 'python')).toBeNull(); // truncated
    expect(parseParams('def f(a, # the first b):', 'f', 'python')).toBeNull(); // comment inside a collapsed head
    expect(parseParams('def f(key=lambda a, b: a):', 'f', 'python')).toBeNull(); // a lambda's commas
    expect(parseParams('const f: Handler = (req, res) => {', 'f', 'typescript')).toBeNull(); // contextually typed
    expect(parseParams('get size(): number', 'size', 'typescript')).toBeNull(); // accessor
  });
});

describe('argument counts against parameters', () => {
  const py = parseParams('def apply(amount, percent=0, *, rate, **_):', 'apply', 'python')!;
  it('accepts bindable calls and explains the others', () => {
    expect(callMismatch(py, call(1, ['rate']), 'plain', 'python')).toBeNull();
    expect(callMismatch(py, call(2, ['rate', 'anything']), 'plain', 'python')).toBeNull();
    expect(callMismatch(py, call(3, ['rate']), 'plain', 'python')).toMatch(/at most 2 positional/);
    expect(callMismatch(py, call(1), 'plain', 'python')).toMatch(/missing rate/);
    expect(callMismatch(py, call(1, ['amount', 'rate']), 'plain', 'python')).toMatch(/two values for amount/);
    expect(callMismatch(py, call(9, [], true), 'plain', 'python')).toBeNull(); // *args at the call: not countable
    const strict = parseParams('def f(a):', 'f', 'python')!;
    expect(callMismatch(strict, call(1, ['b']), 'plain', 'python')).toMatch(/no parameter b/);
  });

  it('drops self for instance calls and keeps it for calls through the class', () => {
    const m = parseParams('def add(self, count):', 'add', 'python')!;
    expect(callMismatch(m, call(1), 'instance', 'python')).toBeNull();
    expect(callMismatch(m, call(2), 'class', 'python')).toBeNull();
    expect(callMismatch(m, call(1), 'class', 'python')).toMatch(/missing count/);
  });

  it('lets JavaScript callees take fewer arguments but not more', () => {
    const js = parseParams('function pad(text, width) {', 'pad', 'javascript')!;
    expect(callMismatch(js, call(1), 'plain', 'javascript')).toBeNull();
    expect(callMismatch(js, call(3), 'plain', 'javascript')).toMatch(/at most 2/);
    const ts = parseParams('function pad(text: string, width: number, fill?: string): string', 'pad', 'typescript')!;
    expect(callMismatch(ts, call(1), 'plain', 'typescript')).toMatch(/missing width/);
    expect(callMismatch(ts, call(3), 'plain', 'typescript')).toBeNull();
  });
});
