/**
 * Hand-written program pairs over test/fixtures/arbitrate: for each witness, a
 * worse and a better program (the witness must favour the better one in both
 * orders), in Python and TypeScript.
 */
import type { ArbitrateOptions, WitnessType } from '../../allocator/arbitrate/types.ts';
import { code } from './fixture.ts';

export interface Pair {
  name: string;
  witness: WitnessType;
  opts: ArbitrateOptions;
  worse: string;
  better: string;
}

const restock = { language: 'python', at: { path: 'inventory/report.py', symbol: 'restock' } } as const;
const summary = { language: 'python', at: { path: 'inventory/report.py', symbol: 'summary' } } as const;
const stockValue = { language: 'python', at: { path: 'inventory/stock.py', symbol: 'Stock.value' } } as const;
const render = { language: 'typescript', at: { path: 'web/cart.ts', symbol: 'Cart.render' } } as const;
const cartFile = { language: 'typescript', at: { path: 'web/cart.ts' } } as const;

export const PAIRS: Pair[] = [
  // ------------------------------------------------------------------ syntax
  {
    name: 'py: a missing colon', witness: 'syntax', opts: restock,
    worse: code(`
      def restock(stock, count):
          if count <= 0
              return stock.quantity
          return stock.add(count)
    `),
    better: code(`
      def restock(stock, count):
          if count <= 0:
              return stock.quantity
          return stock.add(count)
    `),
  },
  {
    name: 'ts: an unclosed call in a method', witness: 'syntax', opts: render,
    worse: code(`
      render(width: number): string {
        return pad(formatPrice(this.total(), width;
      }
    `),
    better: code(`
      render(width: number): string {
        return pad(formatPrice(this.total()), width);
      }
    `),
  },
  // ------------------------------------------------------------------ interface
  {
    name: 'py: too many arguments to an imported repository function', witness: 'interface', opts: { language: 'python' },
    worse: code(`
      from inventory.pricing import apply_discount

      def cheap(amount):
          return apply_discount(amount, 10, 20)
    `),
    better: code(`
      from inventory.pricing import apply_discount

      def cheap(amount):
          return apply_discount(amount, 10)
    `),
  },
  {
    name: 'py: a keyword-only parameter passed by position, through a module import', witness: 'interface', opts: summary,
    worse: code(`
      def summary(stocks, unit_price):
          total = sum(s.value(unit_price) for s in stocks)
          return json.dumps({"total": pricing.with_tax(total, 0.1)})
    `),
    better: code(`
      def summary(stocks, unit_price):
          total = sum(s.value(unit_price) for s in stocks)
          return json.dumps({"total": pricing.with_tax(total, rate=0.1)})
    `),
  },
  {
    name: 'py: a name the imported module does not define', witness: 'interface', opts: summary,
    worse: code(`
      def summary(stocks, unit_price):
          return json.dumps({"total": pricing.with_taxes(len(stocks) * unit_price)})
    `),
    better: code(`
      def summary(stocks, unit_price):
          return json.dumps({"total": pricing.with_tax(len(stocks) * unit_price)})
    `),
  },
  {
    name: 'py: a constructor and a self call with wrong counts (method candidate)', witness: 'interface', opts: stockValue,
    worse: code(`
        def value(self, unit_price, discount=0):
            spare = Stock(self.name, 0, 1)
            self.add(0, 1)
            return with_tax(apply_discount(unit_price * self.quantity, discount))
    `),
    better: code(`
        def value(self, unit_price, discount=0):
            spare = Stock(self.name, 0)
            self.add(0)
            return with_tax(apply_discount(unit_price * self.quantity, discount))
    `),
  },
  {
    name: 'ts: a missing argument to an imported function', witness: 'interface', opts: render,
    worse: code(`
      render(width: number): string {
        return pad(formatPrice(this.total()));
      }
    `),
    better: code(`
      render(width: number): string {
        return pad(formatPrice(this.total()), width);
      }
    `),
  },
  {
    name: 'ts: a constructor through a re-exported alias, a function through `export *`', witness: 'interface', opts: { language: 'typescript', path: 'web/main.ts' },
    worse: code(`
      import { ShoppingCart, pad } from './index';

      export function line(): string {
        const cart = new ShoppingCart();
        return pad(String(cart.total()), 8, ' ', 1);
      }
    `),
    better: code(`
      import { ShoppingCart, pad } from './index';

      export function line(): string {
        const cart = new ShoppingCart('me');
        return pad(String(cart.total()), 8, ' ');
      }
    `),
  },
  {
    name: 'py: a method inherited from a repository base class', witness: 'interface', opts: { language: 'python', at: { path: 'inventory/special.py', symbol: 'Perishable.age' } },
    worse: code(`
      def age(self, by):
          self.days += by
          return self.add(0, by)
    `),
    better: code(`
      def age(self, by):
          self.days += by
          return self.add(by)
    `),
  },
  {
    name: 'py: a class method whose receiver is named self, an explicit __new__', witness: 'interface', opts: { language: 'python', path: 'inventory/extra.py' },
    worse: code(`
      from inventory.special import Perishable

      def make(cls):
          return Perishable.fresh(), Perishable.__new__(cls, "milk", 2, 3)
    `),
    better: code(`
      from inventory.special import Perishable

      def make(cls):
          return Perishable.fresh("milk"), Perishable.__new__(cls, "milk", 2)
    `),
  },
  {
    name: 'py: a nested function calling its sibling', witness: 'interface', opts: { language: 'python', at: { path: 'inventory/special.py', symbol: 'Perishable.age.run' } },
    worse: code(`
      def run():
          return step(by, 1)
    `),
    better: code(`
      def run():
          return step(by)
    `),
  },
  {
    name: 'ts: constructor overloads', witness: 'interface', opts: { language: 'typescript', path: 'web/main.ts' },
    worse: code(`
      import { Notice } from './notice';
      export const notices = [new Notice('info'), new Notice('error', 'boom', 3)];
    `),
    better: code(`
      import { Notice } from './notice';
      export const notices = [new Notice('info'), new Notice('error', 'boom')];
    `),
  },
  // ------------------------------------------------------------------ names
  {
    name: 'py: a misspelled repository name', witness: 'names', opts: restock,
    worse: code(`
      def restock(stock: Stok, count):
          if count <= 0:
              return stock.quantity
          return stock.add(count)
    `),
    better: code(`
      def restock(stock: Stock, count):
          if count <= 0:
              return stock.quantity
          return stock.add(count)
    `),
  },
  {
    name: 'py: a repository function used without its import', witness: 'names', opts: summary,
    worse: code(`
      def summary(stocks, unit_price):
          total = apply_discount(sum(s.value(unit_price) for s in stocks), 5)
          return json.dumps({"total": total})
    `),
    better: code(`
      def summary(stocks, unit_price):
          total = pricing.apply_discount(sum(s.value(unit_price) for s in stocks), 5)
          return json.dumps({"total": total})
    `),
  },
  {
    name: 'py: a removed import in a whole file', witness: 'names', opts: { language: 'python', path: 'inventory/extra.py' },
    worse: code(`
      from inventory.stock import Stock


      def fresh(name):
          return with_tax(Stock(name).value(2))
    `),
    better: code(`
      from inventory.pricing import with_tax
      from inventory.stock import Stock


      def fresh(name):
          return with_tax(Stock(name).value(2))
    `),
  },
  {
    name: 'ts: a misspelled import and an unknown global', witness: 'names', opts: cartFile,
    worse: code(`
      export function label(amount: number): string {
        return formatPrise(amount) + Math.floor(amount) + consol.log;
      }
    `),
    better: code(`
      export function label(amount: number): string {
        return formatPrice(amount) + Math.floor(amount) + console.log;
      }
    `),
  },
  // ------------------------------------------------------------------ compactness
  {
    name: 'py: the same calls and returns in fewer tokens', witness: 'compactness', opts: restock,
    worse: code(`
      def restock(stock, count):
          """Adds count items."""
          result = None
          if count <= 0:
              result = stock.quantity
              return result
          else:
              updated = stock.add(count)
              result = updated
              return result
    `),
    better: code(`
      def restock(stock, count):
          """Adds count items."""
          if count <= 0:
              return stock.quantity
          return stock.add(count)
    `),
  },
  {
    name: 'ts: the same calls and returns in fewer tokens', witness: 'compactness', opts: render,
    worse: code(`
      render(width: number): string {
        const total: number = this.total();
        const formatted: string = formatPrice(total);
        const padded: string = pad(formatted, width);
        const result: string = padded;
        return result;
      }
    `),
    better: code(`
      render(width: number): string {
        return pad(formatPrice(this.total()), width);
      }
    `),
  },
];

