/**
 * Name resolution for arbitration: what a name in a candidate program refers
 * to, through the program's own definitions and imports, the target file's
 * scope (`--at`), and the repository's index. Conservative by design: anything
 * that cannot be followed with certainty is `unknown`, and an unknown never
 * becomes a mismatch or a suspicious name.
 */
import { languageOf, loadLanguage, type LoadedLanguage } from '../../indexer/languages/registry.ts';
import type { CodeObject } from '../../indexer/types.ts';
import type { ImportRecord, ProgramFacts } from './facts.ts';
import { analyzeText } from './program.ts';
import { ARBITRATE_LANGUAGES, ArbitrateError, type ArbitrateIndex, type ArbitrateLanguage } from './types.ts';

/** What a name or dotted chain refers to. */
export type Target =
  | { kind: 'module'; files: string[]; spec: string; language: ArbitrateLanguage }
  | { kind: 'objects'; objects: CodeObject[] }
  | { kind: 'local'; name: string }
  /** Exists, but nothing more is known (an assignment, a parameter, an import from outside the repository). */
  | { kind: 'unknown' }
  /** A repository module that does not define the name. */
  | { kind: 'missing'; detail: string };

/** The file a candidate goes into (`--at path[:symbol]`), read from the index. */
export interface TargetFile {
  path: string;
  language: ArbitrateLanguage;
  /** The file's facts; bindings and imports without those of the replaced symbol's lines. */
  facts: ProgramFacts;
  symbol: CodeObject | null;
  /** The class the replaced symbol belongs to (a method's class). */
  cls: CodeObject | null;
  /** The class whose `self`/`this` the symbol sees: its own class, or that of the method it is nested in. */
  selfClass: CodeObject | null;
}

const MAX_HOPS = 4;
const CLASS_KINDS = new Set(['class', 'interface', 'struct']);

function isArbitrateLanguage(l: string): l is ArbitrateLanguage {
  return (ARBITRATE_LANGUAGES as readonly string[]).includes(l);
}

/**
 * The repository as arbitration sees it: the index plus per-file facts,
 * memoised. One per `ArbitrateIndex` object, which is treated as a snapshot.
 */
export class Repo {
  private readonly facts = new Map<string, ProgramFacts | null>();
  private readonly lines = new Map<string, string[] | null>();
  private readonly named = new Map<string, CodeObject[]>();
  private readonly files = new Map<string, CodeObject[]>();
  private readonly targets = new Map<string, TargetFile>();

  private constructor(
    readonly index: ArbitrateIndex,
    private readonly grammars: Map<ArbitrateLanguage, LoadedLanguage>,
  ) {}

  private static readonly cache = new WeakMap<ArbitrateIndex, Promise<Repo>>();

  static of(index: ArbitrateIndex): Promise<Repo> {
    let r = Repo.cache.get(index);
    if (!r) {
      r = (async () => {
        const grammars = new Map<ArbitrateLanguage, LoadedLanguage>();
        for (const l of ARBITRATE_LANGUAGES) grammars.set(l, await loadLanguage(l));
        return new Repo(index, grammars);
      })();
      Repo.cache.set(index, r);
    }
    return r;
  }

  grammar(language: ArbitrateLanguage): LoadedLanguage {
    return this.grammars.get(language)!;
  }

  analyze(text: string, language: ArbitrateLanguage, opts: Parameters<typeof analyzeText>[3] = {}): ProgramFacts {
    return analyzeText(text, language, this.grammar(language), opts);
  }

  fileObjects(path: string): CodeObject[] {
    let list = this.files.get(path);
    if (!list) this.files.set(path, (list = this.index.fileObjects(path)));
    return list;
  }

  objectsNamed(name: string): CodeObject[] {
    let list = this.named.get(name);
    if (!list) this.named.set(name, (list = this.index.objectsNamed(name)));
    return list;
  }

  /** Objects at the top level of a file (children of its module object). */
  topLevel(path: string): CodeObject[] {
    const all = this.fileObjects(path);
    const module = all.find((o) => o.parentId === null);
    return module ? all.filter((o) => o.parentId === module.id) : [];
  }

  fileLines(path: string): string[] | null {
    if (!this.lines.has(path)) this.lines.set(path, this.index.fileText(path)?.split(/\r?\n/) ?? null);
    return this.lines.get(path)!;
  }

