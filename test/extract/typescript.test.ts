import { describe, expect, it } from 'vitest';
import { MAX_OBJECT_DEPTH } from '../../indexer/extract/extract-code.ts';
import { extractionHarness, objects, object, parentOf, views, refs } from './harness.ts';

const { extract, extractText } = extractionHarness('typescript');

describe('typescript extraction of the fixture', () => {
  it('extracts constants, overloads, and arrow functions and function expressions as functions', async () => {
    const f = await extract('src/retry.ts');
    expect(f.language).toBe('typescript');
    expect(f.parseErrors).toBe(0);
    expect(objects(f)).toEqual([
      'module src.retry 1-30',
      'constant DEFAULT_RETRIES 1-2',
      'constant BASE_DELAY_MS 3-3',
      'constant MAX_DELAY_MS 3-3',
      'constant attemptsSeen 5-5',
      'function backoff 7-15',
      'function jitter 17-17',
      'function sleep 19-19',
      'function sleep 20-20',
      'function sleep 21-26',
      'function retryStats 28-30',
    ]);
    expect(object(f, 'backoff').docstring).toBe(
      '/**\n * Delay before the next attempt: exponential in the attempt number,\n * capped, with a little jitter so that workers do not retry in lockstep.\n */',
    );
    expect(views(f, 'backoff')).toEqual(['signature 11-11', 'body 7-15', 'docstring 7-10']);
    expect(object(f, 'backoff').signature).toBe('function backoff(attempt: number): number');
    expect(object(f, 'jitter').signature).toBe('const jitter = (delay: number): number => Math.floor(Math.random() * delay * 0.1);');
    expect(object(f, 'DEFAULT_RETRIES').docstring).toBe('/** Attempts made for a task before it is marked as failed. */');
    expect(views(f, 'DEFAULT_RETRIES')).toEqual(['signature 2-2', 'body 1-2', 'docstring 1-1']);
  });

  it('extracts interfaces, type aliases, enums, classes and abstract classes with their members', async () => {
    const f = await extract('src/queue.ts');
    expect(objects(f)).toEqual([
      'module src.queue 1-91',
      'interface Task 5-10',
      'method Task.run 9-9',
      'type TaskState 12-12',
      'enum Priority 14-18',
      'constant MAX_CONCURRENCY 20-21',
      'class TaskQueue 23-76',
      'method TaskQueue.constructor 31-33',
      'method TaskQueue.size 35-38',
      'method TaskQueue.push 40-44',
      'method TaskQueue.drain 46-52',
      'method TaskQueue.attempt 54-65',
      'method TaskQueue.settle 67-71',
      'method TaskQueue.[Symbol.iterator] 73-75',
      'class Worker 78-85',
      'method Worker.handle 80-80',
      'method Worker.describe 82-84',
      'function byPriority 87-89',
      'function createQueue 91-91',
    ]);
    expect(parentOf(f, 'TaskQueue.push')).toBe('TaskQueue');
    expect(parentOf(f, 'Worker.handle')).toBe('Worker');
    expect(parentOf(f, 'Task.run')).toBe('Task');
    expect(parentOf(f, 'TaskQueue')).toBe('src.queue');
    expect(object(f, 'TaskQueue').signature).toBe('class TaskQueue extends EventEmitter implements Iterable<Task>');
    expect(object(f, 'TaskQueue.size').signature).toBe('get size(): number');
    expect(object(f, 'TaskQueue.attempt').signature).toBe('private async attempt(task: Task, retries: number): Promise<TaskState>');
    expect(object(f, 'Worker.handle').signature).toBe('abstract handle(task: Task): Promise<void>;');
    expect(object(f, 'TaskState').signature).toBe("export type TaskState = 'pending' | 'running' | 'done' | 'failed';");
    // A doc comment before `export` belongs to the object; the signature starts at the declaration.
    expect(views(f, 'TaskQueue')).toEqual(['signature 27-27', 'body 23-76', 'docstring 23-26']);
    expect(views(f, 'TaskQueue.size')).toEqual(['signature 36-36', 'body 35-38', 'docstring 35-35']);
    expect(views(f, 'TaskQueue.push')).toEqual(['signature 40-40', 'body 40-44']);
    // A class body view keeps only the lines its members do not cover.
    const body = f.views.find((v) => v.object === f.objects.indexOf(object(f, 'TaskQueue')) && v.kind === 'body')!;
    expect(body.text).toContain('private running = 0;');
    expect(body.text).not.toContain('this.pending.push(task);');
  });

  it('records calls, `new`, inheritance and imports with qualifiers, modules and aliases', async () => {
    const f = await extract('src/queue.ts');
    expect(refs(f)).toEqual([
      "1 import EventEmitter from node:events <- src.queue",
      '2 import backoff from ./retry <- src.queue',
      '2 import sleep from ./retry <- src.queue',
      '2 import DEFAULT_RETRIES from ./retry as RETRIES <- src.queue',
      '3 import ./log from ./log as log <- src.queue',
      '27 inherit EventEmitter <- TaskQueue',
      '27 inherit Iterable <- TaskQueue',
      '41 call push on this.pending <- TaskQueue.push',
      '42 call sort on this.pending <- TaskQueue.push',
      '43 call drain on this <- TaskQueue.push',
      '48 call shift on this.pending <- TaskQueue.drain',
      '50 call attempt on this <- TaskQueue.drain',
      '50 call then on this.attempt(task, RETRIES) <- TaskQueue.drain',
      '50 call settle on this <- TaskQueue.drain',
      '57 call run on task <- TaskQueue.attempt',
      '57 call AbortController <- TaskQueue.attempt',
      '60 call warn on log <- TaskQueue.attempt',
      '61 call sleep <- TaskQueue.attempt',
      '61 call backoff <- TaskQueue.attempt',
      '69 call emit on this <- TaskQueue.settle',
      '70 call drain on this <- TaskQueue.settle',
      '91 call TaskQueue <- createQueue',
    ]);
  });

  it('reads re-exports as imports: named, aliased, `*` and `* as ns`', async () => {
    const f = await extract('src/log.ts');
    expect(objects(f)).toEqual(['module src.log 1-9', 'constant prefix 5-5', 'function warn 7-9']);
    expect(refs(f)).toEqual([
      '1 import DEFAULT_RETRIES from ./retry <- src.log',
      '1 import backoff from ./retry as retryDelay <- src.log',
      '2 import * from ./retry <- src.log',
      '3 import ./retry from ./retry as retry <- src.log',
      '8 call warn on console <- warn',
    ]);
  });

  it('extracts a test file: implements with a qualifier, calls at module level', async () => {
    const f = await extract('tests/queue.spec.ts');
    expect(objects(f)).toEqual(['module tests.queue.spec 1-25', 'class FlakyTask 5-13', 'method FlakyTask.run 10-12']);
    expect(refs(f)).toEqual([
      '1 import describe from vitest <- tests.queue.spec',
      '1 import expect from vitest <- tests.queue.spec',
      '1 import it from vitest <- tests.queue.spec',
      '2 import ../src/queue from ../src/queue as q <- tests.queue.spec',
      '3 import backoff from ../src/retry <- tests.queue.spec',
      '5 inherit Task on q <- FlakyTask',
      '11 call Error <- FlakyTask.run',
      '15 call describe <- tests.queue.spec',
      '16 call it <- tests.queue.spec',
      '17 call createQueue on q <- tests.queue.spec',
      '18 call push on queue <- tests.queue.spec',
      '18 call FlakyTask <- tests.queue.spec',
      '19 call expect <- tests.queue.spec',
      '19 call toBe on expect(queue.size) <- tests.queue.spec',
      '23 call backoff <- tests.queue.spec',
      '23 call toBeGreaterThanOrEqual on expect(backoff(3)) <- tests.queue.spec',
    ]);
  });
});

