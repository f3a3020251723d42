import { describe, expect, it } from 'vitest';
import { cpuMsSince, extractionHarness, objects, object, parentOf, views, refs } from './harness.ts';

const { extract, extractText } = extractionHarness('javascript');

describe('javascript extraction of the fixture', () => {
  it('extracts CommonJS modules: constants, functions, arrow functions', async () => {
    const f = await extract('lib/format.js');
    expect(f.language).toBe('javascript');
    expect(f.parseErrors).toBe(0);
    expect(objects(f)).toEqual([
      'module lib.format 1-16',
      'constant CURRENCY 3-3',
      'constant LOCALE 4-4',
      'constant DIGITS 4-4',
      'function formatPrice 6-12',
      'function round 14-14',
    ]);
    expect(object(f, 'formatPrice').docstring).toBe('/**\n * Formats an amount of money for display.\n * @param {number} amount\n */');
    expect(views(f, 'formatPrice')).toEqual(['signature 10-10', 'body 6-12', 'docstring 6-9']);
    expect(object(f, 'round').signature).toBe('const round = (amount) => Math.round(amount * 10 ** DIGITS) / 10 ** DIGITS;');
    expect(refs(f)).toEqual([
      '11 call NumberFormat on Intl <- formatPrice',
      "11 call format on new Intl.NumberFormat(LOCALE, { style: 'currency', currency: CURRENCY }) <- formatPrice",
      '11 call round <- formatPrice',
      '14 call round on Math <- round',
    ]);
  });

  it('extracts a class with private fields, a getter and an `exports.name = function` export', async () => {
    const f = await extract('lib/cart.js');
    expect(objects(f)).toEqual([
      'module lib.cart 1-33',
      'class Cart 5-25',
      'method Cart.add 9-14',
      'method Cart.total 16-20',
      'method Cart.describe 22-24',
      'function createCart 27-31',
    ]);
    expect(parentOf(f, 'Cart.total')).toBe('Cart');
    expect(object(f, 'Cart.total').signature).toBe('get total()');
    expect(object(f, 'createCart').signature).toBe('exports.createCart = function createCart(items = []) {');
    expect(views(f, 'Cart')).toEqual(['signature 6-6', 'body 5-25', 'docstring 5-5']);
    // `require` forms: a binding, a destructuring with a rename, a side effect.
    expect(refs(f)).toEqual([
      '1 import events from events as EventEmitter <- lib.cart',
      '2 import formatPrice from ./format <- lib.cart',
      '2 import round from ./format as roundPrice <- lib.cart',
      '3 import dotenv/config from dotenv/config <- lib.cart',
      '6 inherit EventEmitter <- Cart',
      '7 call Map <- Cart',
      '10 call get on this.#lines <- Cart.add',
      '12 call set on this.#lines <- Cart.add',
      '13 call emit on this <- Cart.add',
      '18 call values on this.#lines <- Cart.total',
      '19 call roundPrice <- Cart.total',
      '23 call formatPrice <- Cart.describe',
      '28 call Cart <- createCart',
      '29 call forEach on items <- createCart',
      '29 call add on cart <- createCart',
    ]);
  });

  it('extracts JSX components and ES imports in a .jsx file', async () => {
    const f = await extract('src/CartSummary.jsx');
    expect(f.language).toBe('javascript');
    // A function value declared inside a function is an object of its own, like a nested declaration.
    expect(objects(f)).toEqual(['module src.CartSummary 1-25', 'function CartSummary 5-14', 'function CartSummary.update 9-9', 'function Summary 16-20', 'function DemoCart 22-25']);
    expect(refs(f)).toEqual([
      '1 import useEffect from react <- src.CartSummary',
      '1 import useState from react <- src.CartSummary',
      '1 import react from react as React <- src.CartSummary',
      '2 import ../lib/cart from ../lib/cart as cartLib <- src.CartSummary',
      '3 import formatPrice from ../lib/format as price <- src.CartSummary',
      '7 call useState <- CartSummary',
      '7 call describe on cart <- CartSummary',
      '8 call useEffect <- CartSummary',
      '9 call setText <- CartSummary.update',
      '9 call describe on cart <- CartSummary.update',
      '10 call on on cart <- CartSummary',
      '11 call off on cart <- CartSummary',
      '13 call Summary <- CartSummary',
      '13 call price <- CartSummary',
      '23 call createCart on cartLib <- DemoCart',
      '24 call CartSummary <- DemoCart',
    ]);
  });

  it('extracts a node:test file', async () => {
    const f = await extract('test/cart.test.js');
    expect(objects(f)).toEqual(['module test.cart.test 1-9']);
    expect(refs(f)).toEqual([
      '1 import node:test from node:test as test <- test.cart.test',
      '2 import node:assert/strict from node:assert/strict as assert <- test.cart.test',
      '3 import createCart from ../lib/cart <- test.cart.test',
      '5 call test <- test.cart.test',
      '6 call createCart <- test.cart.test',
      '7 call add on cart <- test.cart.test',
      '8 call equal on assert <- test.cart.test',
    ]);
  });
});

