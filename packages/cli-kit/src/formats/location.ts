// How the CI formats name a file: from the root of the repository holding it, as GitHub resolves
// annotation and SARIF paths, whatever directory the CLI was started in.
import { existsSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";

const posix = (path: string) => path.split(sep).join("/");

/**
 * `file` (as given, resolved against `cwd`) relative to the nearest directory above it that holds
 * `.git` (a repository or a linked worktree), `/`-separated; relative to `cwd` when none does.
 */
export function repoRelative(cwd: string, file: string): string {
  const abs = resolve(cwd, file);
  for (let dir = dirname(abs); ; dir = dirname(dir)) {
    if (existsSync(join(dir, ".git"))) return posix(relative(dir, abs));
    if (dirname(dir) === dir) return posix(relative(cwd, abs));
  }
}
