/**
 * `allot mcp --print-config HOST`: the snippet each MCP host wants, with
 * absolute paths filled in (hosts start servers from their own working folder
 * and PATH, so nothing may be relative). Pure: the caller passes the paths.
 */
export const MCP_HOSTS = ['claude', 'cursor', 'vscode', 'zed', 'codex'] as const;
export type McpHost = (typeof MCP_HOSTS)[number];

export interface LaunchCommand {
  /** Absolute path of the node executable. */
  command: string;
  /** The allot entry point and `mcp <repo>`. */
  args: string[];
}

export interface HostConfig {
  /** Where the snippet goes, for a person. */
  where: string;
  /** The snippet itself (JSON or TOML). */
  snippet: string;
  /** A one-line alternative where the host has one. */
  oneLiner?: string;
}

/** A word for a POSIX shell: as is when plain, else single-quoted. */
const shellWord = (a: string) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);
const json = (v: unknown) => JSON.stringify(v, null, 2);
const tomlString = (s: string) => JSON.stringify(s); // TOML basic strings share JSON's escapes for these characters

/** @example hostConfig('cursor', { command: '/usr/bin/node', args: ['/opt/allot/client/bin/allot.js', 'mcp', '/src/app'] }).snippet */
export function hostConfig(host: McpHost, launch: LaunchCommand): HostConfig {
  const server = { command: launch.command, args: launch.args };
  const shell = [launch.command, ...launch.args].map(shellWord).join(' ');
  switch (host) {
    case 'claude':
      return { where: '.mcp.json at the repository root (Claude Code, project scope)', snippet: json({ mcpServers: { allot: server } }), oneLiner: `claude mcp add allot -- ${shell}` };
    case 'cursor':
      return { where: '.cursor/mcp.json in the repository (or ~/.cursor/mcp.json)', snippet: json({ mcpServers: { allot: server } }) };
    case 'vscode':
      return {
        where: '.vscode/mcp.json in the repository (VS Code agent mode)',
        snippet: json({ servers: { allot: { type: 'stdio', ...server } } }),
        oneLiner: `code --add-mcp ${shellWord(JSON.stringify({ name: 'allot', type: 'stdio', ...server }))}`,
      };
    case 'zed':
      return { where: 'Zed settings.json (zed: open settings)', snippet: json({ context_servers: { allot: { ...server, env: {} } } }) };
    case 'codex':
      return {
        where: '~/.codex/config.toml',
        snippet: ['[mcp_servers.allot]', `command = ${tomlString(server.command)}`, `args = [${server.args.map(tomlString).join(', ')}]`].join('\n'),
        oneLiner: `codex mcp add allot -- ${shell}`,
      };
  }
}
