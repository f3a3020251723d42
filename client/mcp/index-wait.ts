/**
 * How long an MCP tool call waits for a first full build before answering from
 * what is indexed (`allot mcp --index-wait SECONDS`). Its own module, free of
 * imports, so the CLI reads it without loading the MCP server.
 */
export const DEFAULT_INDEX_WAIT_MS = 10_000;
/** The longest wait: hosts time tool calls out after a minute or two. */
export const MAX_INDEX_WAIT_S = 120;
