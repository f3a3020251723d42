import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CreateMessageRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { BIN } from './daemon.ts';

export interface McpSession {
  client: Client;
  stderr(): string;
  /** The `allot mcp` process. */
  pid(): number | undefined;
  close(): Promise<void>;
}

/**
 * Starts the real `allot mcp <repo> [args]` and connects the MCP SDK's client over stdio; `sampling` answers the
 * server's sampling requests (a host that can sample). ALLOT_LLM_* are not passed on.
 */
export async function openMcp(repo: string, opts: { sampling?: (prompt: string) => string; args?: string[] } = {}): Promise<McpSession> {
  const env: Record<string, string> = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => v !== undefined && !k.startsWith('ALLOT_LLM'))) as Record<string, string>;
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', repo, ...(opts.args ?? [])], env, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const sampling = opts.sampling;
  const client = new Client({ name: 'allot-test-host', version: '1.0.0' }, { capabilities: sampling ? { sampling: {} } : {} });
  if (sampling) {
    client.setRequestHandler(CreateMessageRequestSchema, async (req) => {
      const content = req.params.messages.map((m) => (m.content as { type: string; text?: string }).text ?? '').join('\n');
      return { role: 'assistant', model: 'test-host-model', content: { type: 'text', text: sampling(content) } };
    });
  }
  await client.connect(transport);
  return { client, stderr: () => stderr, pid: () => transport.pid ?? undefined, close: () => client.close() };
}

/** A tool result's text items, joined. */
export const textOf = (r: CallToolResult | object): string => ((r as CallToolResult).content as { type: string; text: string }[]).map((c) => c.text).join('\n');

export const callTool = async (s: McpSession, name: string, args: Record<string, unknown>): Promise<CallToolResult> =>
  (await s.client.callTool({ name, arguments: args })) as CallToolResult;
