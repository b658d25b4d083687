// The repository `decay run|preflight|verify --repo DIR` names: refused with the system's reason
// in words (review finding 6: `cannot be read and written (ENOENT)`), on real temp directories.
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../../test-utils/tmp.js";
import { repoDir } from "./load.js";
import { describeCliFault } from "./fault.js";

describe("repoDir: a --repo that is no readable, writable directory", () => {
  it("says why in words: missing, a file on the way, a link loop, a file", async () => {
    const cwd = await tempDir();
    writeFileSync(join(cwd, "f"), "x");
    symlinkSync("loop", join(cwd, "loop"));
    const said = (given: string) => repoDir(cwd, given).match(() => "accepted", describeCliFault);
    expect(said("nope")).toBe("--repo nope: no such directory");
    expect(said("f/x")).toBe("--repo f/x: a part of the path is not a directory");
    expect(said("loop")).toBe("--repo loop: too many levels of symbolic links");
    expect(said("f")).toBe("--repo f: is not a directory");
  });

  it("accepts a directory, as its absolute path", async () => {
    const cwd = await tempDir();
    mkdirSync(join(cwd, "r"));
    expect(repoDir(cwd, "r")._unsafeUnwrap()).toBe(join(cwd, "r"));
  });
});
