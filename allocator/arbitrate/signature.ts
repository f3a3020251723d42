/**
 * Parameter lists read from signatures (the indexer's `signature` column, or a
 * program's own declaration heads) and argument-count checks of call sites
 * against them. Whatever cannot be read with certainty (a truncated head, a
 * comment inside the list, a typed `const f: Handler = (a) => ...`, accessors)
 * gives null: an unknown signature never produces a mismatch.
 */
import type { CallSite } from './facts.ts';
import type { ArbitrateLanguage } from './types.ts';

export interface Param {
  name: string;
  optional: boolean;
}

export interface Params {
  /** Parameters that take positional arguments, in order (Python's `self`/`cls` excluded, see `receiver`). */
  positional: Param[];
  /** Python parameters after `*` or `*args`. */
  keywordOnly: Param[];
  /** `*args`, `...rest`. */
  varPositional: boolean;
  /** `**kwargs`. */
  varKeyword: boolean;
  /**
   * Python's first parameter when it is a receiver: `self` (bound by instance calls), `cls` (bound by instance and
   * class calls), `explicit` (`__new__`, a static method: bound only when the class is called).
   */
  receiver: 'self' | 'cls' | 'explicit' | null;
}

/** How a call reaches a function: through an instance (`self.m()`, `obj.m()`), its class (`C.m(obj)`), by name, or by calling a class (`C(...)`, `new C(...)`). */
export type CallVia = 'instance' | 'class' | 'plain' | 'constructor';