  /** Facts of a whole repository file (cached); null when it is not indexed or not in a language arbitration reads. */
  moduleFacts(path: string): ProgramFacts | null {
    if (!this.facts.has(path)) {
      const language = languageOf(path);
      const text = isArbitrateLanguage(language) ? this.index.fileText(path) : null;
      this.facts.set(path, text === null ? null : this.analyze(text, language as ArbitrateLanguage, { asFile: true }));
    }
    return this.facts.get(path)!;
  }

  /** Python decorators of a repository function, read from the lines its span starts with. */
  decorators(o: CodeObject): string[] {
    if (o.language !== 'python') return [];
    const lines = this.fileLines(o.path);
    if (!lines) return [];
    const out: string[] = [];
    for (let i = o.startLine - 1; i < Math.min(lines.length, o.endLine); i++) {
      const t = lines[i].trim();
      if (/^(async\s+)?(def|class)\b/.test(t)) break;
      if (t.startsWith('@')) out.push(t.slice(1).trim());
      else if (out.length && t) out[out.length - 1] += ` ${t}`;
    }
    return out;
  }

  /** The target file of `--at path[:symbol]`, analysed without the symbol's lines. */
  target(path: string, symbol?: string): TargetFile {
    const key = `${path}\0${symbol ?? ''}`;
    const hit = this.targets.get(key);
    if (hit) return hit;
    const language = languageOf(path);
    const text = this.index.fileText(path);
    if (text === null) throw new ArbitrateError(`${path} is not in the index (run \`allot index\`, or give a repository-relative path)`);
    if (!isArbitrateLanguage(language)) throw new ArbitrateError(`${path}: arbitration reads ${ARBITRATE_LANGUAGES.join(', ')} (this file is ${language})`);
    const objects = this.fileObjects(path);
    let sym: CodeObject | null = null;
    if (symbol) {
      sym = objects.find((o) => o.qualifiedName === symbol) ?? objects.find((o) => o.parentId !== null && o.name === symbol) ?? null;
      if (!sym) throw new ArbitrateError(`${path} has no symbol ${symbol}`);
    }
    const parent = sym?.parentId ? objects.find((o) => o.id === sym!.parentId) ?? null : null;
    const full = this.moduleFacts(path)!;
    // The replaced symbol's own bindings and imports are not the candidate's scope.
    const outside = (line: number) => !sym || line < sym.startLine || line > sym.endLine;
    const facts: ProgramFacts = {
      ...full,
      bindings: new Set([...full.bindingLines].filter(([, lines]) => lines.some(outside)).map(([name]) => name)),
      imports: full.imports.filter((r) => outside(r.line)),
    };
    let selfClass: CodeObject | null = null;
    for (let o = parent; o && !selfClass; o = o.parentId ? objects.find((x) => x.id === o!.parentId) ?? null : null) {
      if (CLASS_KINDS.has(o.kind)) selfClass = o;
      else if (o.kind !== 'function' && o.kind !== 'method') break;
    }
    const target: TargetFile = {
      path,
      language,
      facts,
      symbol: sym,
      cls: parent && CLASS_KINDS.has(parent.kind) ? parent : null,
      selfClass,
    };
    this.targets.set(key, target);
    return target;
  }

  /** A module specifier imported from `fromPath`: its repository files, or [] when it is outside. */
  moduleFiles(spec: string, fromPath: string, language: ArbitrateLanguage): string[] {
    return this.index.moduleFiles(spec, fromPath, language);
  }

  /** What an import binds. */
  resolveImport(rec: ImportRecord, fromPath: string, language: ArbitrateLanguage, hops = 0): Target {
    if (rec.wildcard) return { kind: 'unknown' };
    if (language === 'python') {
      if (rec.name === null) {
        // `import a.b.c` binds `a`; `import a.b as c` binds the module a.b.
        const spec = rec.local === rec.module.split('.')[0] ? rec.local : rec.module;
        const files = this.moduleFiles(spec, fromPath, language);
        return files.length ? { kind: 'module', files, spec, language } : { kind: 'unknown' };
      }
      // `from pkg import name`: what the package binds wins over a submodule of that name (as in Python).
      const files = this.moduleFiles(rec.module, fromPath, language);
      if (files.length) return this.lookupInModule(files, rec.name, rec.module, hops);
      const sub = rec.module.endsWith('.') ? `${rec.module}${rec.name}` : `${rec.module}.${rec.name}`;
      const subFiles = this.moduleFiles(sub, fromPath, language);
      return subFiles.length ? { kind: 'module', files: subFiles, spec: sub, language } : { kind: 'unknown' };
    }
    if (rec.isDefault) return { kind: 'unknown' };
    const files = this.moduleFiles(rec.module, fromPath, language);
    if (!files.length) return { kind: 'unknown' };
    if (rec.name === null) return { kind: 'module', files, spec: rec.module, language };
    return this.lookupInModule(files, rec.name, rec.module, hops);
  }

