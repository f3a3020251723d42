import { describe, expect, it } from 'vitest';
import { extractionHarness, objects, object, parentOf, views, refs } from './harness.ts';

const { extract, extractText } = extractionHarness('java');

const MAIN = 'src/main/java/com/acme/inventory';

describe('java extraction of the fixture', () => {
  it('extracts a utility class: private constructor, static methods, a constant', async () => {
    const f = await extract(`${MAIN}/util/Strings.java`);
    expect(f.language).toBe('java');
    expect(f.parseErrors).toBe(0);
    expect(objects(f)).toEqual([
      'module src.main.java.com.acme.inventory.util.Strings 1-20',
      'class Strings 3-20',
      'constant Strings.EMPTY 5-5',
      'method Strings.Strings 7-7',
      'method Strings.isBlank 9-12',
      'method Strings.requireNonBlank 14-19',
    ]);
    expect(object(f, 'Strings.isBlank').signature).toBe('public static boolean isBlank(String text)');
    expect(object(f, 'Strings.isBlank').docstring).toBe('/** True when the text is null or only whitespace. */');
    expect(views(f, 'Strings.isBlank')).toEqual(['signature 10-10', 'body 9-12', 'docstring 9-9']);
    expect(refs(f)).toEqual([
      '11 call trim on text <- Strings.isBlank',
      '11 call isEmpty on text.trim() <- Strings.isBlank',
      '15 call isBlank <- Strings.requireNonBlank',
      '16 call IllegalArgumentException <- Strings.requireNonBlank',
      '18 call trim on text <- Strings.requireNonBlank',
    ]);
  });

  it('extracts nested records, interfaces and enums with constructors and constants', async () => {
    const f = await extract(`${MAIN}/Inventory.java`);
    expect(objects(f)).toEqual([
      'module src.main.java.com.acme.inventory.Inventory 1-80',
      'class Inventory 8-80',
      'constant Inventory.LOW_STOCK 12-13',
      'constant Inventory.DEFAULT_WAREHOUSE 14-14',
      'constant Inventory.RETURNS_WAREHOUSE 14-14',
      'method Inventory.Inventory 19-21',
      'method Inventory.Inventory 23-25',
      'method Inventory.put 27-31',
      'method Inventory.find 33-35',
      'method Inventory.lowStock 37-40',
      'method Inventory.addListener 42-44',
      'method Inventory.iterator 46-49',
      'class Inventory.Item 51-60',
      'method Inventory.Item.Item 53-55',
      'method Inventory.Item.withQuantity 57-59',
      'interface Inventory.Listener 62-65',
      'method Inventory.Listener.changed 64-64',
      'enum Inventory.Unit 67-79',
      'method Inventory.Unit.Unit 72-74',
      'method Inventory.Unit.symbol 76-78',
    ]);
    expect(parentOf(f, 'Inventory.Item.withQuantity')).toBe('Inventory.Item');
    expect(parentOf(f, 'Inventory.Item')).toBe('Inventory');
    expect(parentOf(f, 'Inventory.LOW_STOCK')).toBe('Inventory');
    expect(object(f, 'Inventory').signature).toBe('public class Inventory implements Iterable<Inventory.Item>');
    expect(object(f, 'Inventory.iterator').signature).toBe('@Override public Iterator<Item> iterator()');
    expect(object(f, 'Inventory.Item').signature).toBe('public record Item(String sku, String name, int quantity)');
    expect(object(f, 'Inventory.LOW_STOCK').docstring).toBe('/** Quantity below which an item counts as running low. */');
    // Annotations are part of the declaration: the signature spans them.
    expect(views(f, 'Inventory.iterator')).toEqual(['signature 46-47', 'body 46-49']);
    expect(views(f, 'Inventory')).toEqual(['signature 11-11', 'body 8-80', 'docstring 8-10']);
    expect(views(f, 'Inventory.LOW_STOCK')).toEqual(['signature 13-13', 'body 12-13', 'docstring 12-12']);
  });

  it('records imports as package + name, wildcards, calls, `new` and method references', async () => {
    const f = await extract(`${MAIN}/Inventory.java`);
    expect(refs(f)).toEqual([
      '3 import Strings from com.acme.inventory.util <- src.main.java.com.acme.inventory.Inventory',
      '4 import * from java.util <- src.main.java.com.acme.inventory.Inventory',
      '5 import Predicate from java.util.function <- src.main.java.com.acme.inventory.Inventory',
      '6 import requireNonNull from java.util.Objects <- src.main.java.com.acme.inventory.Inventory',
      '11 inherit Iterable <- Inventory',
      '16 call HashMap <- Inventory',
      '17 call ArrayList <- Inventory',
      '20 call of on List <- Inventory.Inventory',
      '24 call forEach on initial <- Inventory.Inventory',
      '24 call put on this <- Inventory.Inventory',
      '28 call requireNonNull <- Inventory.put',
      '29 call put on items <- Inventory.put',
      '29 call sku on item <- Inventory.put',
      '30 call forEach on listeners <- Inventory.put',
      '30 call changed on l <- Inventory.put',
      '34 call ofNullable on Optional <- Inventory.find',
      '34 call get on items <- Inventory.find',
      '34 call requireNonBlank on Strings <- Inventory.find',
      '38 call quantity on item <- Inventory.lowStock',
      '39 call values on items <- Inventory.lowStock',
      '39 call stream on items.values() <- Inventory.lowStock',
      '39 call filter on items.values().stream() <- Inventory.lowStock',
      '39 call toList on items.values().stream().filter(low) <- Inventory.lowStock',
      '43 call add on listeners <- Inventory.addListener',
      '48 call unmodifiableCollection on Collections <- Inventory.iterator',
      '48 call values on items <- Inventory.iterator',
      '48 call iterator on Collections.unmodifiableCollection(items.values()) <- Inventory.iterator',
      '54 call requireNonBlank on Strings <- Inventory.Item.Item',
      '58 call Item <- Inventory.Item.withQuantity',
    ]);
  });

  it('extracts a JUnit test class', async () => {
    const f = await extract('src/test/java/com/acme/inventory/InventoryTest.java');
    expect(objects(f)).toEqual([
      'module src.test.java.com.acme.inventory.InventoryTest 1-19',
      'class InventoryTest 6-19',
      'method InventoryTest.findsAnItemBySku 7-12',
      'method InventoryTest.reportsLowStock 14-18',
    ]);
    expect(refs(f).filter((r) => / (import|call Item|call Inventory|call of) /.test(r))).toEqual([
      '3 import Test from org.junit.jupiter.api <- src.test.java.com.acme.inventory.InventoryTest',
      '4 import * from org.junit.jupiter.api.Assertions <- src.test.java.com.acme.inventory.InventoryTest',
      '9 call Inventory <- InventoryTest.findsAnItemBySku',
      '10 call Item on Inventory <- InventoryTest.findsAnItemBySku',
      '16 call Inventory <- InventoryTest.reportsLowStock',
      '16 call of on java.util.List <- InventoryTest.reportsLowStock',
      '16 call Item on Inventory <- InventoryTest.reportsLowStock',
    ]);
  });
});

