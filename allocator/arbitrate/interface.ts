/**
 * Interface consistency: calls to the program's own and the repository's
 * functions and classes must resolve to existing objects and bind to their
 * parameter lists (read from the indexed signatures). A call counts as a
 * mismatch only when every object it may reach is known and none accepts it;
 * calls whose callee or signature is unknown are left out.
 */
import type { CodeObject } from '../../indexer/types.ts';
import type { CallSite, LocalDef, ProgramFacts } from './facts.ts';
import { resolveMember, resolveName, type Scope, type Target } from './scope.ts';
import { callMismatch, parseParams, type CallVia, type Params } from './signature.ts';
import { ARBITRATE_LANGUAGES, type ArbitrateLanguage, type Evidence, type Witness } from './types.ts';

/** Decorators that leave a function's parameters as written (names without arguments or module prefix). */
const PRESERVING_DECORATORS = new Set([
  'staticmethod', 'classmethod', 'abstractmethod', 'override', 'final', 'overload', 'cache', 'lru_cache',
  'contextmanager', 'asynccontextmanager', 'deprecated', 'wraps',
]);

export interface InterfaceReport {
  program: 'default' | 'alternative';
  /** Calls whose every possible callee has a known signature. */
  checked: number;
  mismatches: Evidence[];
}

/** One object a call may reach, with its parameters (null: unknown). */
interface Callee {
  params: Params | null;
  via: CallVia;
  language: ArbitrateLanguage;
  where: string;
}

