// How the CI formats name a file: from the root of the repository holding it, as GitHub resolves
// annotation and SARIF paths, whatever directory the CLI was started in.
import { existsSync, realpathSync } from "node:fs";
import { basename, dirname, join, relative, resolve, sep } from "node:path";

const posix = (path: string) => path.split(sep).join("/");

// Where a path really lies: the links on the way to its directory followed, the name itself kept
// (a file that is a link is named where the link is, in the repository holding the link); a
// directory that does not exist as far as it can be followed.
function real(abs: string): string {
  try {
    return join(realpathSync(dirname(abs)), basename(abs));
  } catch {
    return abs;
  }
}

/**
 * `file` (as given, resolved against `cwd`) relative to the nearest directory above where it
 * really lies (linked directories followed, see `real`) that holds `.git` (a repository or a linked worktree),
 * `/`-separated; relative to `cwd`, as given, when none does.
 */
export function repoRelative(cwd: string, file: string): string {
  const abs = resolve(cwd, file);
  const at = real(abs);
  for (let dir = dirname(at); ; dir = dirname(dir)) {
    if (existsSync(join(dir, ".git"))) return posix(relative(dir, at));
    if (dirname(dir) === dir) return posix(relative(cwd, abs));
  }
}