const IDENT = /^[A-Za-z_$][\w$]*/;

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Index just past the bracket that closes the one at `open`, or -1 (unbalanced or truncated). */
function closeOf(s: string, open: number, angles: boolean): number {
  const stack: string[] = [];
  const pairs: Record<string, string> = { '(': ')', '[': ']', '{': '}', '<': '>' };
  for (let i = open; i < s.length; i++) {
    const ch = s[i];
    if (ch === '"' || ch === "'" || ch === '`') {
      const end = skipString(s, i);
      if (end < 0) return -1;
      i = end;
      continue;
    }
    if (ch === '=' && s[i + 1] === '>') {
      i++;
      continue;
    }
    if (ch === '(' || ch === '[' || ch === '{' || (ch === '<' && angles && /[\w$[({'"]/.test(s[i + 1] ?? ''))) stack.push(pairs[ch]);
    else if (ch === ')' || ch === ']' || ch === '}' || (ch === '>' && stack.at(-1) === '>')) {
      while (stack.length && stack.at(-1) === '>' && ch !== '>') stack.pop(); // a stray `<` (comparison) in a default value
      if (stack.pop() !== ch) return -1;
      if (!stack.length) return i + 1;
    }
  }
  return -1;
}

function skipString(s: string, at: number): number {
  const q = s[at];
  for (let i = at + 1; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === q) return i;
  }
  return -1;
}

/** Splits at commas outside brackets and strings. */
function splitTopLevel(s: string, angles: boolean): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (ch === '"' || ch === "'" || ch === '`') {
      i = skipString(s, i);
      if (i < 0) return [];
      continue;
    }
    if (ch === '=' && s[i + 1] === '>') {
      i++;
      continue;
    }
    if (ch === '(' || ch === '[' || ch === '{' || (ch === '<' && angles && /[\w$[({'"]/.test(s[i + 1] ?? ''))) depth++;
    else if (ch === ')' || ch === ']' || ch === '}' || (ch === '>' && angles && depth > 0)) depth--;
    else if (ch === ',' && depth === 0) {
      out.push(s.slice(start, i));
      start = i + 1;
    }
  }
  out.push(s.slice(start));
  return out.map((p) => p.trim()).filter(Boolean);
}

/** Whether a parameter has a default: a top-level `=` that is not part of `==`, `<=`, `>=`, `!=`, `=>`. */
function hasDefault(p: string): boolean {
  let depth = 0;
  for (let i = 0; i < p.length; i++) {
    const ch = p[i];
    if (ch === '"' || ch === "'" || ch === '`') {
      i = skipString(p, i);
      if (i < 0) return false;
      continue;
    }
    if ('([{'.includes(ch)) depth++;
    else if (')]}'.includes(ch)) depth--;
    else if (ch === '=' && depth === 0 && !(i > 0 && '=<>!:'.includes(p[i - 1])) && p[i + 1] !== '=' && p[i + 1] !== '>') return true;
  }
  return false;
}

/** The text of the parameter list (without its parentheses) after the declaration's name, or null. */
function parameterText(signature: string, name: string, language: ArbitrateLanguage): string | null {
  const angles = language !== 'python';
  const s = signature.replace(/\/\*[\s\S]*?\*\//g, ' ');
  let at: number;
  if (language === 'python') {
    const m = new RegExp(`\\bdef\\s+${escape(name)}\\s*`).exec(s);
    if (!m) return null;
    at = m.index + m[0].length;
    if (s[at] === '[') {
      const end = closeOf(s, at, false);
      if (end < 0) return null;
      at = end;
      while (s[at] === ' ') at++;
    }
  } else {
    const m = new RegExp(`(^|[^\\w$.])${escape(name)}(?![\\w$])`).exec(s);
    if (!m) return null;
    const before = s.slice(0, m.index + m[1].length);
    if (/\b(get|set)\s*$/.test(before)) return null; // accessors are not called
    at = m.index + m[0].length;
    const skipWs = () => {
      while (s[at] === ' ') at++;
    };
    skipWs();
    if (s[at] === '?' || s[at] === '!') at++;
    skipWs();
    if (s[at] === '=' && s[at + 1] !== '>') {
      at++;
      skipWs();
      for (const word of ['async', 'function']) {
        if (s.startsWith(word, at) && !/[\w$]/.test(s[at + word.length] ?? '')) {
          at += word.length;
          skipWs();
        }
      }
      if (s[at] === '*') at++;
      skipWs();
      const fname = IDENT.exec(s.slice(at));
      // `x => ...`: one parameter without parentheses.
      if (fname && s.slice(at + fname[0].length).trimStart().startsWith('=>')) return fname[0];
      if (fname) {
        at += fname[0].length;
        skipWs();
      }
    }
    if (s[at] === '<') {
      const end = closeOf(s, at, true);
      if (end < 0) return null;
      at = end;
      skipWs();
    }
  }
  if (s[at] !== '(') return null;
  const end = closeOf(s, at, angles);
  if (end < 0) return null;
  const inner = s.slice(at + 1, end - 1);
  // A comment inside a collapsed head hides where it ends; a lambda default's commas are not separators.
  if (language === 'python' && /\blambda\b/.test(inner)) return null;
  if (language === 'python' ? /#/.test(inner.replace(/(["'])(?:\\.|(?!\1).)*\1/g, '')) : /\/\//.test(inner.replace(/(["'`])(?:\\.|(?!\1).)*\1/g, ''))) return null;
  return inner;
}

/**
 * How a Python parameter list's first parameter is taken: `named` when it is
 * called `self` or `cls` (a function of unknown standing), `first` whatever its
 * name (a method: `mcs`, `mcl`, `this` are receivers too), `none` (a static method).
 */
export type ReceiverRule = 'named' | 'first' | 'none';

/** The parameters of a declaration head, or null when they cannot be read with certainty. */
export function parseParams(signature: string, name: string, language: ArbitrateLanguage, receiver: ReceiverRule = 'named'): Params | null {
  const inner = parameterText(signature, name, language);
  if (inner === null) return null;
  const params: Params = { positional: [], keywordOnly: [], varPositional: false, varKeyword: false, receiver: null };
  const pieces = splitTopLevel(inner, language !== 'python');
  if (language === 'python') {
    let keywordOnly = false;
    pieces.forEach((p, i) => {
      if (p === '/') return;
      if (p === '*') {
        keywordOnly = true;
        return;
      }
      if (p.startsWith('**')) {
        params.varKeyword = true;
        return;
      }
      if (p.startsWith('*')) {
        params.varPositional = true;
        keywordOnly = true;
        return;
      }
      const name = IDENT.exec(p)?.[0] ?? p;
      if (i === 0 && receiver !== 'none' && (receiver === 'first' || name === 'self' || name === 'cls')) {
        params.receiver = name === 'cls' || name === 'mcs' || name === 'mcl' || name === 'metacls' ? 'cls' : 'self';
        return;
      }
      (keywordOnly ? params.keywordOnly : params.positional).push({ name, optional: hasDefault(p) });
    });
    return params;
  }
  for (let p of pieces) {
    p = p.replace(/^(@[\w$.]+(\([^)]*\))?\s+)+/, '').replace(/^((public|private|protected|readonly|override|declare)\s+)+/, '');
    if (p.startsWith('...')) {
      params.varPositional = true;
      continue;
    }
    if (/^this\s*(:|$)/.test(p)) continue;
    let rest: string;
    let name: string;
    if (p[0] === '{' || p[0] === '[') {
      const end = closeOf(p, 0, false);
      if (end < 0) return null;
      name = p.slice(0, end);
      rest = p.slice(end).trimStart();
    } else {
      name = IDENT.exec(p)?.[0] ?? p;
      rest = p.slice(name.length).trimStart();
    }
    params.positional.push({ name, optional: rest.startsWith('?') || hasDefault(rest) });
  }
  return params;
}

/** `f(a, b=1, *args)`-style text for messages. */
export function describeParams(p: Params): string {
  const parts = p.positional.map((x) => (x.optional ? `${x.name}=` : x.name));
  if (p.varPositional) parts.push('*');
  parts.push(...p.keywordOnly.map((x) => (x.optional ? `${x.name}=` : x.name)));
  if (p.varKeyword) parts.push('**');
  return parts.join(', ');
}

/**
 * Why a call cannot bind to the parameters, or null when it can (or when the
 * call's arguments cannot be counted: `*args`, `...xs`). `calleeLanguage` is
 * the language of the callee's file: JavaScript tolerates missing arguments.
 */
export function callMismatch(params: Params, call: CallSite, via: CallVia, calleeLanguage: ArbitrateLanguage): string | null {
  if (call.spread) return null;
  let positional = params.positional;
  const bound = via === 'constructor' || (params.receiver === 'self' && via === 'instance') || (params.receiver === 'cls' && via !== 'plain');
  if (params.receiver !== null && !bound) positional = [{ name: params.receiver === 'explicit' ? 'cls' : params.receiver, optional: false }, ...positional];
  const given = call.positional;
  const max = positional.length;
  if (given > max && !params.varPositional) {
    return `takes ${max === 0 ? 'no' : `at most ${max}`} positional argument${max === 1 ? '' : 's'} (${describeParams(params)}), called with ${given}`;
  }
  if (calleeLanguage === 'javascript') return null;
  const names = new Set([...positional, ...params.keywordOnly].map((p) => p.name));
  for (const k of call.keywords) {
    const index = positional.findIndex((p) => p.name === k);
    if (index >= 0 && index < given) return `got two values for ${k} (${describeParams(params)})`;
    if (!names.has(k) && !params.varKeyword) return `has no parameter ${k} (${describeParams(params)})`;
  }
  const missing = [
    ...positional.slice(given).filter((p) => !p.optional && !call.keywords.includes(p.name)),
    ...params.keywordOnly.filter((p) => !p.optional && !call.keywords.includes(p.name)),
  ].map((p) => p.name);
  if (missing.length) return `missing ${missing.join(', ')} (${describeParams(params)}), called with ${given}${call.keywords.length ? ` and ${call.keywords.join(', ')}=` : ''}`;
  return null;
}