describe('typescript query details', () => {
  it('reads default, namespace, side-effect, require and dynamic imports', async () => {
    const f = await extractText(
      'imports.ts',
      [
        "import Default, { a as b } from './m';",
        "import * as ns from './ns';",
        "import './side-effect';",
        "import type { T } from './types';",
        "import fs = require('fs');",
        "const path = require('path');",
        "const { join, resolve: res } = require('node:path');",
        "require('./register');",
        "export const lazy = () => import('./lazy');",
      ].join('\n') + '\n',
    );
    // `require` bindings are imports, not constants.
    expect(objects(f)).toEqual(['module imports 1-9', 'function lazy 9-9']);
    expect(refs(f)).toEqual([
      '1 import a from ./m as b <- imports',
      '1 import ./m from ./m as Default <- imports',
      '2 import ./ns from ./ns as ns <- imports',
      '3 import ./side-effect from ./side-effect <- imports',
      '4 import T from ./types <- imports',
      '5 import fs from fs as fs <- imports',
      '6 import path from path as path <- imports',
      '7 import join from node:path <- imports',
      '7 import resolve from node:path as res <- imports',
      '8 import ./register from ./register <- imports',
      '9 import ./lazy from ./lazy <- lazy',
    ]);
  });

  it('names namespace members after the namespace and keeps non-exported declarations out', async () => {
    const f = await extractText(
      'ns.ts',
      [
        'export namespace Geometry {',
        '  export const ORIGIN = 0;',
        '  const hidden = 1;',
        '  export function area(r: number): number {',
        '    const local = r * r;',
        '    return local;',
        '  }',
        '}',
        'declare function ambient(x: string): void;',
        'let pending: string[] | undefined, count = 0;',
      ].join('\n') + '\n',
    );
    // Functions inside a naming scope are methods for the engine.
    expect(objects(f)).toEqual([
      'module ns 1-10',
      'constant Geometry.ORIGIN 2-2',
      'function Geometry.area 4-7',
      'function ambient 9-9',
      'constant pending 10-10',
      'constant count 10-10',
    ]);
  });

  it('keeps what parses in a file with syntax errors', async () => {
    const f = await extractText(
      'broken.ts',
      [
        'export function before(): number {',
        '  return 1;',
        '}',
        '',
        'export class Broken {',
        '  method(a: number {',
        '    return a +;',
        '  }',
        '}',
        '',
        'export function after(): string {',
        "  return 'x';",
        '}',
      ].join('\n') + '\n',
    );
    expect(f.parseErrors).toBeGreaterThan(0);
    expect(f.warnings).toEqual([`${f.parseErrors} syntax error node(s): indexed what parses`]);
    expect(objects(f)).toEqual(['module broken 1-13', 'function before 1-3', 'class Broken 5-9', 'method Broken.method 6-8', 'function after 11-13']);
  });

  it('survives 5,000 nested brackets and blocks quickly', async () => {
    const n = 5000;
    const text = `export const data = ${'['.repeat(n)}${']'.repeat(n)};\nexport function f(x: boolean) {\n${'if (x) {'.repeat(n)}${'}'.repeat(n)}\n}\n`;
    const t0 = performance.now();
    const f = await extractText('deep.ts', text);
    expect(performance.now() - t0).toBeLessThan(2_000);
    expect(f.language).toBe('typescript');
    expect(f.parseErrors).toBe(0);
    expect(objects(f)).toEqual(['module deep 1-4', 'constant data 1-1', 'function f 2-4']);
  });

  it('survives 5,000 nested function definitions: objects stop at the depth cap', async () => {
    const n = 5000;
    const t0 = performance.now();
    const f = await extractText('nested.ts', 'function f() {\n'.repeat(n) + '}\n'.repeat(n));
    expect(performance.now() - t0).toBeLessThan(2_000);
    expect(f.objects).toHaveLength(MAX_OBJECT_DEPTH + 1);
    const deepest = f.objects.at(-1)!;
    expect(`${deepest.kind} ${deepest.qualifiedName} ${deepest.startLine}-${deepest.endLine}`).toBe(
      `function ${Array(MAX_OBJECT_DEPTH).fill('f').join('.')} ${MAX_OBJECT_DEPTH}-${2 * n - MAX_OBJECT_DEPTH + 1}`,
    );
  });
});
