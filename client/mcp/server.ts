/**
 * `allot mcp`: a stdio MCP server (the official SDK). A thin transport over
 * the tools of `tools.ts`, which answer through the repository's daemon (or
 * in-process). stdout carries the protocol, so every log line goes to stderr.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ChatMessage } from '../../allocator/files/llm.ts';
import { VERSION } from '../cli/version.ts';
import type { Backend } from './backend.ts';
import type { AskModel } from './sampling.ts';
import { LineTransport } from './stdio-transport.ts';
import { defineTools } from './tools.ts';

const INSTRUCTIONS =
  'allot holds an index of this repository\'s code objects (functions, classes, methods, types) and their references. ' +
  'Use get_context for the code relevant to what you are writing, select_files for the whole files an issue fix must change, ' +
  'find_symbol to find a definition by name, find_references for its callers, importers, subclasses and tests, file_outline for a map of a file, ' +
  'read_file and read_object to read code verbatim, search_code to locate things by words. Pass the same session id across calls of one task. ' +
  'While the first index is still being built, answers say so first: a missing match then does not mean the code does not exist.';

/** How long the host's model may take for one localization answer. */
const SAMPLING_TIMEOUT_MS = 120_000;

export interface McpServerOptions {
  /** How long a tool call waits for a first full build before answering from what is indexed. */
  indexWaitMs?: number;
}

export function createMcpServer(backend: Backend, log: (line: string) => void, options: McpServerOptions = {}): McpServer {
  const server = new McpServer({ name: 'allot', version: VERSION }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS });
  // The host's model, through sampling, when the host declared it can sample.
  const askModel = (): AskModel | null => {
    if (!server.server.getClientCapabilities()?.sampling) return null;
    return async (messages: ChatMessage[]) => {
      const system = messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n\n');
      const result = await server.server.createMessage(
        {
          ...(system ? { systemPrompt: system } : {}),
          messages: messages.filter((m) => m.role !== 'system').map((m) => ({ role: m.role as 'user' | 'assistant', content: { type: 'text' as const, text: m.content } })),
          maxTokens: 1024,
          temperature: 0.7,
          includeContext: 'none',
        },
        { timeout: SAMPLING_TIMEOUT_MS },
      );
      const parts = Array.isArray(result.content) ? result.content : [result.content];
      const text = parts.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
      if (!text.trim()) throw new Error('the host\'s model answered with no text');
      return text;
    };
  };
  for (const tool of defineTools(backend, { askModel, log, indexWaitMs: options.indexWaitMs })) {
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: tool.inputSchema, annotations: tool.annotations },
      (args: Record<string, unknown>) => tool.handle(args ?? {}),
    );
  }
  return server;
}

/** Serves MCP on stdin/stdout until the host closes the stream; bad lines are answered with JSON-RPC errors (stdio-transport.ts). */
export async function serveStdio(backend: Backend, log: (line: string) => void, options: McpServerOptions = {}): Promise<void> {
  const server = createMcpServer(backend, log, options);
  const transport = new LineTransport(process.stdin, process.stdout, { log });
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  log(`allot MCP server ${VERSION} ready (${backend.via})`);
  await closed;
  await server.close().catch(() => undefined);
  backend.close();
}
