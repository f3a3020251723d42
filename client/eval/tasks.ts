/**
 * The task files of `allot eval`: one JSON object a line. Cross-file tasks
 * (RepoBench setting) and issue tasks (SWE-bench setting) are read and checked
 * here, once, so the runners can trust them.
 */
import fs from 'node:fs';
import { z } from 'zod';
import { parseFilePath } from '../../daemon/requests.ts';

/** A repository-relative path: no `..`, not absolute (a task's file cannot lie outside its repository). */
const inside = z.string().refine((p) => parseFilePath(p).ok, 'expected a relative path without ..');

/** A cross-file completion task: the usage at `path:line` needs the definition `gold` from another file. */
export const CrossfileTaskSchema = z.object({
  id: z.string().min(1),
  /** The repository's folder relative to `--root` (`..` allowed: gen-crossfile writes it relative to where it ran). */
  repo: z.string(),
  /** The file holding the usage, repository-relative. */
  path: inside,
  /** 1-based line of the usage (the "next line" to be written). */
  line: z.number().int().min(1),
  /** What the model already has: the file's imports and up to 30 lines before `line`. */
  query: z.string(),
  gold: z.object({
    path: inside,
    name: z.string(),
    startLine: z.number().int().min(1),
    endLine: z.number().int().min(1),
  }),
});
export type CrossfileTask = z.infer<typeof CrossfileTaskSchema>;

/** An issue task, as in `/work/shared/eval/issues-dev.jsonl` (SWE-bench fields; extra fields are kept). */
export const IssueTaskSchema = z.looseObject({
  instance_id: z.string().min(1),
  /** `owner/name` on GitHub. */
  repo: z.string().regex(/^[^/\s]+\/[^/\s]+$/, 'expected owner/name'),
  base_commit: z.string().regex(/^[0-9a-f]{7,40}$/i, 'expected a commit hash'),
  problem_statement: z.string(),
  gold_files: z.array(z.string()).min(1),
});
export type IssueTask = z.infer<typeof IssueTaskSchema>;

/** An issue task with its gold patch (unified diff), for the prose yardstick. */
export const ProseTaskSchema = IssueTaskSchema.extend({ patch: z.string().min(1) });
export type ProseTask = z.infer<typeof ProseTaskSchema>;

/** Reads a JSON-lines file, checking every line against `schema`; errors name the file and line. */
export function readJsonl<T>(file: string, schema: z.ZodType<T>): T[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const out: T[] = [];
  text.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (err) {
      throw new Error(`${file}:${i + 1}: not JSON (${(err as Error).message})`);
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      const detail = parsed.error.issues.map((e) => `${e.path.join('.') || 'row'}: ${e.message}`).join('; ');
      throw new Error(`${file}:${i + 1}: not a task of this kind (${detail})`);
    }
    out.push(parsed.data);
  });
  return out;
}

export const readCrossfileTasks = (file: string): CrossfileTask[] => unique(readJsonl(file, CrossfileTaskSchema), (t) => t.id, file);
export const readIssueTasks = (file: string): IssueTask[] => unique(readJsonl(file, IssueTaskSchema), (t) => t.instance_id, file);
export const readProseTasks = (file: string): ProseTask[] => unique(readJsonl(file, ProseTaskSchema), (t) => t.instance_id, file);

function unique<T>(tasks: T[], key: (t: T) => string, file: string): T[] {
  const seen = new Set<string>();
  for (const t of tasks) {
    const k = key(t);
    if (seen.has(k)) throw new Error(`${file}: task id ${JSON.stringify(k)} appears twice`);
    seen.add(k);
  }
  return tasks;
}

/** Writes rows as JSON lines (the whole file). */
export function writeJsonl(file: string, rows: readonly unknown[]): void {
  fs.writeFileSync(file, rows.map((r) => JSON.stringify(r) + '\n').join(''));
}
