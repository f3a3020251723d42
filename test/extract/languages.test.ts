// One table, one row per language (all twenty-three): a small repository of two or three files, the objects one file
// yields (kinds and qualified names), and after a real index (SQLite, resolution) one import and
// one call that must resolve to the file and object they name.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { extractCode } from '../../indexer/extract/extract-code.ts';
import { sourceLines } from '../../indexer/extract/source.ts';
import { LANGUAGE_SPECS, loadLanguage } from '../../indexer/languages/registry.ts';
import type { DB } from '../../indexer/store/open.ts';
import type { CodeLanguage } from '../../indexer/types.ts';
import { FIXTURES, indexInPlace, tempDir, writeTree } from '../helpers/repo.ts';
import { extractAt } from './harness.ts';

interface Row {
  language: CodeLanguage;
  files: Record<string, string>;
  /** The file whose objects are listed, and `kind qualifiedName` of each (module first). */
  file: string;
  objects: string[];
  /** An import in `from` of `module` that resolves into `to` (a path), to the object `object` when given. */
  importRef: { from: string; module: string; to: string; object?: string };
  /** A call of `name` from the object `source` that resolves to the object `target` of the file `to`. */
  call: { source: string; name: string; target: string; to: string };
}

const ROWS: Row[] = [
  {
    language: 'python',
    files: {
      'shop/cart.py': '"""A cart."""\nLIMIT = 10\n\n\nclass Cart(Base):\n    def add(self, item):\n        return item\n\n\ndef empty():\n    return Cart()\n',
      'shop/checkout.py': 'from shop.cart import empty\n\n\ndef checkout():\n    return empty()\n',
    },
    file: 'shop/cart.py',
    objects: ['module shop.cart', 'constant LIMIT', 'class Cart', 'method Cart.add', 'function empty'],
    importRef: { from: 'shop/checkout.py', module: 'shop.cart', to: 'shop/cart.py', object: 'empty' },
    call: { source: 'checkout', name: 'empty', target: 'empty', to: 'shop/cart.py' },
  },
  {
    language: 'typescript',
    files: {
      'src/cart.ts': 'export const LIMIT = 10;\nexport interface Item { sku: string }\nexport class Cart {\n  add(item: Item): void {}\n}\nexport function empty(): Cart {\n  return new Cart();\n}\n',
      'src/checkout.ts': "import { empty } from './cart';\n\nexport function checkout() {\n  return empty();\n}\n",
    },
    file: 'src/cart.ts',
    objects: ['module src.cart', 'constant LIMIT', 'interface Item', 'class Cart', 'method Cart.add', 'function empty'],
    importRef: { from: 'src/checkout.ts', module: './cart', to: 'src/cart.ts', object: 'empty' },
    call: { source: 'checkout', name: 'empty', target: 'empty', to: 'src/cart.ts' },
  },
  {
    language: 'tsx',
    files: {
      'src/Badge.tsx': 'export const Badge = ({ n }: { n: number }) => <span>{n}</span>;\n',
      'src/App.tsx': "import { Badge } from './Badge';\n\nexport function App() {\n  return <Badge n={1} />;\n}\n",
    },
    file: 'src/App.tsx',
    objects: ['module src.App', 'function App'],
    importRef: { from: 'src/App.tsx', module: './Badge', to: 'src/Badge.tsx', object: 'Badge' },
    call: { source: 'App', name: 'Badge', target: 'Badge', to: 'src/Badge.tsx' },
  },
  {
    language: 'javascript',
    files: {
      'lib/cart.js': "const LIMIT = 10;\nclass Cart {\n  add(item) { return item; }\n}\nexports.empty = function () {\n  return new Cart();\n};\n",
      'lib/checkout.js': "const { empty } = require('./cart');\n\nfunction checkout() {\n  return empty();\n}\nmodule.exports = { checkout };\n",
    },
    file: 'lib/cart.js',
    objects: ['module lib.cart', 'constant LIMIT', 'class Cart', 'method Cart.add', 'function empty'],
    importRef: { from: 'lib/checkout.js', module: './cart', to: 'lib/cart.js', object: 'empty' },
    call: { source: 'checkout', name: 'empty', target: 'empty', to: 'lib/cart.js' },
  },
  {
    language: 'java',
    files: {
      'src/main/java/com/acme/shop/Cart.java': 'package com.acme.shop;\n\npublic class Cart {\n  public static final int LIMIT = 10;\n  public static Cart empty() { return new Cart(); }\n  public void add(String sku) {}\n}\n',
      'src/main/java/com/acme/App.java': 'package com.acme;\n\nimport com.acme.shop.Cart;\n\npublic class App {\n  void run() { Cart.empty(); }\n}\n',
    },
    file: 'src/main/java/com/acme/shop/Cart.java',
    objects: ['module src.main.java.com.acme.shop.Cart', 'class Cart', 'constant Cart.LIMIT', 'method Cart.empty', 'method Cart.add'],
    importRef: { from: 'src/main/java/com/acme/App.java', module: 'com.acme.shop', to: 'src/main/java/com/acme/shop/Cart.java', object: 'Cart' },
    call: { source: 'App.run', name: 'empty', target: 'Cart.empty', to: 'src/main/java/com/acme/shop/Cart.java' },
  },
  {
    language: 'go',
    files: {
      'go.mod': 'module example.com/shop\n',
      'cart/cart.go': 'package cart\n\nconst Limit = 10\n\ntype Cart struct{ items []string }\n\nfunc (c *Cart) Add(sku string) { c.items = append(c.items, sku) }\n\nfunc Empty() *Cart { return &Cart{} }\n',
      'cmd/shop/main.go': 'package main\n\nimport "example.com/shop/cart"\n\nfunc main() { cart.Empty() }\n',
    },
    file: 'cart/cart.go',
    objects: ['module cart.cart', 'constant Limit', 'struct Cart', 'method Cart.Add', 'function Empty'],
    importRef: { from: 'cmd/shop/main.go', module: 'example.com/shop/cart', to: 'cart/cart.go' },
    call: { source: 'main', name: 'Empty', target: 'Empty', to: 'cart/cart.go' },
  },
  {
    language: 'rust',
    files: {
      'src/cart.rs': 'pub const LIMIT: usize = 10;\npub struct Cart { items: Vec<String> }\nimpl Cart {\n    pub fn add(&mut self, sku: String) { self.items.push(sku) }\n}\npub fn empty() -> Cart { Cart { items: vec![] } }\n',
      'src/main.rs': 'mod cart;\nuse crate::cart::empty;\n\nfn main() { let _c = empty(); }\n',
    },
    file: 'src/cart.rs',
    objects: ['module src.cart', 'constant LIMIT', 'struct Cart', 'method Cart.add', 'function empty'],
    importRef: { from: 'src/main.rs', module: 'crate::cart', to: 'src/cart.rs', object: 'empty' },
    call: { source: 'main', name: 'empty', target: 'empty', to: 'src/cart.rs' },
  },
  {
    language: 'c',
    files: {
      'src/geometry.h': '#ifndef GEOMETRY_H\n#define GEOMETRY_H\ntypedef struct point { int x, y; } point_t;\nint manhattan(point_t p);\n#endif\n',
      'src/geometry.c': '#include "geometry.h"\n#define ABS(v) ((v) < 0 ? -(v) : (v))\nstatic int calls = 0;\n/* Distance from the origin. */\nint manhattan(point_t p) { calls++; return ABS(p.x) + ABS(p.y); }\nGEO_API int (*on_measure)(point_t *p) GEO_ATTR;\nGEO_API point_t *(origin) (void);\nenum axis { AXIS_X, AXIS_Y };\n',
      'src/main.c': '#include <stdio.h>\n#include "geometry.h"\nint main(void) { point_t p = {1, 2}; printf("%d", manhattan(p)); return 0; }\n',
    },
    file: 'src/geometry.c',
    objects: ['module src.geometry', 'function ABS', 'constant calls', 'function manhattan', 'constant on_measure', 'enum axis'],
    importRef: { from: 'src/main.c', module: 'geometry.h', to: 'src/geometry.h' },
    call: { source: 'main', name: 'manhattan', target: 'manhattan', to: 'src/geometry.c' },
  },
  {
    language: 'cpp',
    files: {
      'include/shapes/circle.hpp': '#pragma once\nnamespace shapes {\nclass Circle {\n public:\n  explicit Circle(double r) : r_(r) {}\n  double area() const { return 3.14159 * r_ * r_; }\n private:\n  double r_;\n};\ndouble scale(double v, double k);\n}\n',
      'src/circle.cpp': '#include "shapes/circle.hpp"\nnamespace shapes {\ndouble scale(double v, double k) { return v * k; }\n}\n',
      'src/main.cpp': '#include "shapes/circle.hpp"\nint main() { shapes::Circle c(2.0); return (int)shapes::scale(c.area(), 2.0); }\n',
    },
    file: 'include/shapes/circle.hpp',
    objects: ['module include.shapes.circle', 'class shapes.Circle', 'method shapes.Circle.Circle', 'method shapes.Circle.area'],
    importRef: { from: 'src/main.cpp', module: 'shapes/circle.hpp', to: 'include/shapes/circle.hpp' },
    call: { source: 'main', name: 'scale', target: 'shapes.scale', to: 'src/circle.cpp' },
  },
  {
    language: 'csharp',
    files: {
      'src/App/Util/Formatter.cs': 'namespace App.Util {\n  /// <summary>Formats names.</summary>\n  public static class Formatter {\n    public const int Width = 10;\n    public static string Pad(string s) => s.PadLeft(Width);\n    public static string Name { get; set; }\n  }\n  public interface IShape { double Area(); }\n  public enum Kind { A, B }\n}\n',
      'src/App/Program.cs': 'using System;\nusing App.Util;\nnamespace App {\n  class Program {\n    static void Main() { Console.WriteLine(Formatter.Pad("x")); }\n  }\n}\n',
    },
    file: 'src/App/Util/Formatter.cs',
    objects: ['module src.App.Util.Formatter', 'class App.Util.Formatter', 'constant App.Util.Formatter.Width', 'method App.Util.Formatter.Pad', 'method App.Util.Formatter.Name', 'interface App.Util.IShape', 'method App.Util.IShape.Area', 'enum App.Util.Kind'],
    importRef: { from: 'src/App/Program.cs', module: 'App.Util', to: 'src/App/Util/Formatter.cs' },
    call: { source: 'App.Program.Main', name: 'Pad', target: 'App.Util.Formatter.Pad', to: 'src/App/Util/Formatter.cs' },
  },
  {
    language: 'php',
    files: {
      'src/Models/User.php': '<?php\nnamespace App\\Models;\n\n/** A user. */\nclass User extends Model implements HasName\n{\n    const TABLE = "users";\n    public static function find(int $id): self { return new self(); }\n    public function name(): string { return "x"; }\n}\ninterface HasName { public function name(): string; }\nfunction helper() {}\n',
      'src/Http/Controller.php': '<?php\nnamespace App\\Http;\n\nuse App\\Models\\User;\n\nclass Controller\n{\n    public function show(int $id) { return User::find($id); }\n}\n',
    },
    file: 'src/Models/User.php',
    objects: ['module src.Models.User', 'class User', 'constant User.TABLE', 'method User.find', 'method User.name', 'interface HasName', 'method HasName.name', 'function helper'],
    importRef: { from: 'src/Http/Controller.php', module: 'App\\Models', to: 'src/Models/User.php', object: 'User' },
    call: { source: 'Controller.show', name: 'find', target: 'User.find', to: 'src/Models/User.php' },
  },
  {
    language: 'ruby',
    files: {
      'lib/shop/cart.rb': '# A cart.\nmodule Shop\n  class Cart < Base\n    LIMIT = 10\n    def initialize; @items = []; end\n    def add(item) = @items << item\n    def self.empty = new\n  end\nend\n',
      'lib/shop.rb': "require_relative 'shop/cart'\nrequire 'json'\n\ndef checkout\n  Shop::Cart.empty\nend\n",
    },
    file: 'lib/shop/cart.rb',
    objects: ['module lib.shop.cart', 'namespace Shop', 'class Shop.Cart', 'constant Shop.Cart.LIMIT', 'method Shop.Cart.initialize', 'method Shop.Cart.add', 'method Shop.Cart.empty'],
    importRef: { from: 'lib/shop.rb', module: './shop/cart', to: 'lib/shop/cart.rb' },
    call: { source: 'checkout', name: 'empty', target: 'Shop.Cart.empty', to: 'lib/shop/cart.rb' },
  },
  {
    language: 'kotlin',
    files: {
      'src/main/kotlin/com/acme/util/Text.kt': 'package com.acme.util\n\n/** Text helpers. */\nobject Text {\n    const val WIDTH = 8\n    const val MASK = 0b1000_0000\n    fun pad(s: String): String = s.padStart(WIDTH)\n}\ninterface Shape { fun area(): Double }\nfun interface Sizer { fun size(s: String): Int }\nenum class Kind { A, B }\ntypealias Name = String\nfun shout(s: String) = s.uppercase()\n',
      'src/main/kotlin/com/acme/App.kt': 'package com.acme\n\nimport com.acme.util.Text\n\nclass App : Runnable {\n    override fun run() { println(Text.pad("x")) }\n}\n',
    },
    file: 'src/main/kotlin/com/acme/util/Text.kt',
    objects: ['module src.main.kotlin.com.acme.util.Text', 'class Text', 'constant Text.WIDTH', 'constant Text.MASK', 'method Text.pad', 'interface Shape', 'method Shape.area', 'interface Sizer', 'method Sizer.size', 'enum Kind', 'type Name', 'function shout'],
    importRef: { from: 'src/main/kotlin/com/acme/App.kt', module: 'com.acme.util', to: 'src/main/kotlin/com/acme/util/Text.kt', object: 'Text' },
    call: { source: 'App.run', name: 'pad', target: 'Text.pad', to: 'src/main/kotlin/com/acme/util/Text.kt' },
  },
  {
    language: 'swift',
    files: {
      'Sources/Geometry/Shapes.swift': '/// A shape.\nprotocol Shape { func area() -> Double }\nstruct Square: Shape {\n    let side: Double\n    func area() -> Double { side * side }\n}\nenum Unit { case m, cm }\nextension Square { func doubled() -> Square { Square(side: side * 2) } }\nfunc total(_ shapes: [Shape]) -> Double { shapes.reduce(0) { $0 + $1.area() } }\n',
      'Sources/App/main.swift': 'import Geometry\n\nfunc run() { print(total([Square(side: 1)])) }\n',
    },
    file: 'Sources/Geometry/Shapes.swift',
    objects: ['module Sources.Geometry.Shapes', 'interface Shape', 'method Shape.area', 'struct Square', 'method Square.area', 'enum Unit', 'method Square.doubled', 'function total'],
    importRef: { from: 'Sources/App/main.swift', module: 'Geometry', to: 'Sources/Geometry/Shapes.swift' },
    call: { source: 'run', name: 'total', target: 'total', to: 'Sources/Geometry/Shapes.swift' },
  },
  {
    language: 'scala',
    files: {
      'src/main/scala/acme/util/Text.scala': 'package acme.util\n\n/** Text helpers. */\nobject Text {\n  val Width = 8\n  def pad(s: String): String = s.reverse.padTo(Width, \' \').reverse\n}\ntrait Shape { def area: Double }\ncase class Square(side: Double) extends Shape { def area: Double = side * side }\n',
      'src/main/scala/acme/App.scala': 'package acme\n\nimport acme.util.Text\n\nobject App {\n  def main(args: Array[String]): Unit = println(Text.pad("x"))\n}\n',
    },
    file: 'src/main/scala/acme/util/Text.scala',
    objects: ['module src.main.scala.acme.util.Text', 'class Text', 'constant Text.Width', 'method Text.pad', 'trait Shape', 'method Shape.area', 'class Square', 'method Square.area'],
    importRef: { from: 'src/main/scala/acme/App.scala', module: 'acme.util', to: 'src/main/scala/acme/util/Text.scala', object: 'Text' },
    call: { source: 'App.main', name: 'pad', target: 'Text.pad', to: 'src/main/scala/acme/util/Text.scala' },
  },
  {
    language: 'bash',
    files: {
      'lib/log.sh': '# Logging helpers.\nLOG_LEVEL=info\n\n# Prints a line.\nlog_line() {\n  printf "%s\\n" "$*"\n}\n\nfunction die {\n  log_line "$@"; exit 1\n}\n',
      'bin/deploy': '#!/usr/bin/env bash\nsource "$ROOT/lib/log.sh"\n\nmain() {\n  log_line deploying\n}\nmain "$@"\n',
    },
    file: 'lib/log.sh',
    objects: ['module lib.log', 'constant LOG_LEVEL', 'function log_line', 'function die'],
    importRef: { from: 'bin/deploy', module: '$ROOT/lib/log.sh', to: 'lib/log.sh' },
    call: { source: 'main', name: 'log_line', target: 'log_line', to: 'lib/log.sh' },
  },
  {
    language: 'lua',
    files: {
      'lua/acme/text.lua': '-- Text helpers.\nlocal M = {}\nM.width = 8\nfunction M.pad(s) return string.rep(" ", M.width - #s) .. s end\nfunction M:shout(s) return s:upper() end\nlocal function private() end\nM.handlers = { on_pad = function(s) return M.pad(s) end }\nreturn M\n',
      'lua/acme/init.lua': 'local text = require("acme.text")\n\nlocal function run() return text.pad("x") end\nreturn { run = run }\n',
    },
    file: 'lua/acme/text.lua',
    objects: ['module lua.acme.text', 'constant M', 'method M.pad', 'method M.shout', 'function private', 'function on_pad'],
    importRef: { from: 'lua/acme/init.lua', module: 'acme.text', to: 'lua/acme/text.lua' },
    call: { source: 'run', name: 'pad', target: 'M.pad', to: 'lua/acme/text.lua' },
  },
  {
    language: 'elixir',
    files: {
      'lib/acme/text.ex': 'defmodule Acme.Text do\n  @moduledoc "Text helpers."\n  @type width :: pos_integer\n  def pad(s, w \\\\ 8), do: String.pad_leading(s, w)\n  defp trim(s) when is_binary(s), do: String.trim(s)\n  defmacro shout(s), do: s\nend\n',
      'lib/acme.ex': 'defmodule Acme do\n  alias Acme.Text\n\n  def run, do: Text.pad("x")\nend\n',
    },
    file: 'lib/acme/text.ex',
    objects: ['module lib.acme.text', 'namespace Acme.Text', 'type Acme.Text.width', 'function Acme.Text.pad', 'function Acme.Text.trim', 'function Acme.Text.shout'],
    importRef: { from: 'lib/acme.ex', module: 'Acme', to: 'lib/acme/text.ex', object: 'Acme.Text' },
    call: { source: 'Acme.run', name: 'pad', target: 'Acme.Text.pad', to: 'lib/acme/text.ex' },
  },
  {
    language: 'dart',
    files: {
      'lib/src/text.dart': 'library;\n\n/// Text helpers.\nclass Text {\n  static const width = 8;\n  static String pad(String s) {\n    return s.padLeft(width);\n  }\n  int get size => width;\n}\nmixin Loud { String shout(String s) => s.toUpperCase(); }\nabstract mixin class Padded {}\nextension type Meters._(int v) implements Object {\n  int twice() => v * 2;\n}\nenum Kind { a, b }\nString trimAll(String s) {\n  String strip(String t) => t.trim();\n  return strip(s);\n}\n',
      'lib/app.dart': "import 'package:acme/src/text.dart';\n\nvoid run() {\n  print(trimAll(Text.pad('x')));\n}\n",
    },
    file: 'lib/src/text.dart',
    objects: ['module lib.src.text', 'class Text', 'method Text.pad', 'method Text.size', 'trait Loud', 'method Loud.shout', 'class Padded', 'class Meters', 'method Meters.twice', 'enum Kind', 'function trimAll', 'function trimAll.strip'],
    importRef: { from: 'lib/app.dart', module: 'package:acme/src/text.dart', to: 'lib/src/text.dart' },
    call: { source: 'run', name: 'trimAll', target: 'trimAll', to: 'lib/src/text.dart' },
  },
  {
    language: 'haskell',
    files: {
      'src/Acme/Text.hs': 'module Acme.Text (pad, Width) where\n\n-- | A width.\nnewtype Width = Width Int\ndata Align = L | R\ntype Name = String\nclass Sized a where\n  size :: a -> Int\n\npad :: Width -> String -> String\npad (Width w) s = replicate (w - length s) \' \' ++ s\n',
      'app/Main.hs': 'module Main where\nimport qualified Acme.Text as T\n\nmain :: IO ()\nmain = putStrLn (T.pad (T.Width 8) "x")\n',
    },
    file: 'src/Acme/Text.hs',
    objects: ['module src.Acme.Text', 'struct Width', 'struct Align', 'type Name', 'interface Sized', 'method Sized.size', 'function pad'],
    importRef: { from: 'app/Main.hs', module: 'Acme.Text', to: 'src/Acme/Text.hs' },
    call: { source: 'main', name: 'pad', target: 'pad', to: 'src/Acme/Text.hs' },
  },
  {
    language: 'ocaml',
    files: {
      // `let n = ... in` is a local (no object); module-level data of a `struct` is one
      'lib/text.ml': '(** Text helpers. *)\ntype align = Left | Right\nlet width = 8\nlet pad s = let n = width - String.length s in String.make n \' \' ^ s\nmodule Loud = struct\n  let margin = 2\n  let shout s = String.uppercase_ascii s\nend\nexception Too_long of string\n',
      'bin/main.ml': 'open Text\n\nlet run () = print_endline (pad "x")\n',
    },
    file: 'lib/text.ml',
    objects: ['module lib.text', 'type align', 'constant width', 'function pad', 'namespace Loud', 'constant Loud.margin', 'function Loud.shout', 'type Too_long'],
    importRef: { from: 'bin/main.ml', module: 'Text', to: 'lib/text.ml' },
    call: { source: 'run', name: 'pad', target: 'pad', to: 'lib/text.ml' },
  },
  {
    language: 'ocaml_interface',
    files: {
      'lib/text.mli': '(** Text helpers. *)\ntype align = Left | Right\nval width : int\nval pad : string -> string\nmodule Loud : sig val shout : string -> string end\n',
      'lib/text.ml': 'type align = Left | Right\nlet width = 8\nlet pad s = s\nmodule Loud = struct let shout s = s end\n',
      'bin/main.ml': 'open Text\n\nlet run () = print_endline (pad "x")\n',
    },
    file: 'lib/text.mli',
    objects: ['module lib.text', 'type align', 'function width', 'function pad', 'namespace Loud', 'function Loud.shout'],
    importRef: { from: 'bin/main.ml', module: 'Text', to: 'lib/text.ml' },
    call: { source: 'run', name: 'pad', target: 'pad', to: 'lib/text.ml' },
  },
  {
    language: 'zig',
    files: {
      'src/text.zig': 'const std = @import("std");\n/// A padded string.\npub const Padded = struct {\n    width: usize,\n    pub fn len(self: Padded) usize { return self.width; }\n};\npub const Kind = enum { a, b };\npub fn pad(w: usize) Padded { return .{ .width = w }; }\n',
      'src/main.zig': 'const text = @import("text.zig");\npub fn main() void { _ = text.pad(8); }\n',
    },
    file: 'src/text.zig',
    objects: ['module src.text', 'struct Padded', 'method Padded.len', 'enum Kind', 'function pad'],
    importRef: { from: 'src/main.zig', module: 'text.zig', to: 'src/text.zig' },
    call: { source: 'main', name: 'pad', target: 'pad', to: 'src/text.zig' },
  },
];

