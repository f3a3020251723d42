// The MCP transport's line reading (issue 17, item 8), pure: every line is a message or a JSON-RPC error, a
// line over the limit is answered once and skipped as it streams, whatever the chunk boundaries.
import { describe, expect, it } from 'vitest';
import { INVALID_PARAMS, INVALID_REQUEST, leadingId, lineSplitter, PARSE_ERROR, readLine } from '../../client/mcp/stdio-transport.ts';

/** Feeds `text` in chunks of `size` bytes; returns what the splitter reported. */
function split(text: string, max: number, size: number): string[] {
  const seen: string[] = [];
  const feed = lineSplitter(max, { line: (l) => seen.push(`line ${l}`), oversized: (id) => seen.push(`oversized ${JSON.stringify(id)}`) });
  const buf = Buffer.from(text);
  for (let i = 0; i < buf.length; i += size) feed(buf.subarray(i, i + size));
  return seen;
}

describe('MCP lines', () => {
  it('splits lines whatever the chunks, and skips an oversized one once, keeping its id', () => {
    const long = `{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"q":"${'x'.repeat(100)}"}}`;
    const text = `a\n${long}\nb\n\nccc\n${'y'.repeat(50)}\nd\n`;
    const want = ['line a', 'oversized 42', 'line b', 'line ', 'line ccc', 'oversized null', 'line d'];
    for (const size of [1, 2, 3, 7, 16, 64, 1000]) expect(split(text, 40, size), `chunks of ${size}`).toEqual(want);
    // exactly at the limit is a line; one byte more is not
    expect(split(`${'z'.repeat(20)}\n${'z'.repeat(21)}\nok\n`, 20, 5)).toEqual([`line ${'z'.repeat(20)}`, 'oversized null', 'line ok']);
    // an unfinished line waits for its newline
    expect(split('{"a":1}', 20, 3)).toEqual([]);
  });

  it('reads the id at the head of an oversized line only where it is a top-level key', () => {
    expect(leadingId('{"jsonrpc":"2.0","id":7,"method":"x"')).toBe(7);
    expect(leadingId('{"id":"abc","jsonrpc":"2.0"')).toBe('abc');
    expect(leadingId('{"jsonrpc":"2.0","method":"x","params":{"id":9')).toBeNull();
    expect(leadingId('garbage')).toBeNull();
  });

  it('answers malformed lines with -32700 or -32600, and accepts any string or number as a progress token', () => {
    const reply = (l: string) => { const o = readLine(l); return o && 'reply' in o ? (o.reply as any) : null; };
    expect(reply('{"jsonrpc":')).toMatchObject({ id: null, error: { code: PARSE_ERROR } });
    expect(reply('[1,2]')).toMatchObject({ id: null, error: { code: INVALID_REQUEST } });
    expect(reply('{"jsonrpc":"2.0","id":5}')).toMatchObject({ id: 5, error: { code: INVALID_REQUEST } });
    expect(reply('{"jsonrpc":"2.0","id":"s","method":"tools/call","params":{"_meta":{"progressToken":{}}}}')).toMatchObject({
      id: 's', error: { code: INVALID_REQUEST, message: expect.stringMatching(/progressToken must be a string or a number/) },
    });
    // a known method with params that do not fit it: the client's error (-32602), not an internal one
    expect(reply('{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"search_code","arguments":null}}')).toMatchObject({
      id: 6, error: { code: INVALID_PARAMS, message: expect.stringMatching(/^Invalid params: params\.arguments: /) },
    });
    expect(readLine('{"jsonrpc":"2.0","id":7,"method":"no/such/method"}')).toMatchObject({ message: { id: 7 } });
    expect(readLine('   ')).toBeNull();
    for (const token of ['t', 0, 7, -3, 1.5]) {
      const o = readLine(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', _meta: { progressToken: token } } }));
      expect(o && 'message' in o, String(token)).toBe(true);
    }
    const ok = readLine('{"jsonrpc":"2.0","id":1,"method":"ping"}\r');
    expect(ok).toEqual({ message: { jsonrpc: '2.0', id: 1, method: 'ping' } });
  });
});