describe('java query details', () => {
  it('reads interface constants, extends/implements with qualifiers and generics, and leaves anonymous classes in their method', async () => {
    const f = await extractText(
      'Shapes.java',
      [
        'import Util;',
        'interface Shape extends Comparable<Shape>, java.io.Serializable {',
        '    double UNIT = 1.0, HALF = 0.5;',
        '    double area();',
        '}',
        'abstract class Base<T> extends com.acme.Node<T> implements Shape {',
        '    static int counter = 0;',
        '    final int id = 1;',
        '    Runnable task() {',
        '        return new Runnable() {',
        '            public void run() { Util.log(Base::describe); }',
        '        };',
        '    }',
        '}',
      ].join('\n') + '\n',
    );
    expect(objects(f)).toEqual([
      'module Shapes 1-14',
      'interface Shape 2-5',
      'constant Shape.UNIT 3-3',
      'constant Shape.HALF 3-3',
      'method Shape.area 4-4',
      'class Base 6-14',
      'method Base.task 9-13',
    ]);
    expect(refs(f)).toEqual([
      '1 import Util from Util <- Shapes',
      '2 inherit Comparable <- Shape',
      '2 inherit Serializable on java.io <- Shape',
      '6 inherit Node on com.acme <- Base',
      '6 inherit Shape <- Base',
      '10 call Runnable <- Base.task',
      '11 call log on Util <- Base.task',
      '11 call describe on Base <- Base.task',
    ]);
  });

  it('keeps what parses in a file with syntax errors', async () => {
    const f = await extractText(
      'Broken.java',
      [
        'public class Broken {',
        '    public int before() {',
        '        return 1;',
        '    }',
        '',
        '    public void broken( {',
        '        int x = ;',
        '    }',
        '',
        '    public int after() {',
        '        return before();',
        '    }',
        '}',
      ].join('\n') + '\n',
    );
    expect(f.parseErrors).toBeGreaterThan(0);
    expect(objects(f)).toEqual(['module Broken 1-13', 'class Broken 1-13', 'method Broken.before 2-4', 'method Broken.broken 6-8', 'method Broken.after 10-12']);
  });

  it('survives 5,000 nested array initialisers and blocks quickly', async () => {
    const n = 5000;
    const text = `class Deep {\n  int[][] x = ${'{'.repeat(n)}${'}'.repeat(n)};\n  void f() {\n${'{'.repeat(n)}${'}'.repeat(n)}\n  }\n}\n`;
    const t0 = performance.now();
    const f = await extractText('Deep.java', text);
    expect(performance.now() - t0).toBeLessThan(2_000);
    expect(f.parseErrors).toBe(0);
    expect(objects(f)).toEqual(['module Deep 1-6', 'class Deep 1-6', 'method Deep.f 3-5']);
  });
});
