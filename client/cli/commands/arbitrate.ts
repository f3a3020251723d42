import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { ARBITRATE_LANGUAGES, ArbitrateError, type ArbitrateLanguage, type Arbitration } from '../../../allocator/arbitrate/types.ts';
import type { Language } from '../../../indexer/types.ts';
import { resolveDb, resolveRepo, UsageError } from '../repo.ts';

interface ArbitrateFlags {
  default: string;
  alternative: string;
  language?: string;
  at?: string;
  json?: boolean;
}

const LANGUAGE_NAMES: Record<string, ArbitrateLanguage> = {
  py: 'python', python: 'python', ts: 'typescript', typescript: 'typescript', tsx: 'tsx',
  js: 'javascript', jsx: 'javascript', mjs: 'javascript', cjs: 'javascript', javascript: 'javascript',
};

function isArbitrateLanguage(l: string): l is ArbitrateLanguage {
  return (ARBITRATE_LANGUAGES as readonly string[]).includes(l);
}

function readProgram(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}

/** `--language`, else the candidates' extensions, else the `--at` file's. */
function chooseLanguage(flags: ArbitrateFlags, atPath: string | undefined, languageOf: (file: string) => Language): ArbitrateLanguage {
  if (flags.language !== undefined) {
    const l = LANGUAGE_NAMES[flags.language.toLowerCase()];
    if (!l) throw new UsageError(`unknown --language "${flags.language}" (known: ${Object.keys(LANGUAGE_NAMES).join(', ')})`);
    return l;
  }
  const inferred: Language[] = [...new Set([flags.default, flags.alternative].map((f) => languageOf(f)).filter((l) => l !== 'text'))];
  if (inferred.length > 1) throw new UsageError(`the candidates' extensions disagree (${inferred.join(', ')}): pass --language`);
  const target: Language = atPath ? languageOf(atPath) : 'text';
  const l: Language = inferred[0] ?? target;
  if (l === 'text') throw new UsageError('cannot tell the language from the file names: pass --language py|ts|tsx|js');
  if (!isArbitrateLanguage(l)) throw new UsageError(`arbitration reads ${ARBITRATE_LANGUAGES.join(', ')}, not ${l}`);
  // Candidates saved as .ts for a .tsx (or .js) target are read with the target's grammar.
  if (isArbitrateLanguage(target) && l !== 'python' && target !== 'python') return target;
  return l;
}

/** `path[:symbol]` with the path made repository-relative. */
function parseAt(at: string, repo: string): { path: string; symbol?: string } {
  const colon = at.lastIndexOf(':');
  const hasSymbol = colon > 0 && !at.slice(colon + 1).includes('/');
  const file = hasSymbol ? at.slice(0, colon) : at;
  const symbol = hasSymbol ? at.slice(colon + 1) || undefined : undefined;
  const candidates = path.isAbsolute(file) ? [file] : [path.resolve(process.cwd(), file), path.resolve(repo, file)];
  const inside = candidates.map((c) => path.relative(repo, c)).find((r) => !r.startsWith('..') && !path.isAbsolute(r) && fs.existsSync(path.join(repo, r)));
  const rel = (inside ?? path.relative(repo, candidates.at(-1)!)).split(path.sep).join('/');
  if (rel.startsWith('..')) throw new UsageError(`--at ${file} is outside the repository ${repo}`);
  return { path: rel, symbol };
}

export function registerArbitrate(program: Command): void {
  program
    .command('arbitrate')
    .description('choose between two candidate programs: switch to the alternative only when a typed witness from the index says it is better')
    .requiredOption('--default <file>', 'the program that stands unless a witness favours the alternative')
    .requiredOption('--alternative <file>', 'the candidate to switch to')
    .option('--language <name>', 'py, ts, tsx or js (default: from the file extensions)')
    .option('--at <path[:symbol]>', 'the repository file (and symbol) the candidate is meant for: its imports and names are in scope')
    .option('--json', 'print {choice, witnesses: [{type, direction, evidence}], reason}')
    .action(async (flags: ArbitrateFlags, cmd: Command) => {
      const global = cmd.optsWithGlobals() as { repo?: string; db?: string };
      const defaultText = readProgram(flags.default);
      const alternativeText = readProgram(flags.alternative);
      const repo = resolveRepo(global.repo);
      const at = flags.at !== undefined ? parseAt(flags.at, repo) : undefined;
      const [{ languageOf }, { arbitrate }, { arbitrationText }, { storeArbitrateIndex }, { openStore }] = await Promise.all([
        import('../../../indexer/languages/registry.ts'), import('../../../allocator/arbitrate/gate.ts'), import('../../../allocator/arbitrate/report.ts'),
        import('../../../indexer/store/arbitrate-source.ts'), import('../../../indexer/store/open.ts'),
      ]);
      const language = chooseLanguage(flags, at?.path, languageOf);
      // Without --at, relative imports resolve from where the default file sits in the repository.
      const own = path.relative(repo, path.resolve(flags.default)).split(path.sep).join('/');
      const db = openStore(resolveDb(repo, global.db), { readonly: true });
      try {
        const index = storeArbitrateIndex(db, { repoName: path.basename(repo) });
        let result: Arbitration;
        try {
          result = await arbitrate(defaultText, alternativeText, { language, at, path: own.startsWith('..') ? undefined : own }, index);
        } catch (err) {
          if (err instanceof ArbitrateError) throw new UsageError(err.message);
          throw err;
        }
        if (flags.json) process.stdout.write(JSON.stringify(result, null, 2) + '\n');
        else process.stdout.write(arbitrationText(result) + '\n');
      } finally {
        db.close();
      }
    });
}