/** Pairs on which the gate must abstain, with the reason. */
export const ABSTAIN: { name: string; opts: ArbitrateOptions; a: string; b: string }[] = [
  {
    name: 'py: both fail to parse', opts: restock,
    a: code(`
      def restock(stock, count)
          return stock.add(count)
    `),
    b: code(`
      def restock(stock, count):
          return stock.add(count
    `),
  },
  {
    name: 'py: one mismatch each', opts: { language: 'python' },
    a: code(`
      from inventory.pricing import apply_discount, with_tax

      def f(x):
          return apply_discount(x, 1, 2) + with_tax(x)
    `),
    b: code(`
      from inventory.pricing import apply_discount, with_tax

      def f(x):
          return apply_discount(x, 1) + with_tax(x, 2)
    `),
  },
  {
    name: 'py: witnesses disagree (fewer suspicious names, more mismatches)', opts: restock,
    a: code(`
      def restock(stock: Stock, count):
          return stock.add(count) + restok_count
    `),
    b: code(`
      def restock(stock: Stock, count):
          return stock.add(count) + Stock(1, 2, 3).quantity
    `),
  },
  {
    name: 'py: shorter but drops a call', opts: restock,
    a: code(`
      def restock(stock, count):
          if count <= 0:
              value = stock.quantity
              return value
          added = stock.add(count)
          return added
    `),
    b: code(`
      def restock(stock, count):
          if count <= 0:
              return stock.quantity
          return stock.quantity + count
    `),
  },
  {
    name: 'py: a wildcard import from outside the repository hides every name', opts: { language: 'python' },
    a: code(`
      from os.path import *

      def where(p):
          return joinn(p, "x")
    `),
    b: code(`
      from os.path import *

      def where(p):
          return join(p, "x")
    `),
  },
  {
    name: 'ts: calls whose callee is not known (parameters, externals)', opts: render,
    a: code(`
      render(width: number): string {
        return this.items.map((x) => x.toFixed(2, 3)).join(', ', 1);
      }
    `),
    b: code(`
      render(width: number): string {
        return this.items.map((x) => x.toFixed(2)).join(', ');
      }
    `),
  },
  {
    name: 'js: CommonJS bindings are not followed (module.exports need not be the top-level names)', opts: { language: 'javascript', path: 'web/legacy.js' },
    a: code(`
      const fmt = require('./format');
      module.exports = { label: (x) => fmt.pad(x) };
    `),
    b: code(`
      const fmt = require('./format');
      module.exports = { label: (x) => fmt.pad(x, 2) };
    `),
  },
  {
    name: 'js: a page script sees the globals of other scripts', opts: { language: 'javascript', at: { path: 'web/page.js', symbol: 'show' } },
    a: code(`
      function show(message) {
        jQuerry('#message').text(message);
      }
    `),
    b: code(`
      function show(message) {
        jQuery('#message').text(message);
      }
    `),
  },
  {
    name: 'py: a name both defined and imported is not followed (scopes decide)', opts: { language: 'python' },
    a: code(`
      def outer(x):
          def apply_discount(amount):
              from inventory.pricing import apply_discount
              return apply_discount(amount, x)
          return apply_discount
    `),
    b: code(`
      def outer(x):
          def apply_discount(amount):
              from inventory.pricing import apply_discount
              return apply_discount(amount, x, 1)
          return apply_discount
    `),
  },
  {
    name: 'py: a property is not checked as a call', opts: stockValue,
    a: code(`
      def value(self, unit_price, discount=0):
          if self.empty(1):
              return 0
          return with_tax(apply_discount(unit_price * self.quantity, discount))
    `),
    b: code(`
      def value(self, unit_price, discount=0):
          if self.empty():
              return 0
          return with_tax(apply_discount(unit_price * self.quantity, discount))
    `),
  },
];
