import { createRequire } from 'node:module';
import path from 'node:path';

/** One PSR-4 root: classes of namespace `prefix` (`App\`) live below folder `dir` (repository-relative, `app`). */
export interface Psr4Root {
  prefix: string;
  dir: string;
}

/** The part of composer.json PSR-4 reads; everything else in the file is left alone. */
function composerSchema(z: typeof import('zod').z) {
  const dirs = z.union([z.string(), z.array(z.string())]);
  const autoload = z.object({ 'psr-4': z.record(z.string(), dirs).optional() }).passthrough();
  return z.object({ autoload: autoload.optional(), 'autoload-dev': autoload.optional() }).passthrough();
}
let composerJson: ReturnType<typeof composerSchema> | undefined;
/** zod loads with the first composer.json read: most repositories have none, and loading it cost every `allot index` run ~70 CPU-ms. */
const loadComposerSchema = () => (composerJson ??= composerSchema((createRequire(import.meta.url)('zod') as typeof import('zod')).z));

/**
 * The PSR-4 roots one composer.json declares (`autoload` and `autoload-dev`), its
 * folders made relative to the repository. A file that is not valid JSON or not
 * shaped like composer's schema declares none (resolution falls back to path suffixes).
 */
export function psr4Roots(composerPath: string, text: string): Psr4Root[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return [];
  }
  const parsed = loadComposerSchema().safeParse(json);
  if (!parsed.success) return [];
  const base = path.posix.dirname(composerPath);
  const roots: Psr4Root[] = [];
  for (const section of [parsed.data.autoload, parsed.data['autoload-dev']]) {
    for (const [prefix, d] of Object.entries(section?.['psr-4'] ?? {})) {
      for (const dir of typeof d === 'string' ? [d] : d) {
        const rel = path.posix.normalize(base === '.' ? dir || '.' : `${base}/${dir}`).replace(/\/+$/, '');
        if (rel.startsWith('..')) continue;
        roots.push({ prefix: prefix.replace(/^\\+/, '').replace(/\\*$/, prefix === '' ? '' : '\\'), dir: rel === '.' ? '' : rel });
      }
    }
  }
  return roots;
}

/**
 * PSR-4's rule: the longest registered prefix of a fully qualified class name picks
 * its folders, and the rest of the name, `\` read as `/`, is the file below one of
 * them plus `.php`. Candidate paths, longest prefix first.
 */
export function psr4Candidates(roots: Psr4Root[], name: string): string[] {
  const fqn = name.replace(/^\\+/, '');
  const matching = roots.filter((r) => fqn.startsWith(r.prefix)).sort((a, b) => b.prefix.length - a.prefix.length);
  return matching.map((r) => {
    const rest = fqn.slice(r.prefix.length).split('\\').filter(Boolean).join('/');
    return `${r.dir ? `${r.dir}/` : ''}${rest}.php`;
  });
}
