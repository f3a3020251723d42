import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSseParser, type SseMessage } from '../../client/lib/sse.ts';

const collect = (chunks: string[]) => {
  const out: SseMessage[] = [];
  const p = createSseParser((m) => out.push(m));
  for (const c of chunks) p.push(c);
  return out;
};

describe('SSE parser', () => {
  const stream = 'event: hello\ndata: {"a":1}\n\n: keep-alive\n\nevent: indexed\ndata: {"b":\ndata: 2}\nid: 7\n\ndata: plain\r\n\r\n';
  const expected = [
    { event: 'hello', data: '{"a":1}', id: null },
    { event: 'indexed', data: '{"b":\n2}', id: '7' },
    { event: 'message', data: 'plain', id: '7' },
  ];

  it('parses events, comments, multi-line data and CRLF', () => {
    expect(collect([stream])).toEqual(expected);
  });

  it('does not care where chunks split', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: stream.length }), { maxLength: 10 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const chunks: string[] = [];
        let last = 0;
        for (const p of points) {
          chunks.push(stream.slice(last, p));
          last = p;
        }
        chunks.push(stream.slice(last));
        expect(collect(chunks)).toEqual(expected);
      }),
    );
  });
});
