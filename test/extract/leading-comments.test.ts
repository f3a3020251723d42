// Which comment documents which definition, one row per case: a comment directly before a definition (in a file,
// namespace, class, preprocessor block or function body) is its docstring; a comment trailing the code of the line
// before is not.
import { describe, expect, it } from 'vitest';
import { extractionHarness, object } from './harness.ts';

const { extractText } = extractionHarness('leading-comments');

interface Row {
  name: string;
  file: string;
  text: string;
  /** Qualified name -> its docstring (null: none). */
  docs: Record<string, string | null>;
}

const ROWS: Row[] = [
  {
    name: 'C macros: a comment on its own line documents the next one, a trailing comment does not',
    file: 'flags.c',
    text: '/* Largest batch. */\n#define MAX_BATCH 64 /* items */\n#define MIN_BATCH 1\n',
    docs: { MAX_BATCH: '/* Largest batch. */', MIN_BATCH: null },
  },
  {
    name: 'C: inside a preprocessor block, and a macro local to a function',
    file: 'fast.c',
    text: '#ifdef FAST\n/* Fast path. */\nint step(int n) {\n  /* One stride. */\n  #define STRIDE 4\n  /* not a definition */\n  return n + STRIDE;\n}\n#endif\n',
    docs: { step: '/* Fast path. */', 'step.STRIDE': '/* One stride. */' },
  },
  {
    name: 'C++: namespace and class members, a class local to a function',
    file: 'widget.cc',
    text:
      'namespace ui {\n// A widget.\nclass Widget {\n public:\n  // Its size.\n  int size() { return 1; }\n};\n' +
      'void paint() {\n  // Local.\n  struct Brush { int w; };\n  // a statement\n  size();\n}\n}\n',
    docs: { 'ui.Widget': '// A widget.', 'ui.Widget.size': '// Its size.', 'ui.paint.Brush': '// Local.', 'ui.paint': null },
  },
  {
    name: 'Go: a comment trailing a declaration documents neither it nor the next one',
    file: 'limits.go',
    text: 'package limits\n\nvar Max = 8 // per batch\nfunc Min() int { return 1 }\n\n// Mid is the middle.\nfunc Mid() int { return 4 }\n',
    docs: { Max: null, Min: null, Mid: '// Mid is the middle.' },
  },
  {
    name: 'Rust: a comment trailing an attribute is skipped, the doc comment above it kept',
    file: 'dir.rs',
    text: 'pub struct Dir;\n\nimpl Dir {\n    /// Links a file.\n    #[allow(dead_code)] // unused on Windows\n    pub fn link(&self) {}\n}\n',
    docs: { 'Dir.link': '/// Links a file.' },
  },
];

describe.each(ROWS)('$name', (row) => {
  it('attaches the comments that lead a definition', async () => {
    const f = await extractText(row.file, row.text);
    expect(f.parseErrors).toBe(0);
    for (const [name, doc] of Object.entries(row.docs)) expect(object(f, name).docstring, name).toBe(doc);
  });
});
