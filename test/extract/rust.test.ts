import { describe, expect, it } from 'vitest';
import { extractionHarness, objects, object, parentOf, views, refs } from './harness.ts';

const { extract, extractText } = extractionHarness('rust');

describe('rust extraction of the fixture', () => {
  it('extracts traits with signatures and default bodies, structs, enums, aliases, statics and impl methods', async () => {
    const f = await extract('src/shapes.rs');
    expect(f.language).toBe('rust');
    expect(f.parseErrors).toBe(0);
    expect(objects(f)).toEqual([
      'module src.shapes 1-65',
      'trait Shape 4-12',
      'method Shape.area 6-7',
      'method Shape.name 9-11',
      'struct Circle 14-17',
      'struct Rect 19-23',
      'enum Kind 25-28',
      'type Area 30-30',
      'constant UNIT_RADIUS 32-32',
      'method Circle.unit 35-37',
      'method Rect.square 41-44',
      'method Rect.new 46-48',
      'method Circle.area 52-54',
      'method Circle.name 56-58',
      'method Rect.area 62-64',
    ]);
    // `impl` is a naming scope, not an object: its methods hang off the module.
    expect(parentOf(f, 'Rect.square')).toBe('src.shapes');
    expect(parentOf(f, 'Shape.area')).toBe('Shape');
    expect(object(f, 'Shape.area').signature).toBe('fn area(&self) -> f64;');
    expect(object(f, 'Rect.new').signature).toBe('pub const fn new(width: f64, height: f64) -> Self');
    // Attributes and doc comments before an item belong to its span.
    expect(object(f, 'Circle').startLine).toBe(14);
    expect(views(f, 'Circle')).toEqual(['signature 15-15', 'body 14-17']);
    expect(object(f, 'Rect.square').docstring?.trimEnd()).toBe('/// A square with the given side.');
    expect(views(f, 'Rect.square').slice(0, 2)).toEqual(['signature 42-42', 'body 41-44']);
  });

  // tree-sitter-rust's line_comment includes its newline, so the engine ends a `///` docstring
  // one line late and keeps the `\n` (see the report: collectDefinitions should use the end
  // row of the comment's last character). Flip to `it` once the engine is fixed.
  it('gives a /// docstring the lines of its comments only', async () => {
    const f = await extract('src/shapes.rs');
    expect(object(f, 'Rect.square').docstring).toBe('/// A square with the given side.');
    expect(views(f, 'Rect.square')).toEqual(['signature 42-42', 'body 41-44', 'docstring 41-41']);
  });

  it('records `Type::f()` and `x.f()` calls with their path, and `impl Trait for` as inheritance', async () => {
    const f = await extract('src/shapes.rs');
    expect(refs(f)).toEqual([
      '1 import PI from std::f64::consts <- src.shapes',
      '2 import fmt from std <- src.shapes',
      '5 inherit Debug on fmt <- Shape',
      '43 call new on Self <- Rect.square',
      '51 inherit Shape <- src.shapes',
      '53 call powi on self.radius <- Circle.area',
    ]);
  });

  it('reads use lists with renames and `self`, macros, and `impl Trait for` a generic type', async () => {
    const f = await extract('src/render.rs');
    expect(objects(f)).toEqual([
      'module src.render 1-32',
      'function line 6-10',
      'function render 12-20',
      'struct Report 22-22',
      'method Report.fmt 25-27',
      'function unit_circle 30-32',
    ]);
    expect(refs(f)).toEqual([
      '1 import fmt from std <- src.render',
      '1 import Write from std::fmt as _ <- src.render',
      '3 import shapes from crate <- src.render',
      '3 import Shape from crate::shapes <- src.render',
      '4 import FORMAT_VERSION from crate <- src.render',
      '14 call new on String <- render',
      '15 call line <- render',
      '24 inherit Display on fmt <- src.render',
      '26 call write_str on f <- Report.fmt',
      '26 call render <- Report.fmt',
      '31 call unit on shapes::Circle <- unit_circle',
    ]);
  });

  it('names functions of an inline module after it (still functions) and reads `pub use` renames', async () => {
    const f = await extract('src/lib.rs');
    expect(objects(f)).toEqual(['module src.lib 1-25', 'constant FORMAT_VERSION 8-9', 'function total_area 11-14', 'function tests.sums_areas 20-24']);
    expect(refs(f).filter((r) => r.includes(' import '))).toEqual([
      '6 import Circle from shapes as Round <- src.lib',
      '6 import Rect from shapes <- src.lib',
      '6 import Shape from shapes <- src.lib',
      '18 import * from super <- src.lib',
    ]);
  });

  it('extracts an integration test', async () => {
    const f = await extract('tests/render.rs');
    expect(objects(f)).toEqual(['module tests.render 1-10', 'function renders_a_header_and_one_line_per_shape 4-10']);
    // Calls inside macro arguments are token trees to tree-sitter: `Report(..)` in `assert_eq!` is not seen.
    expect(refs(f)).toEqual([
      '1 import render from geom::render <- tests.render',
      '1 import Report from geom::render <- tests.render',
      '2 import * from geom::shapes <- tests.render',
      '6 call square on Rect <- renders_a_header_and_one_line_per_shape',
      '7 call render <- renders_a_header_and_one_line_per_shape',
      '8 call assert_eq <- renders_a_header_and_one_line_per_shape',
    ]);
  });
});

