/**
 * The transfer gate: the output switches from the default program to the
 * alternative only when at least one typed witness favours the alternative
 * and none favours the default; otherwise the default stands (abstention).
 */
import { compactnessWitness } from './compactness.ts';
import { interfaceReport, interfaceWitness } from './interface.ts';
import { namesReport, namesWitness } from './names.ts';
import { Repo, type Scope } from './scope.ts';
import { syntaxWitness } from './syntax.ts';
import {
  ARBITRATE_LANGUAGES,
  ArbitrateError,
  type ArbitrateIndex,
  type ArbitrateOptions,
  type Arbitration,
  type Witness,
  type WitnessType,
} from './types.ts';

const LABEL: Record<WitnessType, string> = {
  syntax: 'syntax repair',
  interface: 'interface consistency',
  names: 'suspicious names',
  compactness: 'validity-guarded compactness',
};

/** The gate over computed witnesses: pure. */
export function decide(witnesses: Witness[]): Arbitration {
  const forAlt = witnesses.filter((w) => w.direction === 'alternative');
  const forDef = witnesses.filter((w) => w.direction === 'default');
  const describe = (ws: Witness[]) => ws.map((w) => `${LABEL[w.type]} (${w.evidence[0]?.detail ?? ''})`).join('; ');
  const names = (ws: Witness[]) => ws.map((w) => LABEL[w.type]).join(', ');
  if (forAlt.length && !forDef.length) {
    return { choice: 'alternative', witnesses, reason: `alternative: ${describe(forAlt)}; no witness favours the default` };
  }
  let reason: string;
  if (forAlt.length) reason = `default stands (abstain): ${names(forAlt)} favour${forAlt.length === 1 ? 's' : ''} the alternative but ${names(forDef)} favour${forDef.length === 1 ? 's' : ''} the default`;
  else if (forDef.length) reason = `default stands: ${describe(forDef)}`;
  else reason = 'default stands (abstain): no witness favours the alternative';
  return { choice: 'default', witnesses, reason };
}

/**
 * Chooses between two candidate programs with typed witnesses computed
 * against the repository's index. `options.at` names the file (and symbol)
 * the candidate is meant for: its imports and top-level names are the
 * candidate's scope. Throws ArbitrateError for an unknown `at` path or symbol
 * or an unsupported language; bad programs are never an error.
 */
export async function arbitrate(defaultText: string, alternativeText: string, options: ArbitrateOptions, index: ArbitrateIndex): Promise<Arbitration> {
  const { language } = options;
  if (!(ARBITRATE_LANGUAGES as readonly string[]).includes(language)) {
    throw new ArbitrateError(`arbitration reads ${ARBITRATE_LANGUAGES.join(', ')}, not ${language}`);
  }
  const repo = await Repo.of(index);
  const target = options.at ? repo.target(options.at.path, options.at.symbol) : null;
  if (target && (target.language === 'python') !== (language === 'python')) {
    throw new ArbitrateError(`--at ${options.at!.path} is ${target.language}, the candidates are ${language}`);
  }
  const scope: Scope = { repo, language, fromPath: options.at?.path ?? options.path ?? '', target };
  // A candidate for a method of a TS/JS class is read as a class member first.
  const preferClassBody = language !== 'python' && target?.cls != null;
  const def = repo.analyze(defaultText, language, { preferClassBody });
  const alt = repo.analyze(alternativeText, language, { preferClassBody });

  const syntax = syntaxWitness(def, alt);
  const iDef = interfaceReport(def, scope, 'default');
  const iAlt = interfaceReport(alt, scope, 'alternative');
  const nDef = namesReport(def, scope, 'default');
  const nAlt = namesReport(alt, scope, 'alternative');
  const invalid = (f: typeof def, i: typeof iDef, n: typeof nDef): string[] => [
    ...(f.errorCount ? [`${f.errorCount} syntax error(s)`] : []),
    ...(i.mismatches.length ? [`${i.mismatches.length} call mismatch(es)`] : []),
    ...(n.unjudged ? ['names cannot be judged'] : n.suspicious.length ? [`${n.suspicious.length} suspicious name(s)`] : []),
  ];
  // Facts read from an error-recovered tree are not reliable: a program that does not parse is judged by syntax alone.
  const broken = [def.errorCount ? 'default' : null, alt.errorCount ? 'alternative' : null].filter(Boolean).join(' and ');
  const unjudged = (type: 'interface' | 'names'): Witness => ({
    type,
    direction: 'none',
    evidence: [{ program: null, line: null, name: null, detail: `not judged: the ${broken} do${broken.includes(' and ') ? '' : 'es'} not parse` }],
  });
  return decide([
    syntax,
    broken ? unjudged('interface') : interfaceWitness(iDef, iAlt),
    broken ? unjudged('names') : namesWitness(nDef, nAlt),
    compactnessWitness(def, alt, { default: invalid(def, iDef, nDef), alternative: invalid(alt, iAlt, nAlt) }),
  ]);
}
