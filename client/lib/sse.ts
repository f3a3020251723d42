/**
 * A server-sent events parser (the subset the daemon emits: `event:`, `data:`,
 * `id:`, comments), fed with text chunks that may split lines anywhere.
 */

export interface SseMessage {
  event: string;
  data: string;
  id: string | null;
}

export function createSseParser(onMessage: (m: SseMessage) => void): { push(chunk: string): void } {
  let buffer = '';
  let event = '';
  let data: string[] = [];
  let id: string | null = null;
  const dispatch = () => {
    if (data.length) onMessage({ event: event || 'message', data: data.join('\n'), id });
    event = '';
    data = [];
  };
  return {
    push(chunk) {
      buffer += chunk;
      let nl: number;
      while ((nl = buffer.search(/\r\n|\r|\n/)) >= 0) {
        // A lone CR at the end may be the first half of CRLF: wait for the next chunk.
        if (nl === buffer.length - 1 && buffer[nl] === '\r') break;
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + (buffer.startsWith('\r\n', nl) ? 2 : 1));
        if (line === '') dispatch();
        else if (line.startsWith(':')) continue;
        else {
          const colon = line.indexOf(':');
          const field = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
          if (field === 'event') event = value;
          else if (field === 'data') data.push(value);
          else if (field === 'id') id = value;
        }
      }
    },
  };
}
