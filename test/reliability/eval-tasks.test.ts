// A task file cannot point `allot eval` at files outside a task's repository: a cross-file task whose path or gold
// path climbs out (`..`) or is absolute is refused when the file is read, naming the file, line and field.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCrossfileTasks } from '../../client/eval/tasks.ts';
import { scratchDirs } from '../helpers/repo.ts';

const scratch = scratchDirs('allot-eval-tasks-');
const task = (over: Record<string, unknown>, gold: Record<string, unknown> = {}) =>
  JSON.stringify({ id: 't', repo: '../corpora/django', path: 'a/b.py', line: 3, query: 'x', gold: { path: 'a/c.py', name: 'f', startLine: 1, endLine: 2, ...gold }, ...over });

describe('eval task files', () => {
  it.each([
    ['gold.path', task({}, { path: '../../etc/passwd' })],
    ['gold.path', task({}, { path: '/etc/passwd' })],
    ['path', task({ path: 'a/../../x.py' })],
  ])('refuses %s outside the repository', (field, line) => {
    const file = path.join(scratch(), 'tasks.jsonl');
    fs.writeFileSync(file, `${task({ id: 'ok' })}\n${line}\n`);
    expect(() => readCrossfileTasks(file)).toThrow(new RegExp(`tasks\\.jsonl:2: not a task of this kind \\(${field.replace('.', '\\.')}: expected a relative path without \\.\\.`));
  });

  it('accepts a repository named relative to --root, .. included (gen-crossfile writes it so)', () => {
    const file = path.join(scratch(), 'tasks.jsonl');
    fs.writeFileSync(file, `${task({})}\n`);
    expect(readCrossfileTasks(file)[0]).toMatchObject({ repo: '../corpora/django', gold: { path: 'a/c.py' } });
  });
});