  /** A name a repository module provides: its own top-level objects, then what it imports or re-exports under that name. */
  lookupInModule(files: string[], name: string, spec: string, hops = 0): Target {
    if (hops > MAX_HOPS) return { kind: 'unknown' };
    const objects = files.flatMap((f) => this.topLevel(f).filter((o) => o.name === name));
    if (objects.length) return { kind: 'objects', objects };
    let sawWildcard = false;
    for (const f of files) {
      const facts = this.moduleFacts(f);
      const language = languageOf(f);
      if (!facts || !isArbitrateLanguage(language)) return { kind: 'unknown' };
      const rec = facts.imports.find((r) => r.local === name && !r.wildcard);
      if (rec) return this.resolveImport(rec, f, language, hops + 1);
      if (facts.bindings.has(name) || facts.bindings.has('__getattr__')) return { kind: 'unknown' };
      // A CommonJS module exports properties of module.exports, not its top-level names.
      if (language !== 'python' && (facts.uses.has('module') || facts.uses.has('exports'))) return { kind: 'unknown' };
      for (const w of facts.imports.filter((r) => r.wildcard)) {
        sawWildcard = true;
        const wf = this.moduleFiles(w.module, f, language);
        if (!wf.length) return { kind: 'unknown' }; // a wildcard from outside the repository may bind anything
        const found = this.lookupInModule(wf, name, w.module, hops + 1);
        if (found.kind !== 'missing') return found;
      }
      // Python `from pkg import sub` where sub is a module file of the package.
      if (language === 'python') {
        const sub = this.moduleFiles(`${spec.endsWith('.') ? spec : `${spec}.`}${name}`, f, language);
        if (sub.length) return { kind: 'module', files: sub, spec: `${spec}.${name}`, language };
      }
    }
    return { kind: 'missing', detail: `${spec} does not define ${name}${sawWildcard ? ' (nor do its wildcard imports)' : ''}` };
  }

  /** Members of a repository class by name (its own body only). */
  member(cls: CodeObject, name: string): CodeObject[] {
    return this.index.members(cls.id).filter((o) => o.name === name);
  }

  /**
   * A class's member by name, its own or inherited: base classes are searched
   * left to right, depth first, each resolved in the file that defines the
   * class. Null when not found (a base outside the repository, an attribute
   * set at run time...).
   */
  inheritedMember(cls: CodeObject, name: string, depth = 0, seen = new Set<string>()): CodeObject[] | null {
    const own = this.member(cls, name);
    if (own.length) return own;
    if (depth >= MAX_HOPS * 2 || seen.has(cls.id)) return null;
    seen.add(cls.id);
    for (const base of baseNames(cls)) {
      const t = this.resolveIn(cls.path, base);
      if (t?.kind !== 'objects' || t.objects.length !== 1 || !CLASS_KINDS.has(t.objects[0].kind)) return null;
      const found = this.inheritedMember(t.objects[0], name, depth + 1, seen);
      if (found) return found;
    }
    return null;
  }

  /** A dotted name as the top level of a repository file sees it (its imports and definitions). */
  resolveIn(path: string, dotted: string): Target | null {
    const [head, ...rest] = dotted.split('.');
    const language = languageOf(path);
    const facts = this.moduleFacts(path);
    if (!facts || !isArbitrateLanguage(language)) return null;
    let t: Target | null = null;
    const rec = facts.imports.find((r) => r.local === head && !r.reexport);
    if (rec) t = this.resolveImport(rec, path, language);
    else {
      const objects = this.topLevel(path).filter((o) => o.name === head);
      if (objects.length) t = { kind: 'objects', objects };
    }
    for (const seg of rest) {
      if (!t) return null;
      t = this.follow(t, seg);
    }
    return t;
  }

