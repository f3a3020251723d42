/**
 * The HTTP API (hono): JSON in and out, inputs validated with zod, errors as
 * `{error: {code, message}}` with the matching status.
 *
 * Every request passes three gates before any route: the `Host` header must
 * name the loopback address or `localhost` (a DNS-rebinding page cannot use
 * its own host name), requests from browsers (`Origin` set) are refused and no
 * CORS header is ever sent, and the bearer token of `daemon.json` is required.
 * Bodies are capped at `maxBodyBytes`.
 */
import crypto from 'node:crypto';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { streamSSE } from 'hono/streaming';
import type { EventBus } from './events.ts';
import type { Completeness, QueryAnswers } from './queries.ts';
import { QueryError } from './query-error.ts';
import { buildText } from './status.ts';
import { parseContinueRequest } from './continue.ts';
import { parseOutlineRequest, parseReadFileRequest, parseReferencesRequest, parseSymbolRequest } from './symbol-requests.ts';
import { ArbitrateError } from '../allocator/arbitrate/types.ts';
import { asksModel, BadSearch, selectForRequest } from './select-request.ts';
import { queryTimeoutMs, TIMED_OUT, withDeadline } from './watchdog.ts';
import { RetrievalError } from '../indexer/retrieve/select.ts';
import { isDamage, sqliteFault } from '../indexer/store/open.ts';
import {
  ObjectIdSchema, parseArbitrateRequest, parseContextRequest, parseFilePath, parseFilesSelectRequest, parseInventoryRequest, parseJsonBody,
  parseObjectLookup, parseSearchRequest, type Parsed,
} from './requests.ts';
import {
  COMPLETE_HEADER, ERROR_STATUS, PARTIAL_HEADER, PROGRESS_HEADER, type ApiErrorBody, type DaemonEvent, type DaemonStatus, type ErrorCode,
} from './types.ts';

export type QueryKind = 'search' | 'context' | 'objects' | 'files' | 'arbitrate' | 'inventory' | 'select' | 'symbols' | 'references' | 'outline' | 'read' | 'continue';

export interface ApiDeps {
  token: string;
  maxBodyBytes: number;
  status(): DaemonStatus;
  queries: QueryAnswers;
  events: EventBus;
  countQuery(kind: QueryKind, ok: boolean): void;
  /** Whether the index is complete, and how far its running build is when not (read on this thread: it is the daemon's state). */
  completeness(): Completeness;
  /** Any authenticated request arrived (`--idle-exit` counts quiet time from the last one). */
  onRequest?(): void;
  /** Seconds between keep-alive comments on the event stream. */
  heartbeatSeconds?: number;
  /** A query not answered within this many ms gets `503 query-timeout` (default: `queryTimeoutMs()`, see watchdog.ts). */
  queryTimeoutMs?: number;
  /** Why the index cannot be read (damaged), or null: queries then answer `503 index-failed`. */
  failure?(): string | null;
  /** A query met a damaged index (`err`, SQLite's): the daemon marks itself failed (see status.ts recordFailure). */
  onDamage?(err: unknown): void;
}

/** Host names a loopback client legitimately uses, with or without a port. */
export function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d{1,5}))?$/.exec(host.trim().toLowerCase());
  if (!m) return false;
  return m[1] === '127.0.0.1' || m[1] === 'localhost' || m[1] === '[::1]';
}

/** Constant-time comparison of the presented bearer token with ours. */
export function tokenMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!m) return false;
  const given = crypto.createHash('sha256').update(m[1]).digest();
  const wanted = crypto.createHash('sha256').update(token).digest();
  return crypto.timingSafeEqual(given, wanted);
}

export function errorBody(code: ErrorCode, message: string): ApiErrorBody {
  return { error: { code, message } };
}

/** JSON of answers the query engine returns again for repeated queries: serialised once per answer object. */
const serialised = new WeakMap<object, string>();
function jsonOnce(c: Context, value: object): Response {
  let body = serialised.get(value);
  if (body === undefined) serialised.set(value, (body = JSON.stringify(value)));
  return c.body(body, 200, { 'content-type': 'application/json; charset=UTF-8' });
}

function fail(c: Context, code: ErrorCode, message: string): Response {
  return c.json(errorBody(code, message), ERROR_STATUS[code]);
}

/** An error answer outside a handler's context (the watchdog's). */
function errorResponse(code: ErrorCode, message: string): Response {
  return new Response(JSON.stringify(errorBody(code, message)), { status: ERROR_STATUS[code], headers: { 'content-type': 'application/json; charset=UTF-8' } });
}

