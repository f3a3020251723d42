/**
 * HTTP to the daemon over loopback TCP or a Unix socket (node:http handles
 * both; fetch cannot reach a socket without undici's dispatcher). Sends the
 * bearer token and `Host: localhost`, parses JSON answers, and turns error
 * bodies into `DaemonError`.
 */
import http from 'node:http';
import type { ApiErrorBody } from '../../daemon/types.ts';

export interface Endpoint {
  host: string | null;
  port: number | null;
  socket: string | null;
  token: string;
}

/** The daemon answered with an error body. */
export class DaemonError extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message);
    this.name = 'DaemonError';
  }
}

/** The daemon could not be reached (not running, crashed, wrong address). */
export class DaemonUnreachable extends Error {
  constructor(message: string, override readonly cause?: unknown) {
    super(message);
    this.name = 'DaemonUnreachable';
  }
}

export interface RequestOptions {
  body?: unknown;
  timeoutMs?: number;
  signal?: AbortSignal;
  agent?: http.Agent;
  /** Extra request headers. */
  headers?: Record<string, string>;
}

function target(ep: Endpoint, method: string, path: string, headers: Record<string, string>, agent?: http.Agent): http.RequestOptions {
  return {
    method,
    path,
    agent,
    headers: { host: ep.socket ? 'localhost' : `127.0.0.1:${ep.port}`, authorization: `Bearer ${ep.token}`, ...headers },
    ...(ep.socket ? { socketPath: ep.socket } : { host: ep.host ?? '127.0.0.1', port: ep.port ?? undefined }),
  };
}

/**
 * One JSON request; resolves with the parsed body of a 2xx answer. A request
 * that fails on a kept-alive socket the daemon closed at the same moment is
 * sent once more on a fresh one (every API request is safe to repeat).
 */
export async function requestJson<T>(ep: Endpoint, method: 'GET' | 'POST', path: string, opts: RequestOptions = {}): Promise<T> {
  try {
    return await requestOnce<T>(ep, method, path, opts);
  } catch (err) {
    if (err instanceof StaleSocket) return requestOnce<T>(ep, method, path, { ...opts, agent: undefined });
    throw err;
  }
}

class StaleSocket extends Error {}

function requestOnce<T>(ep: Endpoint, method: 'GET' | 'POST', path: string, opts: RequestOptions): Promise<T> {
  const payload = opts.body === undefined ? undefined : Buffer.from(JSON.stringify(opts.body));
  const headers: Record<string, string> = { accept: 'application/json', ...opts.headers };
  if (payload) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(payload.length);
  }
  return new Promise<T>((resolve, reject) => {
    const req = http.request(target(ep, method, path, headers, opts.agent), (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', (err) => reject(new DaemonUnreachable(`daemon connection lost: ${err.message}`, err)));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          reject(new DaemonError(res.statusCode ?? 0, 'bad-response', `daemon sent a non-JSON answer (HTTP ${res.statusCode})`));
          return;
        }
        const status = res.statusCode ?? 0;
        if (status >= 200 && status < 300) resolve(json as T);
        else {
          const e = (json as Partial<ApiErrorBody>).error;
          reject(new DaemonError(status, e?.code ?? 'http-error', e?.message ?? `HTTP ${status}`));
        }
      });
    });
    req.on('error', (err) => {
      const code = (err as NodeJS.ErrnoException).code;
      if (req.reusedSocket && (code === 'ECONNRESET' || code === 'EPIPE')) reject(new StaleSocket(err.message));
      else reject(new DaemonUnreachable(`cannot reach the daemon: ${err.message}`, err));
    });
    if (opts.timeoutMs) req.setTimeout(opts.timeoutMs, () => req.destroy(new Error(`no answer within ${opts.timeoutMs} ms`)));
    if (opts.signal) {
      if (opts.signal.aborted) req.destroy(new Error('aborted'));
      else opts.signal.addEventListener('abort', () => req.destroy(new Error('aborted')), { once: true });
    }
    req.end(payload);
  });
}

/** Opens a streaming GET (server-sent events); resolves once the answer's head arrived. */
export function openStream(ep: Endpoint, path: string, opts: { signal?: AbortSignal } = {}): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = http.request(target(ep, 'GET', path, { accept: 'text/event-stream' }), (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 200 && status < 300) {
        resolve(res);
        return;
      }
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        let e: ApiErrorBody['error'] | undefined;
        try {
          e = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as ApiErrorBody).error;
        } catch {
          /* not JSON */
        }
        reject(new DaemonError(status, e?.code ?? 'http-error', e?.message ?? `HTTP ${status}`));
      });
    });
    req.on('error', (err) => reject(new DaemonUnreachable(`cannot reach the daemon: ${err.message}`, err)));
    opts.signal?.addEventListener('abort', () => req.destroy(), { once: true });
    req.end();
  });
}
