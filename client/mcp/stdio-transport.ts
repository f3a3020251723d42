/**
 * The MCP stdio transport of `allot mcp`: newline-delimited JSON-RPC on
 * stdin/stdout, as the SDK's, but bad input never ends the session. The SDK's
 * transport closed the session on a line over 10 MB (the process then exited
 * 0 without a word) and dropped malformed lines unanswered. Here every line
 * gets either handed to the server or a JSON-RPC error:
 *   - a line over 10 MB: discarded as it streams (never buffered whole), answered -32600;
 *   - not JSON: -32700 parse error;
 *   - JSON but not a JSON-RPC message: -32600 invalid request, with its id when it has one;
 *   - a request of a known method whose params do not fit it: -32602 invalid params.
 * A progress token may be any string or number (the spec's `ProgressToken`);
 * the SDK keeps only integers, so a fractional one is dropped from the request
 * (allot sends no progress, so nothing is lost) instead of the request.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ClientRequestSchema, JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The longest message line read (bytes, without the newline). */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

/** JSON-RPC 2.0 error codes. */
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const INVALID_PARAMS = -32602;

/** The schema of each request a client may send, by method: params that fail it are the client's error (-32602). */
const REQUESTS = new Map(
  ClientRequestSchema.options.map((schema) => [(schema.shape.method as unknown as { value: string }).value, schema] as const),
);

/** For a request of a known method whose params do not fit: why, as `path: message`; otherwise null. */
function paramsProblem(message: JSONRPCMessage): string | null {
  const m = message as { id?: unknown; method?: unknown };
  if (m.id === undefined || typeof m.method !== 'string') return null;
  const schema = REQUESTS.get(m.method);
  const r = schema?.safeParse(message);
  if (!r || r.success) return null;
  const issue = r.error.issues[0];
  return issue ? `${issue.path.join('.') || 'params'}: ${issue.message}` : 'params do not fit the method';
}

type Id = string | number | null;
export type LineOutcome = { message: JSONRPCMessage } | { reply: JSONRPCMessage } | null;

function errorReply(id: Id, code: number, message: string): JSONRPCMessage {
  return { jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage;
}

/** A JSON-RPC id as the spec allows it (string or number), else null. */
function idOf(value: unknown): Id {
  const id = (value as { id?: unknown } | null)?.id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

/** The id at the start of an oversized line, when it is the first (or second, after `jsonrpc`) key. */
export function leadingId(prefix: string): Id {
  const m = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")\s*[,}]/.exec(prefix);
  if (!m) return null;
  try {
    return JSON.parse(m[1]) as string | number;
  } catch {
    return null;
  }
}

/** A fractional numeric progress token, which the SDK cannot hold: removed so the request itself is served. */
function withoutUnheldProgressToken(value: unknown): unknown {
  const meta = (value as { params?: { _meta?: Record<string, unknown> } } | null)?.params?._meta;
  const token = meta?.progressToken;
  if (typeof token === 'number' && Number.isFinite(token) && !Number.isInteger(token)) {
    const { progressToken: _dropped, ...rest } = meta!;
    const v = value as { params: Record<string, unknown> };
    return { ...v, params: { ...v.params, _meta: rest } };
  }
  return value;
}

/** What one complete line means: a message for the server, an error to send back, or nothing (a blank line). */
export function readLine(line: string): LineOutcome {
  const text = line.replace(/\r$/, '');
  if (!text.trim()) return null;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { reply: errorReply(null, PARSE_ERROR, `Parse error: ${(err as Error).message}`) };
  }
  const parsed = JSONRPCMessageSchema.safeParse(withoutUnheldProgressToken(json));
  if (parsed.success) {
    // (the SDK would answer these with -32603 "internal error" and a dump of its schema's complaint)
    const problem = paramsProblem(parsed.data);
    return problem ? { reply: errorReply(idOf(json), INVALID_PARAMS, `Invalid params: ${problem}`) } : { message: parsed.data };
  }
  const where = parsed.error.issues[0];
  const detail = where && where.code !== 'invalid_union' && where.path.length
    ? `${where.path.join('.')}: ${where.message}`
    : 'not a JSON-RPC 2.0 message (a request needs "jsonrpc": "2.0", an id and a method; a notification a method; a response an id and a result or an error)';
  const token = (json as { params?: { _meta?: { progressToken?: unknown } } } | null)?.params?._meta?.progressToken;
  const why = token !== undefined && typeof token !== 'string' && typeof token !== 'number'
    ? 'params._meta.progressToken must be a string or a number'
    : detail;
  return { reply: errorReply(Array.isArray(json) ? null : idOf(json), INVALID_REQUEST, `Invalid Request: ${why}`) };
}

/**
 * Splits a byte stream into lines of at most `maxBytes`. A longer line is
 * reported once as `oversized` (with the id its first bytes name) and the rest
 * of it skipped as it arrives, so memory stays bounded by `maxBytes`.
 */
export function lineSplitter(maxBytes: number, on: { line(text: string): void; oversized(id: Id): void }) {
  let parts: Buffer[] = [];
  let size = 0;
  let skipping = false;
  const flushOversized = () => {
    const prefix = Buffer.concat(parts).toString('utf8', 0, Math.min(size, 512));
    parts = [];
    size = 0;
    skipping = true;
    on.oversized(leadingId(prefix));
  };
  return (chunk: Buffer) => {
    let start = 0;
    while (start <= chunk.length) {
      const nl = chunk.indexOf(0x0a, start);
      const end = nl === -1 ? chunk.length : nl;
      if (skipping) {
        if (nl !== -1) skipping = false;
      } else if (size + (end - start) > maxBytes) {
        // keep the line's beginning (its id) for the error, then drop the rest
        if (size < 512) parts.push(chunk.subarray(start, Math.min(end, start + 512)));
        size += end - start;
        flushOversized();
        if (nl !== -1) skipping = false;
      } else {
        if (end > start) parts.push(chunk.subarray(start, end));
        size += end - start;
        if (nl !== -1) {
          const line = Buffer.concat(parts).toString('utf8');
          parts = [];
          size = 0;
          on.line(line);
        }
      }
      if (nl === -1) break;
      start = nl + 1;
    }
  };
}

/** The transport itself: `McpServer.connect(new LineTransport())`. */
export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  private closed = false;
  private readonly feed: (chunk: Buffer) => void;

  constructor(
    private readonly input: NodeJS.ReadableStream = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stdout,
    private readonly opts: { maxLineBytes?: number; log?: (line: string) => void } = {},
  ) {
    const max = opts.maxLineBytes ?? MAX_LINE_BYTES;
    this.feed = lineSplitter(max, {
      line: (text) => {
        const outcome = readLine(text);
        if (!outcome) return;
        if ('reply' in outcome) {
          this.opts.log?.(`refused a message: ${(outcome.reply as { error: { message: string } }).error.message.slice(0, 200)}`);
          void this.send(outcome.reply);
        } else this.onmessage?.(outcome.message);
      },
      oversized: (id) => {
        this.opts.log?.(`refused a message line over ${max} bytes`);
        void this.send(errorReply(id, INVALID_REQUEST, `Invalid Request: a message line over ${max} bytes was discarded`));
      },
    });
  }

  private readonly onData = (chunk: Buffer | string) => this.feed(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  private readonly onEnd = () => void this.close();
  private readonly onError = (err: Error) => this.onerror?.(err);

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('end', this.onEnd);
    this.input.on('error', this.onError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.output.once('drain', () => resolve());
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('end', this.onEnd);
    this.input.off('error', this.onError);
    this.onclose?.();
  }
}
