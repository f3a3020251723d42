// Fuzzed inputs for `npm run bench:fuzz` (not a test): seeded, so a run is repeatable. HTTP requests per
// endpoint family (valid bodies with fields swapped for hostile values, raw bodies that are not JSON at all,
// hostile headers) and MCP lines (non-JSON, non-JSON-RPC, oversized, bad progress tokens, tool calls with
// hostile arguments). Each MCP line says what answer it must get.
import { LIMITS } from '../../allocator/options.ts';
import { MAX_ISSUE_CHARS, MAX_K, MAX_QUERY_CHARS } from '../../daemon/requests.ts';

export type Rand = () => number;

export interface FuzzRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  /** Omit the bearer token. */
  noToken?: boolean;
  body?: string | Buffer;
}

export const FAMILIES = ['search', 'context', 'inventory', 'select', 'arbitrate', 'objects', 'files', 'gates'] as const;
export type Family = (typeof FAMILIES)[number];

const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

/** Any value as text: strings as they are, the rest as JSON (an object may carry a `toString` that is not one). */
const text = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v) ?? 'undefined');

/**
 * Percent-encodes text for a URL, lone surrogates included (as U+FFFD, which is what their UTF-8 form is), cut to
 * 64 KB first: longer is refused by the server's 16 KiB header limit anyway, and encoding megabytes would stall
 * the fuzzer itself (and with it every request in flight).
 */
const pct = (text: string) => encodeURIComponent(text.slice(0, 64 * 1024).replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));
const chance = (r: Rand, p: number) => r() < p;

/** Paths an attacker would try: traversal, absolute, encoded, NUL, links planted towards the sentinel. */
export const HOSTILE_PATHS = [
  '../sentinel/victim.txt', '../../etc/passwd', '/etc/passwd', 'evil-link/victim.txt', 'docs/victim-link.md', 'evil-link',
  '.allot/daemon.json', '.allot/index.db', './../sentinel', 'shop/../../sentinel/victim.txt', 'shop/%2e%2e/%2e%2e/x', 'C:/Windows/win.ini',
  'shop\\..\\..\\x', 'shop/cart.py\0.txt', 'shop//cart.py', '.', '', ' ', 'shop/cart.py/', '~/.ssh/id_rsa', 'shop/\u202ecart.py', 'x'.repeat(5000),
];

const STRINGS = [
  '', ' ', 'x', 'cart total', 'apply_discount', 'def f(x):\n    return x', '\u0000', '\u0007\u001b[31mred', 'line\nbreak\r\n', '\ud800', '😀'.repeat(50),
  '%s%s%n', '${process.exit()}', '<script>alert(1)</script>', "' OR 1=1 --", 'NEAR(a b)', '"unbalanced', 'AND OR NOT', '*', '^', 'a:b', 'col:value',
  '__proto__', 'constructor', 'toString',
];

/** A hostile value of any JSON type, near the edges of what each type can hold. */
export function anyValue(r: Rand, depth = 0): unknown {
  switch (Math.floor(r() * 9)) {
    case 0: return null;
    case 1: return chance(r, 0.5);
    case 2: return pick(r, [0, -1, 1, 2 ** 31, 2 ** 53 + 2, -(2 ** 53), 1e308, -1e308, 1.5, -0, 1e-300, 4097, 10_001]);
    case 3: return pick(r, STRINGS);
    case 4: return pick(r, HOSTILE_PATHS);
    case 5: return 'q'.repeat(pick(r, [1, 100, 4096, MAX_QUERY_CHARS, MAX_QUERY_CHARS + 1, 60_000]));
    case 6: return depth > 2 ? [] : Array.from({ length: pick(r, [0, 1, 3, 300]) }, () => anyValue(r, depth + 1));
    case 7: return depth > 2 ? {} : { __proto__x: 1, constructor: anyValue(r, depth + 1), [pick(r, STRINGS)]: anyValue(r, depth + 1) };
    default: return String(pick(r, [-1, 0, 7, 1e21, 99999999999999999999]));
  }
}

/** A number near a field's maximum, or not a number at all. */
function numberNear(r: Rand, max: number): unknown {
  return chance(r, 0.7) ? pick(r, [0, 1, max, max + 1, -1, max * 1000, 1.5, 2 ** 53]) : anyValue(r);
}