describe('rust query details', () => {
  it('reads nested use lists, extern crates, unions, associated items, turbofish calls and trait bounds', async () => {
    const f = await extractText(
      'misc.rs',
      [
        'extern crate serde as sd;',
        'use std::{collections::{HashMap, HashSet as Set}, io::{self, Read}};',
        'use crate::a::b::*;',
        'use alloc;',
        'pub trait Store: Clone + std::fmt::Debug {',
        '    const CAPACITY: usize;',
        '    type Key;',
        '}',
        'union Bits { int: u32, float: f32 }',
        'impl Store for u32 {',
        '    const CAPACITY: usize = 4;',
        '    type Key = u8;',
        '}',
        'fn parse() { let n = "1".parse::<u32>(); let v = Vec::<u8>::with_capacity(n); }',
      ].join('\n') + '\n',
    );
    expect(objects(f)).toEqual([
      'module misc 1-14',
      'trait Store 5-8',
      'constant Store.CAPACITY 6-6',
      'type Store.Key 7-7',
      'struct Bits 9-9',
      'constant u32.CAPACITY 11-11',
      'type u32.Key 12-12',
      'function parse 14-14',
    ]);
    expect(refs(f)).toEqual([
      '1 import serde from serde as sd <- misc',
      // In nested braces the module is the path of the innermost braces.
      '2 import HashMap from collections <- misc',
      '2 import HashSet from collections as Set <- misc',
      '2 import io from io <- misc',
      '2 import Read from io <- misc',
      '3 import * from crate::a::b <- misc',
      '4 import alloc from alloc <- misc',
      '5 inherit Clone <- Store',
      '5 inherit Debug on std::fmt <- Store',
      '10 inherit Store <- misc',
      '14 call parse on "1" <- parse',
      '14 call with_capacity on Vec::<u8> <- parse',
    ]);
  });

  it('keeps what parses in a file with syntax errors', async () => {
    const f = await extractText(
      'broken.rs',
      ['fn before() -> i32 {', '    1', '}', '', 'fn broken( -> {', '    let x = ;', '}', '', 'fn after() -> i32 {', '    before()', '}'].join('\n') + '\n',
    );
    expect(f.parseErrors).toBeGreaterThan(0);
    expect(objects(f)).toEqual(['module broken 1-11', 'function before 1-3', 'function after 9-11']);
    expect(refs(f)).toEqual(['10 call before <- after']);
  });

  it('survives 5,000 nested parentheses and blocks quickly', async () => {
    const n = 5000;
    const text = `const X: i32 = ${'('.repeat(n)}1${')'.repeat(n)};\nfn f() {\n${'{'.repeat(n)}${'}'.repeat(n)}\n}\n`;
    const t0 = performance.now();
    const f = await extractText('deep.rs', text);
    expect(performance.now() - t0).toBeLessThan(2_000);
    expect(f.parseErrors).toBe(0);
    expect(objects(f)).toEqual(['module deep 1-4', 'constant X 1-1', 'function f 2-4']);
  });
});