  /** Follows `.segment` from a target: a submodule, a module's name, a class's member. */
  follow(from: Target, segment: string): Target {
    if (from.kind === 'module') {
      if (from.language === 'python') {
        const sub = this.moduleFiles(`${from.spec}.${segment}`, from.files[0], 'python');
        if (sub.length) return { kind: 'module', files: sub, spec: `${from.spec}.${segment}`, language: 'python' };
      }
      return this.lookupInModule(from.files, segment, from.spec);
    }
    if (from.kind === 'objects' && from.objects.length === 1 && CLASS_KINDS.has(from.objects[0].kind)) {
      const members = this.inheritedMember(from.objects[0], segment);
      return members?.length ? { kind: 'objects', objects: members } : { kind: 'unknown' };
    }
    return { kind: 'unknown' };
  }
}

/** The base classes a class declaration names (dotted names; `object` and keyword arguments left out). */
export function baseNames(cls: CodeObject): string[] {
  const sig = cls.signature;
  if (cls.language === 'python') {
    const open = sig.indexOf('(');
    const close = sig.lastIndexOf(')');
    if (open < 0 || close < open) return [];
    return sig
      .slice(open + 1, close)
      .split(',')
      .map((b) => b.trim())
      .filter((b) => b && !b.includes('=') && b !== 'object');
  }
  const m = /\bextends\s+([A-Za-z_$][\w$.]*)/.exec(sig.replace(/<[^<>]*>/g, ''));
  return m ? [m[1]] : [];
}

/** Where a program's names are looked up. */
export interface Scope {
  repo: Repo;
  language: ArbitrateLanguage;
  /** The path the program's relative imports are resolved from. */
  fromPath: string;
  target: TargetFile | null;
}

/**
 * What a bare name refers to in a program: the program's own definitions and
 * imports first, then the target file (its imports, its top-level objects),
 * else null (unbound: the names witness judges those).
 */
export function resolveName(name: string, program: ProgramFacts, scope: Scope): Target | null {
  // A candidate for a method defines the method at its top level, but a method's name is not in scope in its body.
  const local = program.defs.filter((d) => d.name === name && d.className === null);
  const ownMethod =
    scope.target?.symbol?.name === name &&
    (scope.target.cls != null || scope.target.symbol.kind === 'method' || local.some((d) => /^(async\s+)?def\s+\w+\s*\(\s*(self|cls)\b/.test(d.signature)));
  if (local.length && !ownMethod) {
    // Bound by a definition and by something else (a local import, an assignment): which one a call sees depends on scopes.
    const defLines = new Set(program.defs.filter((d) => d.name === name).map((d) => d.line));
    const other = (program.bindingLines.get(name) ?? []).some((l) => !defLines.has(l));
    return other ? { kind: 'unknown' } : { kind: 'local', name };
  }
  const rec = program.imports.find((r) => r.local === name && !r.reexport);
  if (rec) return scope.repo.resolveImport(rec, scope.fromPath, scope.language);
  if (program.bindings.has(name) && !ownMethod) return { kind: 'unknown' };
  const t = scope.target;
  if (t) {
    const trec = t.facts.imports.find((r) => r.local === name && !r.reexport);
    if (trec) return scope.repo.resolveImport(trec, t.path, t.language);
    // A nested function sees the definitions of the functions around it, then the module's.
    for (const fn of enclosingFunctions(scope.repo, t)) {
      const objects = scope.repo.fileObjects(t.path).filter((o) => o.parentId === fn.id && o.name === name && o.id !== t.symbol?.id);
      if (objects.length) return { kind: 'objects', objects };
    }
    const objects = scope.repo.topLevel(t.path).filter((o) => o.name === name && o.id !== t.symbol?.id);
    if (objects.length) return { kind: 'objects', objects };
    if (t.facts.bindings.has(name)) return { kind: 'unknown' };
  }
  return null;
}

/** The functions and methods enclosing the replaced symbol, innermost first. */
function enclosingFunctions(repo: Repo, t: TargetFile): CodeObject[] {
  const out: CodeObject[] = [];
  const objects = repo.fileObjects(t.path);
  for (let id = t.symbol?.parentId; id; ) {
    const o = objects.find((x) => x.id === id);
    if (!o) break;
    if (o.kind === 'function' || o.kind === 'method') out.push(o);
    id = o.parentId;
  }
  return out;
}

/** Follows `.segment` from a target: a submodule, a module's name, a class's member (inherited too). */
export function resolveMember(from: Target, segment: string, scope: Scope): Target {
  return scope.repo.follow(from, segment);
}
