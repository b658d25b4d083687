// What a room holds, as one digest: every entry below it (the room itself and its `.git`
// included) by path, type, inode, size, mode, mtime and ctime. A write, a rename, a chmod, a new
// or removed entry all change it; so does a file written back with its old mtime, since the
// kernel sets ctime on every change and no one but root can set it back.
import { createHash } from "node:crypto";
import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { ResultAsync } from "neverthrow";
import { type ExecFault, reasonOf } from "../fault.js";

function walk(dir: string, rel: string, hash: ReturnType<typeof createHash>): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const s = lstatSync(path, { bigint: true });
    hash.update(`${rel}${entry.name}\0${s.mode}\0${s.ino}\0${s.size}\0${s.mtimeNs}\0${s.ctimeNs}\n`);
    if (entry.isDirectory()) walk(path, `${rel}${entry.name}/`, hash);
  }
}

/** The digest of everything in the room at `dir`; a room that cannot be walked is `room-failed`. */
export function roomFingerprint(dir: string, commit: string): ResultAsync<string, ExecFault> {
  return ResultAsync.fromPromise(
    (async () => {
      const hash = createHash("sha256");
      const top = lstatSync(dir, { bigint: true });
      hash.update(`.\0${top.mode}\0${top.ino}\0${top.mtimeNs}\0${top.ctimeNs}\n`);
      walk(dir, "", hash);
      return hash.digest("hex");
    })(),
    (e): ExecFault => ({ code: "room-failed", commit, reason: `its contents could not be read back: ${reasonOf(e)}` }),
  );
}
