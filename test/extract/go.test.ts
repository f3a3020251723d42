import { describe, expect, it } from 'vitest';
import { extractionHarness, objects, object, parentOf, views, refs } from './harness.ts';

const { extract, extractText } = extractionHarness('go');

describe('go extraction of the fixture', () => {
  it('extracts structs, interfaces, other types, grouped constants and variables, functions and methods', async () => {
    const f = await extract('store/store.go');
    expect(f.language).toBe('go');
    expect(f.parseErrors).toBe(0);
    expect(objects(f)).toEqual([
      'module store.store 1-82',
      'constant ErrNotFound 10-11',
      'constant DefaultCapacity 14-15',
      'constant maxKeyLen 16-16',
      'constant maxValueLen 16-16',
      'type Key 19-20',
      'interface Backend 22-26',
      'method Backend.Load 24-24',
      'method Backend.Save 25-25',
      'struct Store 28-33',
      'type Option 36-37',
      'struct Pair 38-41',
      'function New 44-51',
      'method Store.Get 53-62',
      'method Store.Put 64-71',
      'function Collect 73-82',
    ]);
    // A method hangs off the module, named after its receiver type.
    expect(parentOf(f, 'Store.Get')).toBe('store.store');
    expect(parentOf(f, 'Backend.Save')).toBe('Backend');
    expect(object(f, 'Store.Get').signature).toBe('func (s *Store) Get(key Key) (string, error)');
    expect(object(f, 'Collect').signature).toBe('func Collect[V any](pairs []Pair[V], keep func(V) bool) []Pair[V]');
    expect(object(f, 'Store.Get').docstring).toBe('// Get returns the value under key, or ErrNotFound.');
    expect(views(f, 'Store.Get')).toEqual(['signature 54-54', 'body 53-62', 'docstring 53-53']);
    // In a group, the doc comment of a spec sits inside the parentheses.
    expect(views(f, 'DefaultCapacity')).toEqual(['signature 15-15', 'body 14-15', 'docstring 14-14']);
    expect(views(f, 'Store')).toEqual(['signature 29-29', 'body 28-33', 'docstring 28-28']);
  });

  it('records imports, selector calls and embedding as inheritance', async () => {
    const f = await extract('store/store.go');
    expect(refs(f)).toEqual([
      '5 import errors from errors <- store.store',
      '6 import fmt from fmt <- store.store',
      '7 import sync from sync <- store.store',
      '11 call New on errors <- ErrNotFound',
      '30 inherit RWMutex on sync <- Store',
      '48 call opt <- New',
      '55 call RLock on s <- Store.Get',
      '56 call RUnlock on s <- Store.Get',
      '57 call Load on s.backend <- Store.Get',
      '61 call Errorf on fmt <- Store.Get',
      '65 call len <- Store.Put',
      '66 call New on errors <- Store.Put',
      '68 call Lock on s <- Store.Put',
      '69 call Unlock on s <- Store.Put',
      '70 call Save on s.backend <- Store.Put',
      '77 call keep <- Collect',
      '78 call append <- Collect',
    ]);
  });

  it('extracts a second file of the package and its test file', async () => {
    const memory = await extract('store/memory.go');
    expect(objects(memory)).toEqual(['module store.memory 1-21', 'struct Memory 3-6', 'function NewMemory 8-11', 'method Memory.Load 13-16', 'method Memory.Save 18-21']);
    const tests = await extract('store/store_test.go');
    expect(objects(tests)).toEqual(['module store.store_test 1-21', 'function TestGetMissing 5-10', 'function TestPutThenGet 12-21']);
    expect(refs(tests).slice(0, 5)).toEqual([
      '3 import testing from testing <- store.store_test',
      '6 call New <- TestGetMissing',
      '6 call NewMemory <- TestGetMissing',
      '7 call Get on s <- TestGetMissing',
      '8 call Fatal on t <- TestGetMissing',
    ]);
  });

  it('reads grouped and aliased imports of a command', async () => {
    const f = await extract('cmd/kv/main.go');
    expect(objects(f)).toEqual(['module cmd.kv.main 1-21', 'function main 12-21']);
    expect(refs(f)).toEqual([
      '4 import flag from flag <- cmd.kv.main',
      '5 import fmt from fmt <- cmd.kv.main',
      '6 import log from log as stdlog <- cmd.kv.main',
      '7 import os from os <- cmd.kv.main',
      '9 import example.com/kv/store from example.com/kv/store <- cmd.kv.main',
      '13 call String on flag <- main',
      '14 call Parse on flag <- main',
      '15 call New on store <- main',
      '15 call NewMemory on store <- main',
      '16 call Get on s <- main',
      '16 call Key on store <- main',
      '18 call Fatal on stdlog <- main',
      '20 call Fprintln on fmt <- main',
    ]);
  });
});

describe('go query details', () => {
  it('reads single imports, blank and dot imports, ungrouped declarations and generic receivers', async () => {
    const f = await extractText(
      'misc.go',
      [
        'package misc',
        '',
        'import "strings"',
        'import s "strconv"',
        'import _ "embed"',
        'import . "math"',
        '',
        'const A, B = 1, 2',
        'var _ = strings.ToUpper',
        'var x, y int',
        'type Alias = string',
        'type Stack[T any] struct{ items []T }',
        'type ReadCloser interface {',
        '\tio.Reader',
        '\tClose() error',
        '}',
        '',
        'func (st *Stack[T]) Push(v T) { st.items = append(st.items, v) }',
        'func (Stack[T]) Len() int { return s.IntSize }',
      ].join('\n') + '\n',
    );
    expect(objects(f)).toEqual([
      'module misc 1-19',
      'constant A 8-8',
      'constant B 8-8',
      'constant x 10-10',
      'constant y 10-10',
      'type Alias 11-11',
      'struct Stack 12-12',
      'interface ReadCloser 13-16',
      'method ReadCloser.Close 15-15',
      'method Stack.Push 18-18',
      'method Stack.Len 19-19',
    ]);
    expect(refs(f)).toEqual([
      '3 import strings from strings <- misc',
      '4 import strconv from strconv as s <- misc',
      '5 import embed from embed <- misc',
      '6 import * from math <- misc',
      '14 inherit Reader on io <- ReadCloser',
      '18 call append <- Stack.Push',
    ]);
  });

  it('keeps what parses in a file with syntax errors', async () => {
    const f = await extractText(
      'broken.go',
      ['package p', '', 'func Before() int {', '\treturn 1', '}', '', 'func Broken( {', '\tx := ', '}', '', 'func After() int {', '\treturn Before()', '}'].join('\n') + '\n',
    );
    expect(f.parseErrors).toBeGreaterThan(0);
    expect(objects(f)).toEqual(['module broken 1-13', 'function Before 3-5', 'function Broken 7-9', 'function After 11-13']);
    expect(refs(f)).toEqual(['12 call Before <- After']);
  });

  it('survives 5,000 nested parentheses and blocks quickly', async () => {
    const n = 5000;
    const text = `package p\n\nvar x = ${'('.repeat(n)}1${')'.repeat(n)}\n\nfunc f() {\n${'{'.repeat(n)}${'}'.repeat(n)}\n}\n`;
    const t0 = performance.now();
    const f = await extractText('deep.go', text);
    expect(performance.now() - t0).toBeLessThan(2_000);
    expect(f.parseErrors).toBe(0);
    expect(objects(f)).toEqual(['module deep 1-7', 'constant x 3-3', 'function f 5-7']);
  });
});
