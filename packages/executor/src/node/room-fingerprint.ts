// What a room holds, as one digest: every entry below its home (the room, anything written beside
// it, its `.git`, and the git directory a `.git` file points to: a worktree's own HEAD, index and
// logs live in the repository's `.git/worktrees/<name>/`) by path, type, inode, size, mode, mtime
// and ctime. A write, a rename, a chmod, a new or removed entry all change it; so does a file
// written back with its old mtime, since the kernel sets ctime on every change and no one but root
// can set it back.
import { createHash } from "node:crypto";
import { type BigIntStats, lstatSync, readdirSync, readFileSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { ResultAsync } from "neverthrow";
import { type ExecFault, reasonOf } from "../fault.js";

type Hash = ReturnType<typeof createHash>;

function entry(hash: Hash, label: string, path: string): BigIntStats {
  const s = lstatSync(path, { bigint: true });
  hash.update(`${label}\0${s.mode}\0${s.ino}\0${s.size}\0${s.mtimeNs}\0${s.ctimeNs}\n`);
  return s;
}

function walk(dir: string, label: string, hash: Hash, gitDirs: Set<string>): void {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    const s = entry(hash, `${label}/${name}`, path);
    if (s.isDirectory()) walk(path, `${label}/${name}`, hash, gitDirs);
    else if (name === ".git" && s.isFile()) {
      // `gitdir: <path>`: a linked worktree's (or a submodule's) own git directory.
      const to = /^gitdir: (.+)$/m.exec(readFileSync(path, "utf8"))?.[1]?.trim();
      if (to !== undefined) gitDirs.add(isAbsolute(to) ? to : resolve(dir, to));
    }
  }
}

/**
 * The digest of everything under `home` (a room's private home directory, the room inside it),
 * and of each git directory a `.git` file there points to; a room that cannot be walked is
 * `room-failed`.
 */
export function roomFingerprint(home: string, commit: string): ResultAsync<string, ExecFault> {
  return ResultAsync.fromPromise(
    (async () => {
      const hash = createHash("sha256");
      const gitDirs = new Set<string>();
      entry(hash, ".", home);
      walk(home, ".", hash, gitDirs);
      for (const dir of gitDirs) {
        entry(hash, dir, dir);
        walk(dir, dir, hash, new Set());
      }
      return hash.digest("hex");
    })(),
    (e): ExecFault => ({ code: "room-failed", commit, reason: `its contents could not be read back: ${reasonOf(e)}` }),
  );
}
