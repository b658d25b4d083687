import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { tempDir } from "../../../test-utils/tmp.js";
import { writeOutput, type OutputFs } from "./output.js";
import type { StdStreams } from "./streams.js";

function streams(cwd: string, out: string[] = []): StdStreams {
  return { stdin: (async function* () {})(), stdout: { write: (t) => void out.push(t) }, stderr: { write: () => undefined }, env: {}, cwd };
}

/** node:fs whose writes fail with ENOSPC once `k` bytes have gone to the temporary file. */
function fullDisk(k: number): OutputFs {
  let written = 0;
  return {
    ...fs,
    lstatSync: fs.lstatSync,
    writeSync: (fd, buffer, offset, length) => {
      if (written >= k) throw Object.assign(new Error("no space left on device"), { code: "ENOSPC" });
      const n = fs.writeSync(fd, buffer, offset, Math.min(length, k - written));
      written += n;
      return n;
    },
  };
}

describe("writeOutput: every -o, atomic and never over a non-regular file", () => {
  test("writes a new file, and replaces an old one whole", async () => {
    const dir = await tempDir();
    expect((await writeOutput(streams(dir), "out.md", "one\n")).isOk()).toBe(true);
    expect((await writeOutput(streams(dir), "out.md", "two\n")).isOk()).toBe(true);
    expect(fs.readFileSync(join(dir, "out.md"), "utf8")).toBe("two\n");
    expect(fs.readdirSync(dir)).toEqual(["out.md"]);
  });

  test.each(["out.md/", "out.md/.", "sub/.."])("%s names a directory: refused as typed, nothing written", async (target) => {
    const dir = await tempDir();
    fs.mkdirSync(join(dir, "sub"));
    const refused = await writeOutput(streams(dir), target, "one\n");
    expect(refused._unsafeUnwrapErr()).toMatchObject({ kind: "not-regular", path: target, reason: expect.stringContaining("names a directory") });
    expect(fs.readdirSync(dir)).toEqual(["sub"]);
  });

  test.each([0, 1, 7, 4096, 9999])("a disk that fills after %i bytes leaves the old file byte-identical and no temporary", async (k) => {
    const dir = await tempDir();
    const old = "the old contract\n".repeat(50);
    fs.writeFileSync(join(dir, "contract.md"), old);
    const got = await writeOutput(streams(dir), "contract.md", "new ".repeat(5000), { fs: fullDisk(k) });
    expect(got._unsafeUnwrapErr()).toEqual({ kind: "io", path: "contract.md", reason: "no space left on device" });
    expect(fs.readFileSync(join(dir, "contract.md"), "utf8")).toBe(old);
    expect(fs.readdirSync(dir)).toEqual(["contract.md"]);
  });

  test("- writes to standard output and creates no file named -", async () => {
    const dir = await tempDir();
    const out: string[] = [];
    expect((await writeOutput(streams(dir, out), "-", "text\n")).isOk()).toBe(true);
    expect(out).toEqual(["text\n"]);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  test("a FIFO, a symbolic link and a directory are refused, each left as it was", async () => {
    const dir = await tempDir();
    execFileSync("mkfifo", [join(dir, "fifo")]);
    fs.writeFileSync(join(dir, "real"), "keep\n");
    fs.symlinkSync("real", join(dir, "link"));
    fs.mkdirSync(join(dir, "sub"));
    const reasons: Record<string, string> = {
      fifo: "it is a FIFO (named pipe); only a regular file is replaced",
      link: "it is a symbolic link; only a regular file is replaced",
      sub: "it is a directory; only a regular file is replaced",
    };
    for (const [name, reason] of Object.entries(reasons)) {
      const got = await writeOutput(streams(dir), name, "new\n");
      expect(got._unsafeUnwrapErr()).toEqual({ kind: "not-regular", path: name, reason });
    }
    expect(fs.lstatSync(join(dir, "fifo")).isFIFO()).toBe(true);
    expect(fs.readlinkSync(join(dir, "link"))).toBe("real");
    expect(fs.readFileSync(join(dir, "real"), "utf8")).toBe("keep\n");
    expect(fs.readdirSync(join(dir, "sub"))).toEqual([]);
    expect(fs.readdirSync(dir).sort()).toEqual(["fifo", "link", "real", "sub"]);
  });

  test("a device (a fake lstat: tests never touch /dev) is refused before any file call", async () => {
    const calls: string[] = [];
    const no = () => false;
    const device = {
      isFile: no,
      isDirectory: no,
      isSymbolicLink: no,
      isFIFO: no,
      isCharacterDevice: () => true,
      isBlockDevice: no,
      isSocket: no,
    } as unknown as fs.Stats;
    const fake: OutputFs = {
      lstatSync: () => device,
      statSync: () => device,
      openSync: () => (calls.push("open"), 3),
      writeSync: () => (calls.push("write"), 0),
      fsyncSync: () => void calls.push("fsync"),
      closeSync: () => void calls.push("close"),
      renameSync: () => void calls.push("rename"),
      unlinkSync: () => void calls.push("unlink"),
    };
    const got = await writeOutput(streams("/work"), "null", "x", { fs: fake });
    expect(got._unsafeUnwrapErr()).toEqual({ kind: "not-regular", path: "null", reason: "it is a character device; only a regular file is replaced" });
    expect(calls).toEqual([]);
  });

  test("a failed standard output write is a stdout refusal", async () => {
    const io = { ...streams("/"), stdout: { write: () => Promise.reject(Object.assign(new Error("x"), { code: "EPIPE" })) } };
    expect((await writeOutput(io, "-", "t"))._unsafeUnwrapErr()).toEqual({ kind: "stdout", path: "standard output", reason: "EPIPE" });
  });

  test("an output that is an input is refused naming both, the input untouched: same path, a hard link, a symbolic link, a linked directory", async () => {
    const dir = await tempDir();
    fs.writeFileSync(join(dir, "p.md"), "plan\n");
    fs.linkSync(join(dir, "p.md"), join(dir, "hard.md"));
    fs.symlinkSync("p.md", join(dir, "sym.md"));
    fs.mkdirSync(join(dir, "d"));
    fs.symlinkSync("..", join(dir, "d", "up"));
    for (const [input, target] of <[string, string][]>[
      ["p.md", "p.md"],
      ["p.md", "./p.md"],
      [join(dir, "p.md"), "p.md"],
      ["p.md", "hard.md"],
      ["sym.md", "p.md"],
      ["p.md", "d/up/p.md"],
    ]) {
      const got = await writeOutput(streams(dir), target, "contract\n", { inputs: ["-", input] });
      expect(got._unsafeUnwrapErr()).toEqual({
        kind: "same-as-input",
        path: target,
        input,
        reason: `it is the same file as the input ${input}, which writing it would replace`,
      });
    }
    expect(fs.readFileSync(join(dir, "p.md"), "utf8")).toBe("plan\n");
    expect(fs.readdirSync(dir).sort()).toEqual(["d", "hard.md", "p.md", "sym.md"]);
  });

  test("an input not made yet is refused as the output through a linked directory; the same name elsewhere is written", async () => {
    const dir = await tempDir();
    fs.mkdirSync(join(dir, "tree", "src"), { recursive: true });
    fs.mkdirSync(join(dir, "other"));
    fs.symlinkSync(join("tree", "src"), join(dir, "alias"));
    fs.writeFileSync(join(dir, "tree", "src", "a.ts"), "a\n");
    for (const target of ["alias/c.ts", "./alias/../alias/c.ts", join(dir, "alias", "c.ts")]) {
      const got = await writeOutput(streams(dir), target, "plan\n", { inputs: ["tree/src/c.ts"] });
      expect(got._unsafeUnwrapErr()).toMatchObject({ kind: "same-as-input", path: target, input: "tree/src/c.ts" });
    }
    // A file below a file is nothing there: no refusal, and no crash on ENOTDIR.
    const inputs = ["tree/src/c.ts", "tree/src/a.ts/sub/c.ts"];
    // Written twice: once new (directories compared), once over itself (files compared).
    for (const text of ["one\n", "plan\n"]) expect((await writeOutput(streams(dir), "other/c.ts", text, { inputs })).isOk()).toBe(true);
    expect(fs.readdirSync(join(dir, "tree", "src"))).toEqual(["a.ts"]);
    expect(fs.readFileSync(join(dir, "other", "c.ts"), "utf8")).toBe("plan\n");
  });

  test("the same path is refused even when the input is gone by the time the output is written", async () => {
    const dir = await tempDir();
    // The plan was read, then removed: no inode to compare, the path alone names it.
    const gone: OutputFs = { ...fs, lstatSync: fs.lstatSync, statSync: () => undefined };
    const got = await writeOutput(streams(dir), "./p.md", "c\n", { inputs: ["p.md"], fs: gone });
    expect(got._unsafeUnwrapErr()).toMatchObject({ kind: "same-as-input", path: "./p.md", input: "p.md" });
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  test("another file, a new file, and standard input as the input are written", async () => {
    const dir = await tempDir();
    fs.writeFileSync(join(dir, "p.md"), "plan\n");
    fs.writeFileSync(join(dir, "copy.md"), "plan\n");
    for (const target of ["copy.md", "new.md", "-"]) expect((await writeOutput(streams(dir), target, "c\n", { inputs: ["p.md", "-"] })).isOk()).toBe(true);
    expect((await writeOutput(streams(dir), "p.md", "c\n", { inputs: ["-"] })).isOk()).toBe(true);
    expect(fs.readFileSync(join(dir, "copy.md"), "utf8")).toBe("c\n");
  });

  test("a target whose name holds U+FFFD (bytes that were not UTF-8 on the command line) is refused, nothing written", async () => {
    const dir = await tempDir();
    const got = await writeOutput(streams(dir), "\ufffdo.md", "c\n");
    expect(got._unsafeUnwrapErr()).toMatchObject({ kind: "name", path: "\ufffdo.md", reason: expect.stringContaining("not valid UTF-8") });
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});
