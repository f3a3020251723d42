/**
 * A tiny BERT-shaped ONNX model with random (seeded) weights, written at test
 * set-up: token embeddings -> tanh -> `last_hidden_state`, plus a real
 * WordPiece tokenizer. It exercises transformers.js's real loader, tokenizer,
 * ONNX session and pooling; it says nothing about embedding quality.
 */
import fs from 'node:fs';
import path from 'node:path';
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto as unknown as { onnx: typeof import('onnx-proto').onnx };

const SPECIAL = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
const WORDS = [
  'read', 'write', 'file', 'path', 'parse', 'config', 'cart', 'total', 'price', 'tax', 'discount', 'user', 'name', 'the', 'a', 'of', 'to',
  'def', 'return', 'class', 'self', 'import', 'from', 'function', 'const', '(', ')', ':', '.', ',', '=', '_',
  ...'abcdefghijklmnopqrstuvwxyz0123456789'.split(''),
  ...'abcdefghijklmnopqrstuvwxyz0123456789'.split('').map((c) => `##${c}`),
];

/** Writes the model folder (config, tokenizer, onnx/model.onnx) and returns its path. */
export function writeTinyBert(dir: string, opts: { hidden?: number; seed?: number } = {}): string {
  const hidden = opts.hidden ?? 32;
  const vocab = [...SPECIAL, ...WORDS];
  let seed = opts.seed ?? 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * 2 - 1;
  const weights = Float32Array.from({ length: vocab.length * hidden }, rand);

  const graph = onnx.GraphProto.create({
    name: 'tiny-bert',
    node: [
      onnx.NodeProto.create({ opType: 'Gather', input: ['embeddings', 'input_ids'], output: ['gathered'], name: 'gather' }),
      onnx.NodeProto.create({ opType: 'Tanh', input: ['gathered'], output: ['last_hidden_state'], name: 'tanh' }),
    ],
    initializer: [
      onnx.TensorProto.create({ name: 'embeddings', dims: [vocab.length, hidden], dataType: onnx.TensorProto.DataType.FLOAT, rawData: new Uint8Array(weights.buffer) }),
    ],
    input: [
      tensorInfo('input_ids', onnx.TensorProto.DataType.INT64, ['batch', 'sequence']),
      tensorInfo('attention_mask', onnx.TensorProto.DataType.INT64, ['batch', 'sequence']),
    ],
    output: [tensorInfo('last_hidden_state', onnx.TensorProto.DataType.FLOAT, ['batch', 'sequence', hidden])],
  });
  const model = onnx.ModelProto.create({ irVersion: 8, opsetImport: [{ domain: '', version: 17 }], producerName: 'allot-tests', graph });
  fs.mkdirSync(path.join(dir, 'onnx'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'onnx', 'model.onnx'), onnx.ModelProto.encode(model).finish());
  fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify({ model_type: 'bert', architectures: ['BertModel'], hidden_size: hidden, vocab_size: vocab.length, max_position_embeddings: 512 }));
  fs.writeFileSync(path.join(dir, 'tokenizer_config.json'), JSON.stringify({ tokenizer_class: 'BertTokenizer', do_lower_case: true, model_max_length: 512, cls_token: '[CLS]', sep_token: '[SEP]', unk_token: '[UNK]', pad_token: '[PAD]', mask_token: '[MASK]' }));
  fs.writeFileSync(path.join(dir, 'tokenizer.json'), JSON.stringify(tokenizerJson(vocab)));
  return dir;
}

function tensorInfo(name: string, elemType: number, dims: (string | number)[]) {
  return onnx.ValueInfoProto.create({
    name,
    type: { tensorType: { elemType, shape: { dim: dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })) } } },
  });
}

function tokenizerJson(vocab: string[]) {
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL.map((content, id) => ({ id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }],
      pair: [{ SpecialToken: { id: '[CLS]', type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '[SEP]', type_id: 0 } }, { Sequence: { id: 'B', type_id: 1 } }, { SpecialToken: { id: '[SEP]', type_id: 1 } }],
      special_tokens: { '[CLS]': { id: '[CLS]', ids: [2], tokens: ['[CLS]'] }, '[SEP]': { id: '[SEP]', ids: [3], tokens: ['[SEP]'] } },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab: Object.fromEntries(vocab.map((t, i) => [t, i])) },
  };
}
