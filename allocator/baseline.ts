/**
 * The chunk-bm25 baseline's packing: fixed-size line chunks, already ranked,
 * packed verbatim in rank order until the budget is reached. The store
 * supplies the chunks; this is the pure part.
 */
import { getTokenizer, type Tokenizer, type TokenizerName } from '../indexer/tokenizer.ts';
import { joinWithinBudget, SEPARATOR } from './join.ts';
import { renderWithin, shrinkRendered, sourceLines, type Rendered, type RenderInput } from './render.ts';

export interface Chunk {
  path: string;
  startLine: number;
  endLine: number;
  text: string;
  score: number;
}

export interface PackedChunk {
  path: string;
  score: number;
  startLine: number;
  endLine: number;
  shownStartLine: number;
  shownEndLine: number;
  tokens: number;
  text: string;
}

export interface ChunkPacking {
  budget: number;
  tokenizer: TokenizerName;
  totalTokens: number;
  text: string;
  chunks: PackedChunk[];
}

// Chunk-BM25 baseline rule: chunks in rank order, each whole (header `### path:a-b` + its lines), until one no
// longer fits; that one is cut at the last line that fits, and packing stops.
export function packChunks(
  chunks: readonly Chunk[],
  budget: number,
  tokenizer: Tokenizer | TokenizerName = 'cl100k_base',
): ChunkPacking {
  const tok = typeof tokenizer === 'string' ? getTokenizer(tokenizer) : tokenizer;
  const B = Math.max(0, Math.floor(budget));
  const sepTokens = tok.count(SEPARATOR);
  const ranked = chunks
    .map((c, index) => ({ c, index }))
    .sort((a, b) => b.c.score - a.c.score || a.index - b.index)
    .map(({ c }) => c);

  const inputs: RenderInput[] = [];
  const parts: Rendered[] = [];
  const used: Chunk[] = [];
  let R = B;
  for (const c of ranked) {
    const sep = parts.length > 0 ? sepTokens : 0;
    if (R - sep <= 0) break;
    const input: RenderInput = {
      path: c.path, qualifiedName: '', signature: '', startLine: c.startLine,
      lines: sourceLines(c.text, c.endLine - c.startLine + 1),
    };
    const r = renderWithin(input, R - sep, [], tok, { from: 'start' });
    if (!r.window) break; // not one line of it fits: the budget is reached
    inputs.push(input);
    parts.push(r);
    used.push(c);
    R -= r.tokens + sep;
    if (r.outcome !== 'whole') break;
  }

  const joined = joinWithinBudget(parts, B, tok, (r, k) => shrinkRendered(inputs[k], r, tok));
  const packed: PackedChunk[] = [];
  joined.parts.forEach((r, k) => {
    if (r.text === '') return;
    const input = inputs[k];
    packed.push({
      path: used[k].path,
      score: used[k].score,
      startLine: input.startLine,
      endLine: input.startLine + input.lines.length - 1,
      shownStartLine: r.window ? input.startLine + r.window[0] : 0,
      shownEndLine: r.window ? input.startLine + r.window[1] : 0,
      tokens: r.tokens,
      text: r.text,
    });
  });
  return { budget: B, tokenizer: tok.name, totalTokens: joined.tokens, text: joined.text, chunks: packed };
}
