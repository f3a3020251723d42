/**
 * A small client for any OpenAI-compatible chat-completions endpoint (OpenAI,
 * vLLM, llama.cpp server, Ollama, LiteLLM...), on Node's global fetch:
 * per-request timeout, 429/5xx/network failures retried with exponential
 * backoff (honouring Retry-After), and errors a person can act on.
 */

export interface LlmConfig {
  /** The endpoint: a base URL (`https://api.openai.com/v1`) or the full `.../chat/completions` URL. */
  url: string;
  model: string;
  apiKey?: string;
  /** Per attempt, in milliseconds. */
  timeoutMs?: number;
  /** Further attempts after a retryable failure. */
  retries?: number;
  /** First backoff delay; doubles each retry. */
  backoffMs?: number;
  /** Longest wait between attempts (a server's Retry-After included). */
  maxBackoffMs?: number;
  temperature?: number;
  maxTokens?: number;
}

export const LLM_DEFAULTS = { timeoutMs: 120_000, retries: 3, backoffMs: 1_000, maxBackoffMs: 30_000, temperature: 0.7, maxTokens: 1_024 } as const;

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export type LlmErrorCode = 'auth' | 'timeout' | 'http' | 'network' | 'bad-response' | 'config';

/** A failure of the model endpoint, with a message for a person. */
export class LlmError extends Error {
  constructor(message: string, readonly code: LlmErrorCode, readonly status?: number) {
    super(message);
    this.name = 'LlmError';
  }
}

/**
 * The endpoint configured by `ALLOT_LLM_URL`, `ALLOT_LLM_MODEL` and `ALLOT_LLM_API_KEY`
 * (optional: `ALLOT_LLM_TIMEOUT_MS` per attempt, `ALLOT_LLM_RETRIES`), or null when no URL is set.
 */
export function llmConfigFromEnv(env: NodeJS.ProcessEnv = process.env): LlmConfig | null {
  const url = env.ALLOT_LLM_URL?.trim();
  if (!url) return null;
  const model = env.ALLOT_LLM_MODEL?.trim();
  if (!model) throw new LlmError('ALLOT_LLM_URL is set but ALLOT_LLM_MODEL is not: name the model to ask', 'config');
  const timeout = env.ALLOT_LLM_TIMEOUT_MS ? Number(env.ALLOT_LLM_TIMEOUT_MS) : undefined;
  const retries = env.ALLOT_LLM_RETRIES ? Number(env.ALLOT_LLM_RETRIES) : undefined;
  return {
    url,
    model,
    ...(env.ALLOT_LLM_API_KEY ? { apiKey: env.ALLOT_LLM_API_KEY } : {}),
    ...(timeout && timeout > 0 ? { timeoutMs: timeout } : {}),
    ...(retries !== undefined && Number.isInteger(retries) && retries >= 0 ? { retries } : {}),
  };
}

/** The chat-completions URL of a configured endpoint. */
export function completionsUrl(url: string): string {
  const u = url.trim().replace(/\/+$/, '');
  return /\/chat\/completions$/.test(u) ? u : `${u}/chat/completions`;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Seconds or an HTTP date, as a server writes Retry-After; null when absent or unreadable. */
function retryAfterMs(value: string | null): number | null {
  if (!value) return null;
  const s = Number(value);
  if (Number.isFinite(s)) return Math.max(0, s * 1000);
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : Math.max(0, t - Date.now());
}

function errorDetail(body: string): string {
  try {
    const j = JSON.parse(body) as { error?: { message?: string } | string; message?: string };
    const m = typeof j.error === 'string' ? j.error : j.error?.message ?? j.message;
    if (m) return m.slice(0, 300);
  } catch {
    // not JSON
  }
  return body.replace(/\s+/g, ' ').trim().slice(0, 300);
}

/**
 * One chat completion: the assistant message's text.
 * @example await chatCompletion({ url: 'http://127.0.0.1:8080/v1', model: 'qwen' }, [{ role: 'user', content: 'hi' }])
 */
export async function chatCompletion(config: LlmConfig, messages: ChatMessage[], fetchImpl: typeof fetch = fetch): Promise<string> {
  const c = { ...LLM_DEFAULTS, ...config };
  const url = completionsUrl(c.url);
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (c.apiKey) headers.authorization = `Bearer ${c.apiKey}`;
  const body = JSON.stringify({ model: c.model, messages, temperature: c.temperature, max_tokens: c.maxTokens, stream: false });
  let lastError: LlmError | null = null;
  let retryAfter: number | null = null;
  for (let attempt = 0; attempt <= c.retries; attempt++) {
    if (attempt > 0) {
      const backoff = c.backoffMs * 2 ** (attempt - 1);
      await sleep(Math.min(c.maxBackoffMs, Math.max(backoff, retryAfter ?? 0)));
      retryAfter = null;
    }
    let res: Response;
    let text: string;
    try {
      res = await fetchImpl(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(c.timeoutMs) });
      text = await res.text();
    } catch (err) {
      const e = err as Error;
      lastError = e.name === 'TimeoutError' || e.name === 'AbortError'
        ? new LlmError(`the model endpoint ${url} did not answer within ${c.timeoutMs} ms`, 'timeout')
        : new LlmError(`cannot reach the model endpoint ${url}: ${(e as Error & { cause?: Error }).cause?.message ?? e.message}`, 'network');
      continue;
    }
    if (res.status === 401 || res.status === 403) {
      throw new LlmError(
        `the model endpoint ${url} refused the API key (HTTP ${res.status}: ${errorDetail(text)}): check ALLOT_LLM_API_KEY`,
        'auth', res.status,
      );
    }
    if (res.status === 429 || res.status >= 500) {
      lastError = new LlmError(`the model endpoint ${url} answered HTTP ${res.status}: ${errorDetail(text)}`, 'http', res.status);
      retryAfter = retryAfterMs(res.headers.get('retry-after'));
      continue;
    }
    if (!res.ok) {
      const hint = res.status === 404 ? ' (check ALLOT_LLM_URL)' : res.status === 400 ? ' (check ALLOT_LLM_MODEL)' : '';
      throw new LlmError(`the model endpoint ${url} answered HTTP ${res.status}${hint}: ${errorDetail(text)}`, 'http', res.status);
    }
    let json: { choices?: { message?: { content?: unknown } ; text?: unknown }[] };
    try {
      json = JSON.parse(text);
    } catch {
      throw new LlmError(`the model endpoint ${url} answered with something that is not JSON: ${text.slice(0, 120)}`, 'bad-response');
    }
    const choice = json.choices?.[0];
    const content = choice?.message?.content ?? choice?.text;
    if (typeof content !== 'string') throw new LlmError(`the model endpoint ${url} answered without a message (choices[0].message.content)`, 'bad-response');
    return content;
  }
  throw new LlmError(`${lastError!.message} (gave up after ${c.retries + 1} attempts)`, lastError!.code, lastError!.status);
}
