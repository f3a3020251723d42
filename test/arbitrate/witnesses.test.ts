import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArbitrateError } from '../../allocator/arbitrate/types.ts';
import { ABSTAIN, PAIRS } from './cases.ts';
import { arbitrator, code, directions, indexedFixture, type Arbitrate } from './fixture.ts';

let fixture: Awaited<ReturnType<typeof indexedFixture>>;
let arb: Arbitrate;
beforeAll(async () => {
  fixture = await indexedFixture();
  arb = arbitrator(fixture.index);
});
afterAll(() => fixture.close());

describe('each witness favours the better program, in both orders', () => {
  for (const p of PAIRS) {
    it(`${p.witness}: ${p.name}`, async () => {
      const forward = await arb(p.worse, p.better, p.opts);
      expect(directions(forward)[p.witness], forward.reason).toBe('alternative');
      expect(forward.choice, JSON.stringify(forward.witnesses, null, 1)).toBe('alternative');
      expect(forward.reason).toMatch(/^alternative: /);
      const backward = await arb(p.better, p.worse, p.opts);
      expect(directions(backward)[p.witness]).toBe('default');
      expect(backward.choice).toBe('default');
      expect(Object.values(directions(backward))).not.toContain('alternative');
    });
  }
});

describe('abstention', () => {
  for (const c of ABSTAIN) {
    it(c.name, async () => {
      for (const [d, a] of [[c.a, c.b], [c.b, c.a]]) {
        const r = await arb(d, a, c.opts);
        expect(r.choice, r.reason).toBe('default');
        expect(r.reason).toMatch(/^default stands/);
      }
    });
  }

  it('no witness fires on two identical programs', async () => {
    const programs = [...PAIRS.flatMap((p) => [{ t: p.worse, o: p.opts }, { t: p.better, o: p.opts }]), ...ABSTAIN.flatMap((c) => [{ t: c.a, o: c.opts }, { t: c.b, o: c.opts }])];
    for (const { t, o } of programs) {
      const r = await arb(t, t, o);
      expect(Object.values(directions(r)), t).toEqual(['none', 'none', 'none', 'none']);
      expect(r.reason).toBe('default stands (abstain): no witness favours the alternative');
    }
  });
});

describe('evidence and scope', () => {
  it('gives the lines and names involved', async () => {
    const p = PAIRS.find((x) => x.name.startsWith('py: a constructor'))!;
    const r = await arb(p.worse, p.better, p.opts);
    const iface = r.witnesses.find((w) => w.type === 'interface')!;
    expect(iface.evidence[0]).toMatchObject({ program: null, detail: 'default 2 mismatches in 4 checked calls; alternative 0 in 4' });
    expect(iface.evidence.slice(1)).toEqual([
      expect.objectContaining({ program: 'default', line: 2, name: 'Stock', detail: expect.stringMatching(/^Stock\(\) takes at most 2 positional arguments \(name, quantity=\), called with 3 \[inventory\/stock\.py:7\]$/) }),
      expect.objectContaining({ program: 'default', line: 3, name: 'self.add', detail: expect.stringMatching(/at most 1 positional argument \(count\), called with 2/) }),
    ]);
    const syntax = r.witnesses.find((w) => w.type === 'syntax')!;
    expect(syntax.evidence).toEqual([{ program: null, line: null, name: null, detail: 'default parses; alternative parses' }]);
    const broken = await arb(PAIRS[0].worse, PAIRS[0].better, PAIRS[0].opts);
    expect(broken.witnesses[0].evidence).toEqual([
      { program: null, line: null, name: null, detail: 'default 1 syntax error; alternative parses' },
      { program: 'default', line: 2, name: null, detail: expect.stringMatching(/^cannot parse "if count <= 0/) },
    ]);
  });

  it('judges a program that does not parse by syntax alone', async () => {
    const r = await arb(PAIRS[0].worse, PAIRS[0].better.replace('return stock.add(count)', 'return stock.add(count) + undefined_thing'), PAIRS[0].opts);
    expect(directions(r)).toEqual({ syntax: 'alternative', interface: 'none', names: 'none', compactness: 'none' });
    expect(r.witnesses[2].evidence[0].detail).toBe('not judged: the default does not parse');
    expect(r.choice).toBe('alternative');
  });

  it('treats a repository name as defined when the scope is unknown (a lone function)', async () => {
    const lone = code(`
      def cheap(amount):
          return apply_discount(amount, 10)
    `);
    const typo = lone.replace('apply_discount', 'apply_discont');
    expect(directions(await arb(lone, lone.replace('10', '10 + 0'), { language: 'python' })).names).toBe('none');
    const r = await arb(typo, lone, { language: 'python' });
    expect(r.choice).toBe('alternative');
    expect(r.witnesses.find((w) => w.type === 'names')!.evidence[1]).toMatchObject({ name: 'apply_discont', line: 2 });
  });

  it('knows builtins and globals', async () => {
    const py = code(`
      def f(xs):
          return sorted(set(map(len, xs)), key=abs) or NotImplemented or __name__
    `);
    const ts = code(`
      export function f(xs: Array<string>, cb: (value: number, index?: number, ...rest: string[]) => void): Promise<number> {
        const m = new Map<string, Partial<Record<string, number>>>();
        const P: PromiseConstructorLike | undefined = undefined;
        cb(1);
        return Promise.resolve(JSON.stringify(xs).length + m.size + Number(process.env.N) + setTimeout.length + (P ? 1 : 0));
      }
    `);
    for (const [t, language] of [[py, 'python'], [ts, 'typescript']] as const) {
      const r = await arb(t, t.replace('(xs', '(  xs'), { language, path: 'x' });
      expect(r.witnesses.find((w) => w.type === 'names')!.evidence[0].detail).toBe('default 0 suspicious names; alternative 0');
    }
  });

  it('never chooses an empty program, and survives odd input', async () => {
    const empty = await arb(PAIRS[0].worse, '# nothing here\n', PAIRS[0].opts);
    expect(empty.choice).toBe('default');
    expect(empty.witnesses[0].evidence.at(-1)).toMatchObject({ program: 'alternative', detail: 'empty: an empty program repairs nothing' });
    expect((await arb('', '', { language: 'python' })).choice).toBe('default');
    expect((await arb('\u0000\uffff(', 'ok()', { language: 'javascript' })).choice).toBe('alternative');
    const long = `def f():\n    return g(${'x, '.repeat(5000)})\n`;
    expect((await arb(long, long, { language: 'python' })).choice).toBe('default');
  });

  it('rejects unknown targets and unsupported languages', async () => {
    await expect(arb('x', 'y', { language: 'python', at: { path: 'nope.py' } })).rejects.toBeInstanceOf(ArbitrateError);
    await expect(arb('x', 'y', { language: 'python', at: { path: 'inventory/stock.py', symbol: 'Nope' } })).rejects.toThrow(/no symbol Nope/);
    await expect(arb('x', 'y', { language: 'typescript', at: { path: 'inventory/stock.py' } })).rejects.toThrow(/is python/);
    await expect(arb('x', 'y', { language: 'go' as 'python' })).rejects.toThrow(/arbitration reads/);
  });
});
