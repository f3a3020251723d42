// Detection: extensions, `.h` headers as C or C++ by content, shebang lines; and the files indexed as
// plain text for want of a grammar, named by extension in the index summary.
import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { languageOf, shebangLanguage } from '../../indexer/languages/registry.ts';
import { indexRepository } from '../../indexer/index-repository.ts';
import { formatSummary } from '../../client/cli/commands/index.ts';
import { plainTextLine } from '../../client/cli/plain-text.ts';
import { tempDir, writeTree } from '../helpers/repo.ts';
import { extractionHarness } from './harness.ts';

const { extractText } = extractionHarness('detection');
const roots: string[] = [];
afterAll(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));

describe('shebang lines name the language of a file without a grammar for its extension', () => {
  it.each([
    ['#!/usr/bin/env python3\n', 'python'],
    ['#!/usr/bin/python3.11 -u\n', 'python'],
    ['#!/usr/bin/env -S python3 -X dev\n', 'python'],
    ['#!/bin/bash\n', 'bash'],
    ['#!/bin/sh -e\n', 'bash'],
    ['#!/usr/bin/env zsh\n', 'bash'],
    ['#!/usr/bin/env node\n', 'javascript'],
    ['#!/usr/bin/env ruby\n', 'ruby'],
    ['#!/usr/bin/env FOO=1 lua5.4\n', 'lua'],
  ])('%j -> %s', (text, language) => {
    expect(shebangLanguage(text)).toBe(language);
    expect(languageOf('bin/tool', text)).toBe(language);
  });

  it('leaves unknown interpreters, no shebang and known extensions alone', () => {
    expect(languageOf('bin/tool', '#!/usr/bin/perl\n')).toBe('text');
    expect(languageOf('bin/tool', 'echo hi\n')).toBe('text');
    expect(languageOf('notes.md', '#!/bin/bash\n')).toBe('text');
    expect(languageOf('tool.py', '#!/bin/bash\n')).toBe('python');
    expect(languageOf('bin/tool')).toBe('text');
    expect(languageOf('test/test.sh.in', '#!/bin/sh\n')).toBe('bash');
    expect(languageOf('build-aux/config.guess', '#! /bin/sh\n')).toBe('bash');
  });

  it('parses an extensionless script by its shebang', async () => {
    const f = await extractText('bin/deploy', '#!/usr/bin/env python3\n"""Deploys."""\n\ndef main():\n    return 0\n');
    expect(f.language).toBe('python');
    expect(f.objects.map((o) => `${o.kind} ${o.qualifiedName}`)).toEqual(['module bin.deploy', 'function main']);
  });
});

describe('.h headers are C or C++ by their content', () => {
  it.each([
    ['typedef struct point { int x; } point_t;\nint add(int a, int b);\n', 'c'],
    ['/* a class of its own */\n// namespace in a comment {\n#include <stdio.h>\nvoid f(void);\n', 'c'],
    ['namespace geo {\nint area();\n}\n', 'cpp'],
    ['class Shape {\n public:\n  virtual ~Shape();\n};\n', 'cpp'],
    ['template <typename T> T id(T v) { return v; }\n', 'cpp'],
    ['#include <vector>\n#include <string>\nstd::string name();\n', 'cpp'],
  ])('%j -> %s', async (text, language) => {
    expect(languageOf('include/x.h', text)).toBe(language);
    const f = await extractText(`include/x-${language}-${text.length}.h`, text);
    expect(f.language).toBe(language);
  });

  it('takes a header as C when only its path is known', () => {
    expect(languageOf('include/x.h')).toBe('c');
  });
});

describe('files indexed as plain text are named by extension', () => {
  it('counts them in the summary and prints them on their own line', async () => {
    const root = tempDir('allot-plain-');
    roots.push(root);
    writeTree(root, {
      'src/app.py': 'def main():\n    return 1\n',
      'README.md': '# App\n',
      'docs/guide.md': '# Guide\n',
      'src/legacy/a.m': '@interface A\n@end\n',
      'src/legacy/b.m': '@interface B\n@end\n',
      'src/legacy/c.pl': 'print "hi";\n',
      'Makefile': 'all:\n\techo hi\n',
      'bin/run': '#!/bin/bash\necho hi\n',
    });
    const summary = await indexRepository({ repo: root, db: `${root}/.allot/index.db`, workers: 0 });
    expect(summary.filesByLanguage).toEqual({ bash: 1, python: 1, text: 6 });
    expect(summary.textByExtension).toEqual({ '.m': 2, '.md': 2, '(none)': 1, '.pl': 1 });
    expect(formatSummary(summary, root)).toContain('plain text  6 file(s) without a grammar: .m 2, .md 2, (none) 1, .pl 1');
    expect(plainTextLine({ '.a': 3, '.b': 2, '.c': 1 }, 2)).toBe('6 file(s) without a grammar: .a 3, .b 2, 1 more extension(s)');
    expect(plainTextLine({})).toBe('none');
  });
});
