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

const decoratorName = (d: string) => d.replace(/\(.*$/s, '').split('.').at(-1)!.trim();

/**
 * The parameters of a function from its declaration head, or null when they
 * are not known: a decorator that may change them, an unreadable head.
 * A method's first parameter is its receiver whatever its name, unless it is a static method.
 */
export function functionParams(signature: string, name: string, language: ArbitrateLanguage, decorators: string[], isMethod: boolean): Params | null {
  const names = decorators.map(decoratorName);
  if (!names.every((d) => PRESERVING_DECORATORS.has(d))) return null;
  const receiver = language !== 'python' ? 'none' : !isMethod ? 'named' : names.includes('staticmethod') ? 'none' : 'first';
  const params = parseParams(signature, name, language, receiver);
  if (params && isMethod && language === 'python') {
    // A class method's receiver is the class however it is named; `__new__` is a static method that takes the class explicitly.
    if (names.includes('classmethod')) params.receiver = 'cls';
    else if (name === '__new__') params.receiver = 'explicit';
  }
  return params;
}

function isLanguage(l: string): l is ArbitrateLanguage {
  return (ARBITRATE_LANGUAGES as readonly string[]).includes(l);
}

/** `asMethods`: the definitions are methods even without a class in the program (a method candidate). */
function localCallees(defs: LocalDef[], program: ProgramFacts, via: CallVia, isNew: boolean, asMethods = false): Callee[] {
  const out: Callee[] = [];
  for (const d of defs) {
    const where = `line ${d.line} of the program`;
    if (d.kind === 'function') {
      out.push({ params: functionParams(d.signature, d.name, program.language, d.decorators, asMethods || d.className !== null), via, language: program.language, where });
      continue;
    }
    if (program.language !== 'python' && !isNew) {
      out.push({ params: null, via, language: program.language, where });
      continue;
    }
    const ctors = constructorsOf(program.defs.filter((m) => m.className === d.name && m.kind === 'function'), program.language);
    if (!ctors.length) out.push({ params: null, via, language: program.language, where });
    for (const c of ctors) {
      const params = functionParams(c.signature, c.name, program.language, c.decorators, true);
      out.push({ params, via: 'constructor', language: program.language, where: `line ${c.line} of the program` });
    }
  }
  return out;
}

/** A class's constructors: every `__init__` (else every `__new__`), every `constructor` overload. */
function constructorsOf<T extends { name: string }>(members: T[], language: ArbitrateLanguage): T[] {
  if (language !== 'python') return members.filter((m) => m.name === 'constructor');
  const init = members.filter((m) => m.name === '__init__');
  return init.length ? init : members.filter((m) => m.name === '__new__');
}

function repoCallees(objects: CodeObject[], scope: Scope, via: CallVia, isNew: boolean): Callee[] {
  return objects.flatMap((o): Callee[] => {
    const language = o.language;
    const where = `${o.path}:${o.startLine}`;
    if (!isLanguage(language)) return [{ params: null, via, language: scope.language, where }];
    if (o.kind === 'function' || o.kind === 'method') {
      return [{ params: functionParams(o.signature, o.name, language, scope.repo.decorators(o), o.kind === 'method'), via, language, where }];
    }
    if (o.kind === 'class' && (language === 'python' || isNew)) {
      const ctors = constructorsOf(scope.repo.index.members(o.id), language);
      if (ctors.length) {
        return ctors.map((c): Callee => ({
          params: functionParams(c.signature, c.name, language, scope.repo.decorators(c), true),
          via: 'constructor',
          language,
          where: `${c.path}:${c.startLine}`,
        }));
      }
    }
    return [{ params: null, via, language, where }];
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
    if (!t?.selfClass || (cls !== null && cls !== t.selfClass.name)) return null;
    // The method being replaced calling itself: the candidate's own definition is the one that counts.
    if (cls === null && t.cls && t.symbol?.name === call.name) {
      const own = program.defs.filter((d) => d.className === null && d.name === call.name && d.kind === 'function');
      if (own.length) return localCallees(own, program, 'instance', false, true);
    }
    const members = scope.repo.inheritedMember(t.selfClass, call.name);
    return members?.length ? repoCallees(members, scope, 'instance', false) : null;
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
