/**
 * Per-session memory of what was sent (see allocator/already-shown.ts), kept by
 * the query engine so every client of one daemon (CLI, HTTP, each MCP server)
 * shares it. Bounded: the least recently used sessions are forgotten first.
 */
export interface SessionMemory {
  /** object id -> digest of the text sent whole. */
  objects: Map<string, string>;
  /** file path -> digest of the file text sent whole. */
  files: Map<string, string>;
}

export interface Sessions {
  /** The session's memory, created on first use. */
  get(id: string): SessionMemory;
  readonly size: number;
}

export function createSessions(max = 256): Sessions {
  const all = new Map<string, SessionMemory>();
  return {
    get(id) {
      let s = all.get(id);
      if (s) all.delete(id);
      else s = { objects: new Map(), files: new Map() };
      all.set(id, s); // most recently used last
      while (all.size > max) all.delete(all.keys().next().value!);
      return s;
    },
    get size() {
      return all.size;
    },
  };
}
