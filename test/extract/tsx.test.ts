import { describe, expect, it } from 'vitest';
import { extractionHarness, objects, object, parentOf, views, refs } from './harness.ts';

const { extract, extractText } = extractionHarness('tsx');

describe('tsx extraction of the fixture', () => {
  it('extracts components written as functions and as arrow functions', async () => {
    const f = await extract('src/components/Button.tsx');
    expect(f.language).toBe('tsx');
    expect(f.parseErrors).toBe(0);
    expect(objects(f)).toEqual([
      'module src.components.Button 1-28',
      'interface ButtonProps 4-8',
      'method ButtonProps.onPress 7-7',
      'function Button 10-18',
      'function IconButton 20-22',
      'function classNames 24-26',
      'function Icon 28-28',
    ]);
    expect(object(f, 'Button').signature).toBe("export const Button = ({ label, variant = 'primary', onPress }: ButtonProps) => {");
    expect(object(f, 'Button').docstring).toBe('/** A button that renders its label and reports presses. */');
    expect(views(f, 'Button')).toEqual(['signature 11-11', 'body 10-18', 'docstring 10-10']);
    expect(views(f, 'IconButton')).toEqual(['signature 20-20', 'body 20-22']);
    expect(parentOf(f, 'ButtonProps.onPress')).toBe('ButtonProps');
  });

  it('records rendering a capitalised JSX element as a call, not HTML tags', async () => {
    const f = await extract('src/components/Button.tsx');
    expect(refs(f)).toEqual([
      '1 import react from react as React <- src.components.Button',
      '2 import ReactNode from react <- src.components.Button',
      '12 call classNames <- Button',
      '14 call onPress <- Button',
      '21 call Button <- IconButton',
      '21 call Icon <- IconButton',
      '25 call filter on names <- classNames',
      '25 call join on names.filter(Boolean) <- classNames',
    ]);
  });

  it('extracts a class component, its inheritance and member-expression elements', async () => {
    const f = await extract('src/App.tsx');
    expect(objects(f)).toEqual([
      'module src.App 1-30',
      'type AppState 5-5',
      'class ErrorBoundary 7-18',
      'method ErrorBoundary.getDerivedStateFromError 11-13',
      'method ErrorBoundary.render 15-17',
      'function App 20-30',
    ]);
    expect(parentOf(f, 'ErrorBoundary.render')).toBe('ErrorBoundary');
    expect(object(f, 'ErrorBoundary').signature).toBe(
      'class ErrorBoundary extends React.Component<{ children: React.ReactNode }, AppState>',
    );
    expect(views(f, 'ErrorBoundary')).toEqual(['signature 8-8', 'body 7-18', 'docstring 7-7']);
    expect(refs(f)).toEqual([
      '1 import useState from react <- src.App',
      '1 import react from react as React <- src.App',
      '2 import Button from ./components/Button <- src.App',
      '2 import IconButton from ./components/Button <- src.App',
      '3 import ./components/Layout from ./components/Layout as Layout <- src.App',
      '8 inherit Component on React <- ErrorBoundary',
      '21 call useState <- App',
      '23 call ErrorBoundary <- App',
      '24 call Page on Layout <- App',
      '25 call Button <- App',
      '25 call setCount <- App',
      '26 call IconButton <- App',
    ]);
  });

  it('extracts a test file that renders a component', async () => {
    const f = await extract('src/App.spec.tsx');
    expect(objects(f)).toEqual(['module src.App.spec 1-7']);
    expect(refs(f)).toEqual([
      '1 import render from @testing-library/react <- src.App.spec',
      '1 import screen from @testing-library/react <- src.App.spec',
      '2 import ./App from ./App as App <- src.App.spec',
      '4 call test <- src.App.spec',
      '5 call render <- src.App.spec',
      '5 call App <- src.App.spec',
      '6 call expect <- src.App.spec',
      '6 call getByRole on screen <- src.App.spec',
      "6 call toBeTruthy on expect(screen.getByRole('button', { name: /clicked 0 times/i })) <- src.App.spec",
    ]);
  });
});

describe('tsx query details', () => {
  it('reads a generic arrow function as a function', async () => {
    const f = await extractText('generic.tsx', 'export const identity = <T,>(value: T): T => value;\nconst ZERO = 0;\n');
    expect(objects(f)).toEqual(['module generic 1-2', 'function identity 1-1', 'constant ZERO 2-2']);
  });

  it('keeps what parses in a file with syntax errors', async () => {
    const f = await extractText(
      'broken.tsx',
      [
        'export function Before() {',
        '  return <div>ok</div>;',
        '}',
        '',
        'export function Broken() {',
        '  return <div><span></div>;',
        '}',
        '',
        'export function After() {',
        '  return <p>fine</p>;',
        '}',
      ].join('\n') + '\n',
    );
    expect(f.parseErrors).toBeGreaterThan(0);
    expect(objects(f)).toEqual(['module broken 1-11', 'function Before 1-3', 'function Broken 5-7', 'function After 9-11']);
  });

  it('survives 5,000 nested elements and parentheses quickly', async () => {
    const n = 5000;
    const text = `export const tree = ${'<div>'.repeat(n)}${'</div>'.repeat(n)};\nexport function g() {\n  return ${'('.repeat(n)}1${')'.repeat(n)};\n}\n`;
    const t0 = performance.now();
    const f = await extractText('deep.tsx', text);
    expect(performance.now() - t0).toBeLessThan(2_000);
    expect(f.parseErrors).toBe(0);
    expect(objects(f)).toEqual(['module deep 1-4', 'constant tree 1-1', 'function g 2-4']);
  });
});