const roots: string[] = [];
const dbs: DB[] = [];
afterAll(() => {
  for (const db of dbs) db.close();
  for (const r of roots) fs.rmSync(r, { recursive: true, force: true });
});

interface RefRow {
  kind: string;
  name: string;
  module: string | null;
  source: string;
  path: string;
  target: string | null;
  targetPath: string | null;
}

function resolvedRefs(db: DB): RefRow[] {
  return db
    .prepare(
      `SELECT r.kind, r.name, r.module, s.qualified_name AS source, sf.path AS path, t.qualified_name AS target, tf.path AS targetPath
       FROM refs r JOIN objects s ON s.key = r.source JOIN files sf ON sf.id = s.file_id
       LEFT JOIN objects t ON t.key = r.target LEFT JOIN files tf ON tf.id = t.file_id`,
    )
    .all() as RefRow[];
}

describe.each(ROWS)('$language', (row) => {
  it('extracts objects with qualified names and kinds', async () => {
    const root = tempDir(`allot-lang-${row.language}-`);
    roots.push(root);
    writeTree(root, row.files);
    const f = await extractAt(root, row.file);
    expect(f.language).toBe(row.language);
    expect(f.parseErrors).toBe(0);
    expect(f.objects.map((o) => `${o.kind} ${o.qualifiedName}`)).toEqual(row.objects);
  });

  it('resolves one import and one call after a real index', async () => {
    const root = tempDir(`allot-lang-${row.language}-`);
    roots.push(root);
    writeTree(root, row.files);
    const db = await indexInPlace(root);
    dbs.push(db);
    const refs = resolvedRefs(db);
    const imp = refs.find((r) => r.kind === 'import' && r.path === row.importRef.from && r.module === row.importRef.module);
    expect(imp, `import of ${row.importRef.module}`).toBeDefined();
    expect(imp!.targetPath).toBe(row.importRef.to);
    if (row.importRef.object) expect(imp!.target).toBe(row.importRef.object);
    const call = refs.find((r) => r.kind === 'call' && r.source === row.call.source && r.name === row.call.name);
    expect(call, `call of ${row.call.name} from ${row.call.source}`).toBeDefined();
    expect([call!.target, call!.targetPath]).toEqual([row.call.target, row.call.to]);
  });
});

