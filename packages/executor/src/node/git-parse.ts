// Parsers of git's machine output (`status --porcelain=v1 -z`, `diff --numstat -z`).
import type { DiffStats } from "../ports.js";

/**
 * The paths `git status --porcelain=v1 -z` names, in order, each once: a rename or copy names its
 * new path and its original path.
 */
export function parseStatus(out: string): string[] {
  const fields = out.split("\0");
  const paths: string[] = [];
  for (let i = 0; i < fields.length; i += 1) {
    const field = fields[i] ?? "";
    if (field.length < 4) continue;
    paths.push(field.slice(3));
    // "R" or "C" in either column: the next field is the path it came from.
    if (/[RC]/.test(field.slice(0, 2))) {
      i += 1;
      if (fields[i]) paths.push(fields[i] ?? "");
    }
  }
  return [...new Set(paths)];
}

/**
 * Files and lines of `git diff --numstat -z` (renames off). A binary file counts as a file with no
 * lines (`-` in both columns).
 */
export function parseNumstat(out: string): DiffStats {
  let insertions = 0;
  let deletions = 0;
  const paths: string[] = [];
  for (const record of out.split("\0")) {
    const m = /^(\d+|-)\t(\d+|-)\t(.*)$/s.exec(record);
    if (m === null) continue;
    insertions += m[1] === "-" ? 0 : Number(m[1]);
    deletions += m[2] === "-" ? 0 : Number(m[2]);
    paths.push(m[3] ?? "");
  }
  return { files: paths.length, insertions, deletions, paths };
}