export function createApi(deps: ApiDeps): Hono {
  const app = new Hono();

  app.use('*', async (c, next) => {
    if (!isLoopbackHost(c.req.header('host'))) return fail(c, 'forbidden-host', 'the Host header must be 127.0.0.1 or localhost');
    if (c.req.header('origin') !== undefined) return fail(c, 'forbidden-origin', 'requests from web pages are not accepted');
    if (!c.req.header('authorization')) return fail(c, 'unauthorized', 'missing bearer token (Authorization: Bearer <token from .allot/daemon.json>)');
    if (!tokenMatches(c.req.header('authorization'), deps.token)) return fail(c, 'unauthorized', 'wrong bearer token');
    deps.onRequest?.();
    await next();
  });
  app.use(
    '*',
    bodyLimit({
      maxSize: deps.maxBodyBytes,
      // The rest of the body is never read, so this connection cannot carry another request: say so, or a
      // keep-alive client reuses it and gets a hang-up on its next, valid, request.
      onError: (c) => {
        c.header('connection', 'close');
        return fail(c, 'payload-too-large', `request body over ${deps.maxBodyBytes} bytes`);
      },
    }),
  );

  /** Reads and validates a JSON body; a Response when it is not acceptable. */
  const body = async <T>(c: Context, parse: (b: unknown) => { ok: true; value: T } | { ok: false; message: string }): Promise<T | Response> => {
    const json = parseJsonBody(await c.req.text());
    if (!json.ok) return fail(c, 'bad-json', json.message);
    const parsed = parse(json.value);
    return parsed.ok ? parsed.value : fail(c, 'invalid-request', parsed.message);
  };

  /**
   * Queries on an index no whole-repository run has finished on (a first build, or one cut short) would answer
   * "nothing" or a fraction: say why instead, unless the client asked for what is indexed so far.
   */
  const notReady = (c: Context): Response | null => {
    const state = deps.completeness();
    if (state.complete || c.req.header(PARTIAL_HEADER) !== undefined) return null;
    return fail(c, 'index-building', `the index is still being built (${buildText(state.progress)}); try again shortly`);
  };

  /**
   * A query's answer, saying whether the index it came from is complete: the `X-Allot-Complete` header always;
   * until complete, `X-Allot-Progress` and, on object answers, `complete: false` with `progress`.
   */
  const answer = (c: Context, value: object): Response => {
    const state = deps.completeness();
    c.header(COMPLETE_HEADER, String(state.complete));
    if (state.complete) return jsonOnce(c, value);
    c.header(PROGRESS_HEADER, buildText(state.progress));
    return jsonOnce(c, Array.isArray(value) ? value : { ...value, complete: false, progress: state.progress });
  };

  const deadline = deps.queryTimeoutMs ?? queryTimeoutMs();
  /** Runs a query under the watchdog (`watched: false` for one bounded by a remote model's own timeouts) and counts it. */
  const counted = async (kind: QueryKind, handler: () => Promise<Response> | Response, watched = true): Promise<Response> => {
    let res: Response | undefined;
    try {
      const failed = deps.failure?.();
      if (failed) return (res = errorResponse('index-failed', failed));
      const work = Promise.resolve().then(handler);
      const answer = watched ? await withDeadline(work, deadline) : await work;
      res = answer === TIMED_OUT
        ? errorResponse('query-timeout', `the query did not finish within ${deadline} ms; narrow it (a smaller k, budget or slots) or try again`)
        : answer;
      return res;
    } catch (err) {
      // SQLite met a damaged index: not a bug of this request (500) but a daemon that cannot answer (503), for good
      const fault = sqliteFault(null, err);
      if (!fault || !isDamage(fault)) throw err;
      deps.onDamage?.(err);
      return (res = errorResponse('index-failed', deps.failure?.() ?? fault.message));
    } finally {
      deps.countQuery(kind, res !== undefined && res.status < 400);
    }
  };

  app.get('/v1/status', (c) => c.json(deps.status()));

  /** A query route: a validated JSON body, refused while the index is not complete (unless partial), answered. */
  const queryRoute = <T>(route: string, kind: QueryKind, parse: (b: unknown) => Parsed<T>, run: (req: T) => object | Promise<object>) =>
    app.post(route, (c) =>
      counted(kind, async () => {
        const req = await body(c, parse);
        if (req instanceof Response) return req;
        return notReady(c) ?? answer(c, await run(req));
      }),
    );

  queryRoute('/v1/search', 'search', parseSearchRequest, (req) => deps.queries.search(req.query, req.k, req.retrieval));
  queryRoute('/v1/context', 'context', parseContextRequest, (req) => deps.queries.context(req.query, req.options, req.retrieval, req.session));
  queryRoute('/v1/inventory', 'inventory', parseInventoryRequest, (req) => deps.queries.inventory(req.issue, req.tokenizer));

  app.post('/v1/files/select', async (c) => {
    const req = await body(c, parseFilesSelectRequest);
    return counted('select', async () => {
      if (req instanceof Response) return req;
      const ready = notReady(c);
      if (ready) return ready;
      try {
        return answer(c, await selectForRequest(deps.queries, req));
      } catch (err) {
        if (err instanceof BadSearch) return fail(c, 'invalid-request', err.message);
        throw err;
      }
    }, !(req instanceof Response) && !asksModel(req));
  });

  app.post('/v1/arbitrate', (c) =>
    counted('arbitrate', async () => {
      const req = await body(c, parseArbitrateRequest);
      if (req instanceof Response) return req;
      const ready = notReady(c);
      if (ready) return ready;
      try {
        return answer(c, await deps.queries.arbitrate(req.default, req.alternative, req.language, req.target));
      } catch (err) {
        if (err instanceof ArbitrateError) return fail(c, 'invalid-request', err.message);
        throw err;
      }
    }),
  );

  app.get('/v1/objects/:id', (c) =>
    counted('objects', async () => {
      const id = ObjectIdSchema.safeParse(c.req.param('id'));
      if (!id.success) return fail(c, 'invalid-request', id.error.issues[0]?.message ?? 'bad object id');
      const found = await deps.queries.object(id.data);
      return found ? answer(c, found) : fail(c, 'not-found', `no object ${id.data} in the index`);
    }),
  );

  app.get('/v1/objects', (c) =>
    counted('objects', async () => {
      const q = parseObjectLookup(c.req.query('path'), c.req.query('name'));
      if (!q.ok) return fail(c, 'invalid-request', q.message);
      return answer(c, await deps.queries.findObjects(q.value.path, q.value.name));
    }),
  );

  app.get('/v1/files', (c) =>
    counted('files', async () => {
      const p = parseFilePath(c.req.query('path'));
      if (!p.ok) return fail(c, 'forbidden-path', p.message);
      const found = await deps.queries.file(p.value);
      if (found === 'forbidden') return fail(c, 'forbidden-path', `${p.value} leads outside the repository`);
      return found ? answer(c, found) : fail(c, 'not-found', `${p.value} is not an indexed file`);
    }),
  );

  // The symbol tools: one engine function each, as the MCP tools of the same names.
  queryRoute('/v1/symbols', 'symbols', parseSymbolRequest, (req) => deps.queries.findSymbol(req));
  queryRoute('/v1/references', 'references', parseReferencesRequest, (req) => deps.queries.findReferences(req));
  queryRoute('/v1/outline', 'outline', parseOutlineRequest, (req) => deps.queries.outline(req.path));
  queryRoute('/v1/files/read', 'read', parseReadFileRequest, (req) => deps.queries.readFile(req));

  // Continue cannot show an error answer: an index still being built answers what it has, with a note item first.
  app.post('/v1/continue', (c) =>
    counted('continue', async () => {
      const req = await body(c, parseContinueRequest);
      if (req instanceof Response) return req;
      return answer(c, await deps.queries.continueItems(req));
    }),
  );

  app.get('/v1/events', (c) => {
    const sub = deps.events.subscribe();
    return streamSSE(c, async (stream) => {
      stream.onAbort(() => sub.close());
      const heartbeat = setInterval(() => void stream.write(': keep-alive\n\n').catch(() => sub.close()), (deps.heartbeatSeconds ?? 15) * 1000);
      try {
        await send(stream, { type: 'hello', status: deps.status() });
        for (let ev = await sub.next(); ev && !stream.aborted; ev = await sub.next()) await send(stream, ev);
      } finally {
        clearInterval(heartbeat);
        sub.close();
      }
    });
  });

  const routes = [
    '/v1/status', '/v1/search', '/v1/context', '/v1/inventory', '/v1/files/select', '/v1/arbitrate', '/v1/objects', '/v1/objects/:id', '/v1/files',
    '/v1/events', '/v1/symbols', '/v1/references', '/v1/outline', '/v1/files/read', '/v1/continue',
  ];
  for (const route of routes) {
    app.all(route, (c) => fail(c, 'method-not-allowed', `${c.req.method} is not allowed on ${new URL(c.req.url).pathname}`));
  }
  app.notFound((c) => fail(c, 'not-found', `no such endpoint: ${c.req.method} ${new URL(c.req.url).pathname}`));
  app.onError((err, c) => {
    if (err instanceof QueryError) return fail(c, err.code, err.message);
    return fail(c, err instanceof RetrievalError ? 'invalid-request' : 'internal', err.message);
  });
  return app;
}

async function send(stream: { writeSSE(m: { event: string; data: string }): Promise<void> }, ev: DaemonEvent): Promise<void> {
  const { type, ...data } = ev;
  await stream.writeSSE({ event: type, data: JSON.stringify(data) });
}