function preserving(decorators: string[]): boolean {
  return decorators.every((d) => PRESERVING_DECORATORS.has(d.replace(/\(.*$/s, '').split('.').at(-1)!.trim()));
}

function isLanguage(l: string): l is ArbitrateLanguage {
  return (ARBITRATE_LANGUAGES as readonly string[]).includes(l);
}

function localCallees(defs: LocalDef[], program: ProgramFacts, via: CallVia, isNew: boolean): Callee[] {
  const out: Callee[] = [];
  for (const d of defs) {
    const where = `line ${d.line} of the program`;
    if (d.kind === 'function') {
      out.push({ params: preserving(d.decorators) ? parseParams(d.signature, d.name, program.language) : null, via, language: program.language, where });
      continue;
    }
    if (program.language !== 'python' && !isNew) {
      out.push({ params: null, via, language: program.language, where });
      continue;
    }
    const ctor = constructorOf(program.defs.filter((m) => m.className === d.name && m.kind === 'function'), program.language);
    out.push(
      ctor && preserving(ctor.decorators)
        ? { params: parseParams(ctor.signature, ctor.name, program.language), via: 'instance', language: program.language, where: `line ${ctor.line} of the program` }
        : { params: null, via, language: program.language, where },
    );
  }
  return out;
}

function constructorOf<T extends { name: string }>(members: T[], language: ArbitrateLanguage): T | undefined {
  if (language === 'python') return members.find((m) => m.name === '__init__') ?? members.find((m) => m.name === '__new__');
  return members.find((m) => m.name === 'constructor');
}

function repoCallees(objects: CodeObject[], scope: Scope, via: CallVia, isNew: boolean): Callee[] {
  return objects.map((o): Callee => {
    const language = o.language;
    const where = `${o.path}:${o.startLine}`;
    if (!isLanguage(language)) return { params: null, via, language: scope.language, where };
    if (o.kind === 'function' || o.kind === 'method') {
      const params = preserving(scope.repo.decorators(o)) ? parseParams(o.signature, o.name, language) : null;
      return { params, via, language, where };
    }
    if (o.kind === 'class' && (language === 'python' || isNew)) {
      const ctor = constructorOf(scope.repo.index.members(o.id), language);
      if (ctor && preserving(scope.repo.decorators(ctor))) {
        return { params: parseParams(ctor.signature, ctor.name, language), via: language === 'python' ? 'instance' : 'plain', language, where: `${ctor.path}:${ctor.startLine}` };
      }
    }
    return { params: null, via, language, where };
  });
}

const SELF = new Set(['self', 'this', 'cls']);

/** The objects a call may reach, a definite "does not exist", or null when the callee is not followed. */
function calleesOf(call: CallSite, program: ProgramFacts, scope: Scope): Callee[] | { missing: string } | null {
  const fromTarget = (t: Target, via: CallVia): Callee[] | { missing: string } | null => {
    if (t.kind === 'missing') return { missing: t.detail };
    if (t.kind === 'objects') return repoCallees(t.objects, scope, via, call.isNew);
    return null;
  };
  if (call.qualifier === null) {
    const t = resolveName(call.name, program, scope);
    if (!t) return null;
    if (t.kind === 'local') return localCallees(program.defs.filter((d) => d.name === call.name && d.className === null), program, 'plain', call.isNew);
    return fromTarget(t, 'plain');
  }
  if (SELF.has(call.qualifier)) {
    const cls = call.enclosingClass;
    if (cls !== null) {
      const own = program.defs.filter((d) => d.className === cls && d.name === call.name && d.kind === 'function');
      if (own.length) return localCallees(own, program, 'instance', false);
    }
    const t = scope.target;
    if (!t?.cls || (cls !== null && cls !== t.cls.name)) return null;
    // The method being replaced calling itself: the candidate's own definition is the one that counts.
    if (cls === null && t.symbol?.name === call.name) {
      const own = program.defs.filter((d) => d.className === null && d.name === call.name && d.kind === 'function');
      if (own.length) return localCallees(own, program, 'instance', false);
    }
    const members = scope.repo.member(t.cls, call.name);
    return members.length ? repoCallees(members, scope, 'instance', false) : null;
  }
  if (call.qualifier === '?') return null;
  const [head, ...rest] = call.qualifier.split('.');
  if (rest.length === 0) {
    // `C.m(...)` on a class the program defines.
    const ownClass = program.defs.find((d) => d.kind === 'class' && d.name === head);
    if (ownClass) {
      const own = program.defs.filter((d) => d.className === head && d.name === call.name && d.kind === 'function');
      return own.length ? localCallees(own, program, 'class', false) : null;
    }
  }
  let t = resolveName(head, program, scope);
  if (!t || t.kind === 'local') return null;
  for (const seg of rest) {
    t = resolveMember(t, seg, scope);
    if (t.kind === 'missing') return { missing: t.detail };
    if (t.kind === 'unknown') return null;
  }
  const viaClass = t.kind === 'objects' && t.objects.length === 1 && t.objects[0].kind === 'class';
  if (t.kind !== 'module' && !viaClass) return null;
  return fromTarget(resolveMember(t, call.name, scope), viaClass ? 'class' : 'plain');
}

/** Checks every call of one program. */
export function interfaceReport(program: ProgramFacts, scope: Scope, who: 'default' | 'alternative'): InterfaceReport {
  const report: InterfaceReport = { program: who, checked: 0, mismatches: [] };
  for (const call of program.calls) {
    const display = call.qualifier ? `${call.qualifier}.${call.name}` : call.name;
    const found = calleesOf(call, program, scope);
    if (!found) continue;
    if (!Array.isArray(found)) {
      report.checked++;
      report.mismatches.push({ program: who, line: call.line, name: display, detail: `${display}(): ${found.missing}` });
      continue;
    }
    if (!found.length || found.some((c) => c.params === null) || call.spread) continue;
    report.checked++;
    const problems = found.map((c) => callMismatch(c.params!, call, c.via, c.language));
    if (problems.every((p) => p !== null)) {
      report.mismatches.push({ program: who, line: call.line, name: display, detail: `${display}() ${problems[0]} [${found[0].where}]` });
    }
  }
  return report;
}

export function interfaceWitness(def: InterfaceReport, alt: InterfaceReport): Witness {
  const d = def.mismatches.length;
  const a = alt.mismatches.length;
  const summary = `default ${d} mismatch${d === 1 ? '' : 'es'} in ${def.checked} checked call${def.checked === 1 ? '' : 's'}; alternative ${a} in ${alt.checked}`;
  return {
    type: 'interface',
    direction: a < d ? 'alternative' : d < a ? 'default' : 'none',
    evidence: [{ program: null, line: null, name: null, detail: summary }, ...def.mismatches, ...alt.mismatches],
  };
}