/** A valid body of the family, then 1-3 fields replaced by hostile values, removed, or joined by unknown ones. */
function mutate(r: Rand, base: Record<string, unknown>, fields: Record<string, (r: Rand) => unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = { ...base };
  const names = Object.keys(fields);
  for (let i = 1 + Math.floor(r() * 3); i > 0; i--) {
    const roll = r();
    const name = pick(r, names);
    if (roll < 0.7) body[name] = fields[name](r);
    else if (roll < 0.85) delete body[name];
    else body[pick(r, ['extra', '__proto__', 'constructor', 'budget ', 'Query'])] = anyValue(r);
  }
  return body;
}

/** A body that is not a JSON object at all: truncated, invalid UTF-8, nested ten thousand deep, over the size limit... */
function rawBody(r: Rand, valid: string): string | Buffer {
  switch (Math.floor(r() * 10)) {
    case 0: return valid.slice(0, Math.floor(r() * valid.length));
    case 1: return Buffer.concat([Buffer.from('{"query":"'), Buffer.from([0xff, 0xfe, 0xc0, 0x80]), Buffer.from('"}')]);
    case 2: return '['.repeat(10_000) + ']'.repeat(10_000);
    case 3: return `{"query":"${'a'.repeat(300 * 1024)}"}`;
    case 4: return '';
    case 5: return '\ufeff' + valid;
    case 6: return `${valid}${valid}`;
    case 7: return 'null';
    case 8: return JSON.stringify([JSON.parse(valid)]);
    default: return `{"query": "x", "query": ${JSON.stringify(anyValue(r))}}`;
  }
}

const json = { 'content-type': 'application/json' };

function post(r: Rand, path: string, base: Record<string, unknown>, fields: Record<string, (r: Rand) => unknown>): FuzzRequest {
  const valid = JSON.stringify(base);
  if (chance(r, 0.15)) return { method: 'POST', path, headers: json, body: rawBody(r, valid) };
  if (chance(r, 0.05)) return { method: pick(r, ['GET', 'PUT', 'DELETE', 'PATCH']), path, headers: json, body: valid };
  return { method: 'POST', path, headers: json, body: JSON.stringify(mutate(r, base, fields)) };
}

const retrieval = {
  retriever: (r: Rand) => (chance(r, 0.5) ? pick(r, ['hybrid', 'bm25', 'structural', 'dense']) : anyValue(r)),
  path: (r: Rand) => (chance(r, 0.5) ? pick(r, HOSTILE_PATHS) : anyValue(r)),
  rrfK: (r: Rand) => numberNear(r, 1000),
};

const QUERIES = ['cart total', 'apply discount to the price', 'formatPrice', 'def total(self):', 'import pricing', 'Cart.add_item', 'class Cart'];

