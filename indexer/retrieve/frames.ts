/** A stack-trace frame named in a query or issue: a file, a line and the function running there. */
export interface Frame {
  path: string;
  line: number;
  name: string | null;
}

// Python: `  File "/x/y/pkg/mod.py", line 12, in parse`
const PYTHON = /File "([^"]+)", line (\d+)(?:, in ([\w<>.]+))?/g;
// JS/TS (V8): `    at Parser.parse (/x/src/parser.ts:12:5)` or `    at /x/src/parser.js:12:5`
const V8 = /at (?:(?:async )?([\w$.<>[\] ]+?) \()?((?:file:\/\/)?[^\s()]+?\.[cm]?[jt]sx?):(\d+)(?::\d+)?\)?/g;
// Java: `	at com.acme.Parser.parse(Parser.java:12)`
const JAVA = /at ([\w$.]+)\.([\w$<>]+)\(([\w$]+\.java):(\d+)\)/g;
// Go: `	/x/store/memory.go:42 +0x1d` after a `pkg.(*T).Method(...)` line
const GO = /^\s+(\/?[^\s:]+\.go):(\d+)/gm;
// Rust panics: `src/lib.rs:10:5`
const RUST = /([\w./-]+\.rs):(\d+):\d+/g;

/**
 * Stack-trace frames in any text: Python tracebacks, V8 (Node, browsers) stacks,
 * Java stack traces, Go and Rust panics. Paths are returned as written; the
 * caller matches them against indexed paths by suffix.
 * @example parseFrames('File "/srv/app/shop/cart.py", line 19, in total') // [{ path: '/srv/app/shop/cart.py', line: 19, name: 'total' }]
 */
export function parseFrames(text: string): Frame[] {
  const frames: Frame[] = [];
  const seen = new Set<string>();
  const add = (path: string, line: number, name: string | null) => {
    const clean = path.replace(/^file:\/\//, '');
    const key = `${clean}:${line}`;
    if (seen.has(key) || !Number.isFinite(line)) return;
    seen.add(key);
    frames.push({ path: clean, line, name: name || null });
  };
  for (const m of text.matchAll(PYTHON)) add(m[1], Number(m[2]), m[3] ?? null);
  for (const m of text.matchAll(V8)) add(m[2], Number(m[3]), m[1]?.trim().split('.').at(-1) ?? null);
  for (const m of text.matchAll(JAVA)) {
    const pkg = m[1].split('.');
    const dir = pkg.slice(0, -1).join('/');
    add(dir ? `${dir}/${m[3]}` : m[3], Number(m[4]), m[2]);
  }
  for (const m of text.matchAll(GO)) add(m[1], Number(m[2]), null);
  for (const m of text.matchAll(RUST)) add(m[1], Number(m[2]), null);
  return frames;
}