// A language with a native grammar extracts the same with it as with its wasm grammar (the fallback), on the row's
// files and on `test/fixtures/backends/` (non-ASCII names, a syntax error that error recovery re-parses around).
describe.each(ROWS.filter((r) => LANGUAGE_SPECS[r.language].native))('$language, both parse backends', (row) => {
  it('extracts the same with the native and the wasm grammar', async () => {
    const native = await loadLanguage(row.language, 'native');
    const wasm = await loadLanguage(row.language, 'wasm');
    expect(native.backend, 'the native grammar built at install and loaded').toBe('native');
    const dir = path.join(FIXTURES, 'backends');
    const fixtures = fs.readdirSync(dir).map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')] as const);
    const texts = [...Object.entries(row.files), ...fixtures.filter(([f]) => LANGUAGE_SPECS[row.language].extensions.includes(path.extname(f)))];
    expect(texts.length).toBeGreaterThan(Object.keys(row.files).length);
    for (const [rel, text] of texts) {
      const fromNative = extractCode(rel, sourceLines(text), native);
      expect(fromNative?.objects.length, rel).toBeGreaterThan(1);
      expect(fromNative, rel).toEqual(extractCode(rel, sourceLines(text), wasm));
    }
  });
});

describe('the native fixture', () => {
  it('holds a syntax error with declarations after it, which error recovery finds', async () => {
    const text = fs.readFileSync(path.join(FIXTURES, 'backends/Shapes.scala'), 'utf8');
    const f = extractCode('Shapes.scala', sourceLines(text), await loadLanguage('scala', 'native'));
    expect(f!.parseErrors).toBeGreaterThan(0);
    expect(f!.objects.map((o) => o.qualifiedName)).toEqual(expect.arrayContaining(['Shapes.Unit', 'Shapes.Describe.describe', 'AfterTheError.stillFound', 'Main']));
  });
});
