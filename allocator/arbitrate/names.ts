/**
 * Suspicious-name reduction: names a program reads that nothing binds. A name
 * is fine when the program binds it (definitions, parameters, assignments,
 * imports), the target file binds it (`--at`), a repository module imported
 * with a wildcard provides it, or it is built in for the language. Otherwise it
 * is suspicious when the repository does not define it either; when the
 * program's scope is known (a target file, or a program with its own imports)
 * a name the repository defines elsewhere but that is not imported here is
 * suspicious too. A wildcard import from outside the repository may bind
 * anything: the witness then cannot judge.
 */
import { languageOf } from '../../indexer/languages/registry.ts';
import type { CodeObject } from '../../indexer/types.ts';
import { JS_GLOBAL_VALUES, TS_GLOBAL_TYPES } from './builtins/javascript.ts';
import { PYTHON_BUILTINS } from './builtins/python.ts';
import { TS_LIB_NAMES } from './builtins/typescript-lib.ts';
import type { ImportRecord, ProgramFacts } from './facts.ts';
import type { Repo, Scope } from './scope.ts';
import type { ArbitrateLanguage, Evidence, Witness } from './types.ts';

export interface NamesReport {
  program: 'default' | 'alternative';
  /** Null when the names can be judged; otherwise why not (a wildcard import from outside the repository). */
  unjudged: string | null;
  suspicious: Evidence[];
}

const NOT_NAMES = new Set(['method', 'module', 'file']);
const MAX_WILDCARD_HOPS = 4;

function family(l: string): 'python' | 'script' | 'other' {
  return l === 'python' ? 'python' : l === 'typescript' || l === 'tsx' || l === 'javascript' ? 'script' : 'other';
}

function isBuiltin(name: string, language: ArbitrateLanguage): boolean {
  return language === 'python' ? PYTHON_BUILTINS.has(name) : JS_GLOBAL_VALUES.has(name) || TS_GLOBAL_TYPES.has(name) || TS_LIB_NAMES.has(name);
}

/** Names wildcard imports provide (their modules' bindings, transitively), or why they cannot be known. */
function wildcardNames(repo: Repo, imports: ImportRecord[], fromPath: string, language: ArbitrateLanguage, into: Set<string>, hops = 0, seen = new Set<string>()): string | null {
  for (const w of imports) {
    if (!w.wildcard) continue;
    const files = repo.moduleFiles(w.module, fromPath, language);
    if (!files.length) return `a wildcard import from ${w.module} (outside the repository) may bind any name`;
    for (const f of files) {
      if (seen.has(f)) continue;
      seen.add(f);
      const facts = repo.moduleFacts(f);
      const fl = languageOf(f);
      if (!facts || family(fl) !== family(language)) return `a wildcard import from ${w.module} cannot be read`;
      for (const b of facts.bindings) into.add(b);
      for (const o of repo.topLevel(f)) into.add(o.name);
      if (hops < MAX_WILDCARD_HOPS) {
        const why = wildcardNames(repo, facts.imports, f, fl as ArbitrateLanguage, into, hops + 1, seen);
        if (why) return why;
      }
    }
  }
  return null;
}

export function namesReport(program: ProgramFacts, scope: Scope, who: 'default' | 'alternative'): NamesReport {
  const report: NamesReport = { program: who, unjudged: null, suspicious: [] };
  const { repo, target, language } = scope;
  const provided = new Set<string>();
  const own = program.imports.filter((r) => !r.reexport);
  const why =
    wildcardNames(repo, own, scope.fromPath, language, provided) ??
    (target ? wildcardNames(repo, target.facts.imports.filter((r) => !r.reexport), target.path, target.language, provided) : null);
  if (why) {
    report.unjudged = why;
    return report;
  }
  if (target && target.language !== 'python' && !target.facts.isModule && !target.facts.uses.has('module') && !target.facts.uses.has('exports')) {
    report.unjudged = `${target.path} is a script, not a module: it sees the globals of the page's other scripts`;
    return report;
  }
  const closed = target !== null || program.topLevelImports;
  for (const [name, line] of program.uses) {
    if (program.bindings.has(name) || target?.facts.bindings.has(name) || provided.has(name) || isBuiltin(name, language)) continue;
    const defined = repo.objectsNamed(name).filter((o: CodeObject) => !NOT_NAMES.has(o.kind) && family(o.language) === family(language));
    // TypeScript declaration files declare globals.
    if (family(language) === 'script' && defined.some((o) => o.path.endsWith('.d.ts'))) continue;
    if (!defined.length) {
      report.suspicious.push({ program: who, line, name, detail: `${name} is bound nowhere: not in the program, its imports, the builtins or the repository` });
    } else if (closed) {
      const o = defined[0];
      report.suspicious.push({ program: who, line, name, detail: `${name} is defined in the repository (${o.path}:${o.startLine}) but not imported here` });
    }
  }
  return report;
}

export function namesWitness(def: NamesReport, alt: NamesReport): Witness {
  const unjudged = def.unjudged ?? alt.unjudged;
  if (unjudged) {
    return { type: 'names', direction: 'none', evidence: [{ program: null, line: null, name: null, detail: `cannot judge: ${unjudged}` }] };
  }
  const d = def.suspicious.length;
  const a = alt.suspicious.length;
  return {
    type: 'names',
    direction: a < d ? 'alternative' : d < a ? 'default' : 'none',
    evidence: [
      { program: null, line: null, name: null, detail: `default ${d} suspicious name${d === 1 ? '' : 's'}; alternative ${a}` },
      ...def.suspicious,
      ...alt.suspicious,
    ],
  };
}