/** One fuzzed request of a family. */
export function fuzzRequest(r: Rand, family: Family): FuzzRequest {
  switch (family) {
    case 'search':
      return post(r, '/v1/search', { query: pick(r, QUERIES), k: 10 }, { query: (r) => (chance(r, 0.5) ? pick(r, QUERIES) : anyValue(r)), k: (r) => numberNear(r, MAX_K), ...retrieval });
    case 'context':
      return post(r, '/v1/context', { query: pick(r, QUERIES), budget: 1024 }, {
        query: (r) => (chance(r, 0.5) ? pick(r, QUERIES) : anyValue(r)),
        budget: (r) => numberNear(r, LIMITS.budget), objectCap: (r) => numberNear(r, LIMITS.objectCap), floor: (r) => numberNear(r, LIMITS.floor),
        headLines: (r) => numberNear(r, LIMITS.headLines),
        slots: (r) => pick(r, ['4+1', '64+64', '65+0', '0+1', '1e9+1', '+', '4+1+1', { core: 1e9, companion: 1e7 }, { core: 64, companion: 64 }, { core: 1 }, anyValue(r)]),
        tokenizer: (r) => pick(r, ['cl100k_base', 'o200k_base', 'gpt2', anyValue(r)]),
        noQuotient: (r) => anyValue(r), noRender: (r) => anyValue(r), session: (r) => (chance(r, 0.5) ? `s${Math.floor(r() * 20)}` : anyValue(r)), ...retrieval,
      });
    case 'inventory':
      return post(r, '/v1/inventory', { issue: 'Cart total is wrong after a discount' }, {
        issue: (r) => (chance(r, 0.3) ? 'i'.repeat(pick(r, [1, MAX_ISSUE_CHARS, MAX_ISSUE_CHARS + 1])) : anyValue(r)),
        tokenizer: (r) => pick(r, ['cl100k_base', 'o200k_base', anyValue(r)]),
      });
    case 'select':
      return post(r, '/v1/files/select', { issue: 'Cart total is wrong after a discount in shop/pricing.py', llm: false }, {
        issue: (r) => (chance(r, 0.5) ? pick(r, QUERIES) : anyValue(r)), budget: (r) => numberNear(r, LIMITS.budget),
        answers: (r) => pick(r, [[['shop/pricing.py']], [HOSTILE_PATHS], [[], [], [], []], [['shop/cart.py'], ['../sentinel/victim.txt']], anyValue(r)]),
        searches: (r) => pick(r, [['definition apply_discount'], ['callers total'], ['string "total"'], ['nonsense'], Array(5).fill('definition x'), anyValue(r)]),
        answersFrom: (r) => pick(r, ['sampling', 'given', 'Not A Name', anyValue(r)]),
        baseline: (r) => pick(r, ['chunk-bm25', 'nope', anyValue(r)]), retriever: (r) => pick(r, ['bm25', 'hybrid', 'dense', anyValue(r)]),
        llm: (r) => anyValue(r), session: (r) => (chance(r, 0.5) ? `s${Math.floor(r() * 20)}` : anyValue(r)),
      });
    case 'arbitrate':
      return post(r, '/v1/arbitrate', { default: 'def f(x):\n    return x + 1\n', alternative: 'def f(x):\n    return x + 2\n', language: 'python' }, {
        default: (r) => pick(r, ['def f(', 'function f() {', '}}}}', 'x'.repeat(200_001), anyValue(r)]),
        alternative: (r) => pick(r, ['def f(x): pass', 'class A: pass', '\u0000', anyValue(r)]),
        language: (r) => pick(r, ['python', 'typescript', 'tsx', 'javascript', 'cobol', anyValue(r)]),
        at: (r) => pick(r, ['shop/pricing.py', 'shop/pricing.py:apply_discount', 'shop/pricing.py:', ':x', ...HOSTILE_PATHS]),
      });
    case 'objects': {
      if (chance(r, 0.5)) {
        const id = pick(r, ['0123456789abcdef', 'ffffffffffffffff', '..%2F..%2Fetc', 'x'.repeat(16), '0123456789ABCDEF', '%00', 'a'.repeat(5000), '']);
        return { method: chance(r, 0.9) ? 'GET' : 'POST', path: `/v1/objects/${id}` };
      }
      const p = pct(chance(r, 0.5) ? pick(r, ['shop/cart.py', 'shop/pricing.py', 'web/api.ts']) : pick(r, HOSTILE_PATHS));
      const n = pct(chance(r, 0.5) ? pick(r, ['Cart', 'total', 'apply_discount', 'Cart.total']) : text(anyValue(r)));
      return { method: 'GET', path: pick(r, [`/v1/objects?path=${p}&name=${n}`, `/v1/objects?path=${p}`, `/v1/objects?name=${n}`, `/v1/objects?path=${p}&name=${n}&path=x`]) };
    }
    case 'files': {
      const raw = chance(r, 0.3) ? pick(r, ['shop/cart.py', 'docs/usage.md', 'config.yaml']) : pick(r, HOSTILE_PATHS);
      // mostly encoded; otherwise as typed, printable ASCII left raw (`..`, `%2e`, `\\` reach the server as such)
      const enc = chance(r, 0.7) ? pct(raw) : [...raw].map((c) => (/[\x21-\x7e]/.test(c) && !'#?&'.includes(c) ? c : pct(c))).join('');
      return { method: chance(r, 0.95) ? 'GET' : 'DELETE', path: `/v1/files?path=${enc}` };
    }
    case 'gates': {
      const route = pick(r, ['/v1/status', '/v1/search', '/v1/context', '/v1/nothing', '/', '/v1/../etc/passwd', '/v1/status?x=1', '/V1/STATUS', '/v1/events']);
      const roll = Math.floor(r() * 6);
      if (roll === 0) return { method: 'GET', path: route, headers: { host: pick(r, ['evil.example', '127.0.0.1.nip.io', 'localhost.evil.com', '0.0.0.0', '']) } };
      if (roll === 1) return { method: 'GET', path: route, headers: { origin: pick(r, ['http://evil.example', 'null', 'http://127.0.0.1']) } };
      if (roll === 2) return { method: 'GET', path: route, noToken: true };
      if (roll === 3) return { method: 'GET', path: route, headers: { authorization: pick(r, ['Bearer ', 'Bearer x', 'Basic abc', 'bearer  ', `Bearer ${'t'.repeat(10_000)}`]) } };
      if (roll === 4) return { method: pick(r, ['PUT', 'DELETE', 'OPTIONS', 'PATCH', 'HEAD']), path: route.replace('/v1/events', '/v1/status') };
      return { method: 'GET', path: '/v1/status' };
    }
  }
}