describe('javascript query details', () => {
  it('reads CommonJS exports, generators, class fields and `extends ns.Base`', async () => {
    const f = await extractText(
      'cjs.js',
      [
        "const a = require('./a'), b = 2;",
        'module.exports.load = async (path) => read(path);',
        'exports.VERSION = 3;',
        'function* ids() { yield 1; }',
        'class Panel extends ui.Widget {',
        '  static defaults = {};',
        '  onClick = () => this.toggle();',
        '  toggle() {}',
        '}',
        'var legacy;',
      ].join('\n') + '\n',
    );
    expect(objects(f)).toEqual([
      'module cjs 1-10',
      'constant b 1-1',
      'function load 2-2',
      'function ids 4-4',
      'class Panel 5-9',
      'method Panel.onClick 7-7',
      'method Panel.toggle 8-8',
      'constant legacy 10-10',
    ]);
    expect(refs(f)).toEqual([
      '1 import ./a from ./a as a <- cjs',
      '2 call read <- load',
      '5 inherit Widget on ui <- Panel',
      '7 call toggle on this <- Panel.onClick',
    ]);
  });

  it('reads script-style code: object-literal namespaces, functions assigned to plain names, in blocks and IIFEs', async () => {
    const f = await extractText(
      'widgets.js',
      "'use strict';\n{\n  window.Picker = {\n    init: function (id) { return id; },\n    close() {},\n    size: 3,\n  };\n}\n(function () {\n  var later;\n  later = function () {};\n  this.listeners = {};\n  Api = { get: () => 1 };\n})();\n",
    );
    expect(f.parseErrors).toBe(0);
    expect(objects(f)).toEqual([
      'module widgets 1-14',
      'namespace Picker 3-7',
      'function Picker.init 4-4',
      'function Picker.close 5-5',
      'function later 11-11',
      'namespace Api 13-13',
      'function Api.get 13-13',
    ]);
  });

  it('names a function expression with a name of its own by that name where a key, an export slot or a return binds it', async () => {
    const f = await extractText(
      'named.js',
      [
        'var Typeahead = {',
        '  _onBlurred: function onBlurred() { return this._onFocused(); },',
        '  _onFocused: function () {},',
        '  load: function* loadAll() {},',
        '};',
        'Object.defineProperty(app, "router", { get: function getrouter() { return 1; } });',
        'module.exports = function renderFile(name) { return name; };',
        'handlers[key] = function onKey() {};',
        'exports.render = function renderIt() {};',
        'later = function own() {};',
        'var make = function made() {};',
        'function createETagGenerator(options) {',
        '  return function generateETag(body) { return body; };',
        '}',
      ].join('\n') + '\n',
    );
    expect(f.parseErrors).toBe(0);
    // A key, an export slot or a computed member names no function callers can reach by that word, so the own name
    // (ECMAScript's `Function.prototype.name`, the name stack traces show) wins; a name the code declares or assigns
    // (`exports.render`, `later`, `var make`) stays the object's name, as imports and calls write it.
    expect(objects(f)).toEqual([
      'module named 1-14',
      'constant Typeahead 1-5',
      'function Typeahead.onBlurred 2-2',
      'function Typeahead._onFocused 3-3',
      'function Typeahead.loadAll 4-4',
      'function getrouter 6-6',
      'function renderFile 7-7',
      'function onKey 8-8',
      'function render 9-9',
      'function later 10-10',
      'function make 11-11',
      'function createETagGenerator 12-14',
      'function createETagGenerator.generateETag 13-13',
    ]);
    expect(refs(f)).toContain('2 call _onFocused on this <- Typeahead.onBlurred');
  });

  it('keeps what parses in a file with syntax errors', async () => {
    const f = await extractText(
      'broken.js',
      ['function before() {', '  return 1;', '}', '', 'const broken = {', '  a: 1,,', '  b: (2', '};', '', 'function after() {', '  return before();', '}'].join('\n') + '\n',
    );
    expect(f.parseErrors).toBeGreaterThan(0);
    expect(objects(f)).toEqual(['module broken 1-12', 'function before 1-3', 'constant broken 5-8', 'function after 10-12']);
    expect(refs(f)).toEqual(['11 call before <- after']);
  });

  it('survives 5,000 nested objects and blocks quickly', async () => {
    const n = 5000;
    const text = `const data = ${'{a:'.repeat(n)}1${'}'.repeat(n)};\nfunction f() {\n${'{'.repeat(n)}${'}'.repeat(n)}\n}\n`;
    const t0 = process.cpuUsage();
    const f = await extractText('deep.js', text);
    expect(cpuMsSince(t0)).toBeLessThan(2_000);
    expect(f.parseErrors).toBe(0);
    expect(objects(f)).toEqual(['module deep 1-4', 'constant data 1-1', 'function f 2-4']);
  });
});
