/**
 * What a gold patch (unified diff, as SWE-bench stores it) edits, on the old side: the lines of each hunk a fix
 * changes in the file as it is at the base commit, which is what a context for the issue could have shown.
 */

/** One hunk's edits on the old side. */
export interface GoldHunk {
  /** 1-based lines of the old file the hunk deletes or replaces; for a pure insertion, the old lines around it. */
  lines: number[];
}

export interface GoldFilePatch {
  /** The old path (repository-relative), as it exists at the base commit. */
  path: string;
  hunks: GoldHunk[];
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@/;

/**
 * The old-side edits of a unified diff, per file: `-` lines are edited lines; an edit made only of `+` lines
 * (an insertion) counts the old lines just before and after it, since showing either shows where the fix goes.
 * Files the patch creates have no old side and are left out.
 * @example goldEdits('--- a/x.py\n+++ b/x.py\n@@ -2,2 +2,2 @@\n a\n-b\n+c\n')[0] // { path: 'x.py', hunks: [{ lines: [3] }] }
 */
export function goldEdits(patch: string): GoldFilePatch[] {
  const files: GoldFilePatch[] = [];
  let file: GoldFilePatch | null = null;
  let hunk: GoldHunk | null = null;
  let old = 0;
  let oldEnd = 0;
  // The current run of changed lines: whether it deleted anything, and where it started on the old side.
  let run: { deleted: boolean; at: number } | null = null;
  const closeRun = () => {
    if (run && !run.deleted && hunk) {
      for (const l of [run.at - 1, run.at]) if (l >= 1 && l < oldEnd && !hunk.lines.includes(l)) hunk.lines.push(l);
    }
    run = null;
  };
  const closeHunk = () => {
    closeRun();
    if (hunk && file && hunk.lines.length) file.hunks.push({ lines: hunk.lines.sort((a, b) => a - b) });
    hunk = null;
  };
  for (const line of patch.split('\n')) {
    if (line.startsWith('--- ')) {
      closeHunk();
      const p = line.slice(4).trim().split('\t')[0];
      file = p === '/dev/null' ? null : { path: p.replace(/^a\//, ''), hunks: [] };
      if (file) files.push(file);
      continue;
    }
    if (line.startsWith('+++ ') && !hunk) continue;
    const h = HUNK.exec(line);
    if (h) {
      closeHunk();
      if (!file) continue;
      old = Number(h[1]);
      const count = h[2] === undefined ? 1 : Number(h[2]);
      // An empty old side (`-0,0` or `-n,0`) inserts after line n.
      if (count === 0) old += 1;
      oldEnd = old + count + (count === 0 ? 1 : 0);
      hunk = { lines: [] };
      continue;
    }
    if (!hunk) continue;
    if (line.startsWith('-')) {
      run ??= { deleted: true, at: old };
      run.deleted = true;
      hunk.lines.push(old++);
    } else if (line.startsWith('+')) {
      run ??= { deleted: false, at: old };
    } else if (line.startsWith(' ') || line === '') {
      closeRun();
      old++;
    } else if (!line.startsWith('\\')) closeHunk(); // `\ No newline at end of file` belongs to the hunk
  }
  closeHunk();
  return files.filter((f) => f.hunks.length > 0);
}