/** What a line must be answered with: its id, a null-id error, or nothing (a well-formed notification). */
export type Expect = { id: string | number } | { nullId: true } | { none: true };

export interface FuzzLine {
  text: string | { oversizeBytes: number; head: string };
  expect: Expect;
}

const TOOLS = ['search_code', 'get_context', 'select_files', 'read_object', 'index_status', 'arbitrate_programs', 'no_such_tool'];

/** One MCP line for `allot mcp`, with the answer it must get. `n` makes ids unique. */
export function fuzzLine(r: Rand, n: number): FuzzLine {
  const id = chance(r, 0.5) ? n : `id-${n}`;
  switch (Math.floor(r() * 12)) {
    case 0: return { text: pick(r, ['{', '{"jsonrpc":"2.0",', 'not json', '{"a":1,}', "{'single':1}", '\u0000\u0001', 'NaN', '{"x":undefined}']), expect: { nullId: true } };
    case 1: return { text: JSON.stringify(pick(r, [[1, 2], 7, 'str', null, true, [{ jsonrpc: '2.0', id: 1, method: 'ping' }]])), expect: { nullId: true } };
    case 2: return { text: JSON.stringify({ jsonrpc: pick(r, ['1.0', 2, null]), id, method: 'ping' }), expect: { id } };
    case 3: return { text: JSON.stringify({ jsonrpc: '2.0', id, method: anyValue(r) === null ? 5 : 42 }), expect: { id } };
    case 4: return { text: JSON.stringify({ jsonrpc: '2.0', id }), expect: { id } };
    case 5: return { text: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'search_code', arguments: { query: 'cart' }, _meta: { progressToken: pick(r, [{}, [], true, null]) } } }), expect: { id } };
    case 6: return { text: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'search_code', arguments: { query: 'cart' }, _meta: { progressToken: pick(r, ['t', 0, 7, 1.5, -3, 'x'.repeat(100)]) } } }), expect: { id } };
    case 7: return { text: JSON.stringify({ jsonrpc: '2.0', id, method: pick(r, ['no/such/method', 'tools/list', 'ping', 'resources/list', 'prompts/get']), params: chance(r, 0.5) ? anyValue(r) : {} }), expect: { id } };
    case 8: {
      const args: Record<string, unknown> = {};
      for (const k of ['query', 'budget', 'k', 'slots', 'path', 'session', 'id', 'name', 'issue', 'retriever', 'default', 'alternative', 'language']) if (chance(r, 0.4)) args[k] = anyValue(r);
      return { text: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: pick(r, TOOLS), arguments: chance(r, 0.9) ? args : anyValue(r) } }), expect: { id } };
    }
    case 9: return { text: JSON.stringify({ jsonrpc: '2.0', method: pick(r, ['notifications/cancelled', 'notifications/progress', 'notifications/whatever']), params: { requestId: 'never-sent' } }), expect: { none: true } };
    case 10: return { text: pick(r, ['', '   ', '\r']), expect: { none: true } };
    default:
      // one in a hundred lines is over 10 MB (streamed, never held whole); the rest are merely large
      if (chance(r, 0.01)) return { text: { oversizeBytes: 10 * 1024 * 1024 + 1 + Math.floor(r() * 1000), head: `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"tools/call","params":{"name":"search_code","arguments":{"query":"` }, expect: { id } };
      return { text: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'search_code', arguments: { query: 'q'.repeat(pick(r, [10, 10_000, 100_000])) } } }), expect: { id } };
  }
}
