import { chmodSync, chownSync, lstatSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { tempDir } from "../../../test-utils/tmp.js";
import { type DirStat, privateDirIssue } from "./private-dir.js";

const uid = process.getuid?.() ?? -1;

/** What lstat says of a real path, as the check reads it. */
function statOf(path: string): DirStat {
  const s = lstatSync(path);
  const type = s.isSymbolicLink() ? "symlink" : s.isDirectory() ? "directory" : s.isFile() ? "file" : "other";
  return { type, uid: s.uid, mode: s.mode };
}

describe.runIf(uid !== -1)("privateDirIssue on real directories", () => {
  test("a directory of this user's closed to others is private; each other shape says why not", async () => {
    const top = await tempDir("decay-private-");
    mkdirSync(join(top, "mine"), { mode: 0o700 });
    expect(privateDirIssue(statOf(join(top, "mine")), uid)).toBeNull();
    mkdirSync(join(top, "open"));
    chmodSync(join(top, "open"), 0o755);
    expect(privateDirIssue(statOf(join(top, "open")), uid)).toEqual({ issue: "open", mode: 0o755 });
    writeFileSync(join(top, "file"), "");
    expect(privateDirIssue(statOf(join(top, "file")), uid)).toEqual({ issue: "not-a-directory" });
    // A link to a private directory of this user's is still refused: it is read, never followed.
    symlinkSync(join(top, "mine"), join(top, "link"));
    expect(privateDirIssue(statOf(join(top, "link")), uid)).toEqual({ issue: "symlink" });
  });

  test.runIf(uid === 0)("a directory chowned to another user is foreign, even closed to others", async () => {
    const dir = join(await tempDir("decay-private-"), "theirs");
    mkdirSync(dir, { mode: 0o700 });
    chownSync(dir, 4242, 4242);
    expect(privateDirIssue(statOf(dir), uid)).toEqual({ issue: "foreign-owner", uid: 4242 });
  });

  // Without root no directory can be given away; the root directory is one another user owns.
  test.runIf(uid !== 0)("a real directory another user owns (/, owned by root) is foreign", () => {
    expect(privateDirIssue(statOf("/"), uid)).toEqual({ issue: "foreign-owner", uid: 0 });
  });
});
