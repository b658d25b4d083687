import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { tempDir } from "../../../test-utils/tmp.js";
import { notRegular, readBounded, type StatLike } from "./input.js";
import type { StdStreams } from "./streams.js";

function streams(cwd: string, stdin: AsyncIterable<Uint8Array | string> = (async function* () {})()): StdStreams {
  return { stdin, stdout: { write: () => undefined }, stderr: { write: () => undefined }, env: {}, cwd };
}

function fakeStat(kind: keyof StatLike): StatLike {
  const no = () => false;
  const s: StatLike = { isFile: no, isDirectory: no, isSymbolicLink: no, isFIFO: no, isCharacterDevice: no, isBlockDevice: no, isSocket: no };
  return { ...s, [kind]: () => true };
}

describe("notRegular: the one regular-file decision", () => {
  test.each([
    ["isFile", undefined],
    ["isDirectory", "a directory"],
    ["isSymbolicLink", "a symbolic link"],
    ["isFIFO", "a FIFO (named pipe)"],
    ["isCharacterDevice", "a character device"],
    ["isBlockDevice", "a block device"],
    ["isSocket", "a socket"],
  ] as const)("%s -> %s", (kind, words) => {
    expect(notRegular(fakeStat(kind))).toBe(words);
  });
});

describe("readBounded: every input bounded while reading", () => {
  test("an empty name is refused as naming no file, never read as the working directory", async () => {
    const dir = await tempDir();
    const got = await readBounded(streams(dir), "");
    expect(got._unsafeUnwrapErr()).toEqual({ kind: "unreadable", name: "", reason: "the name is empty, and an empty argument names no file" });
  });

  test("a regular file within the limit is read whole", async () => {
    const dir = await tempDir();
    fs.writeFileSync(join(dir, "a.txt"), "hello");
    const got = await readBounded(streams(dir), "a.txt", { maxBytes: 5 });
    expect(new TextDecoder().decode(got._unsafeUnwrap())).toBe("hello");
  });

  test("a regular file one byte over the limit is refused by its size, naming the option", async () => {
    const dir = await tempDir();
    fs.writeFileSync(join(dir, "a.txt"), "hello!");
    const got = await readBounded(streams(dir), "a.txt", { maxBytes: 5, option: "--max-input-bytes" });
    expect(got._unsafeUnwrapErr()).toEqual({
      kind: "too-large",
      name: "a.txt",
      reason: "it is larger than the limit of 5 bytes (--max-input-bytes raises it)",
    });
  });

  test("a FIFO nobody writes is refused before it is opened (no hang)", async () => {
    const dir = await tempDir();
    execFileSync("mkfifo", [join(dir, "pipe")]);
    const got = await readBounded(streams(dir), "pipe");
    expect(got._unsafeUnwrapErr()).toMatchObject({ kind: "not-regular", name: "pipe", reason: "it is a FIFO (named pipe), not a regular file" });
  });

  test("a directory is refused", async () => {
    const dir = await tempDir();
    const got = await readBounded(streams(dir), ".");
    expect(got._unsafeUnwrapErr().kind).toBe("not-regular");
  });

  test("/dev/zero (where it exists) is refused without reading it", async () => {
    if (!fs.existsSync("/dev/zero")) return;
    const got = await readBounded(streams("/"), "/dev/zero");
    expect(got._unsafeUnwrapErr()).toMatchObject({ kind: "not-regular", reason: "it is a character device, not a regular file" });
  });

  test("standard input past the limit is refused, and reading stops there", async () => {
    let pulled = 0;
    const endless = (async function* () {
      for (;;) {
        pulled += 1;
        yield new Uint8Array(1024);
      }
    })();
    const got = await readBounded(streams("/"), "-", { maxBytes: 10_000 });
    expect(got.isOk()).toBe(true);
    const refused = await readBounded(streams("/", endless), "-", { maxBytes: 10_000 });
    expect(refused._unsafeUnwrapErr()).toMatchObject({ kind: "too-large", name: "standard input" });
    expect(pulled).toBe(10);
  });

  test("standard input that is a directory (its fstat, as `sealedProcess` reads it) is refused before it is read", async () => {
    const dir = await tempDir();
    fs.writeFileSync(join(dir, "plan"), "rows");
    let pulled = 0;
    const counted = (async function* () {
      pulled += 1;
      yield "rows";
    })();
    const io = { ...streams(dir, counted), stdinStat: () => fs.statSync(dir) };
    expect((await readBounded(io, "-"))._unsafeUnwrapErr()).toEqual({
      kind: "not-regular",
      name: "standard input",
      reason: "it is a directory, not a file or a stream",
    });
    expect(pulled).toBe(0);
    const file = { ...streams(dir, counted), stdinStat: () => fs.statSync(join(dir, "plan")) };
    expect(new TextDecoder().decode((await readBounded(file, "-"))._unsafeUnwrap())).toBe("rows");
  });

  test("a name ending in `/`, `/.` or `/..` names a directory: refused as typed, even where a file of the name is", async () => {
    const dir = await tempDir();
    fs.writeFileSync(join(dir, "a.txt"), "hello");
    for (const [typed, ending] of [
      ["a.txt/", "/"],
      ["a.txt/.", "/."],
      [`${join(dir, "a.txt")}/..`, "/.."],
    ] as const) {
      expect((await readBounded(streams(dir), typed))._unsafeUnwrapErr()).toEqual({
        kind: "not-regular",
        name: typed,
        reason: `its name ends with "${ending}", so it names a directory, not a regular file`,
      });
    }
    expect((await readBounded(streams(dir), ".a.txt"))._unsafeUnwrapErr().reason).toBe("no such file or directory");
  });

  test("the name is handed to the system as typed, not folded first: `missing/../a.txt` is ENOENT, as `cat` says", async () => {
    const dir = await tempDir();
    fs.writeFileSync(join(dir, "a.txt"), "hello");
    expect((await readBounded(streams(dir), "missing/../a.txt"))._unsafeUnwrapErr()).toEqual({
      kind: "unreadable",
      name: "missing/../a.txt",
      reason: "no such file or directory",
    });
    fs.mkdirSync(join(dir, "sub"));
    expect((await readBounded(streams(dir), "sub/../a.txt")).isOk()).toBe(true);
    expect((await readBounded(streams(join(dir, "sub")), "../a.txt")).isOk()).toBe(true);
  });

  test("a missing file whose name holds U+FFFD is said to have a name that is not valid UTF-8; a real file of that name is read", async () => {
    const dir = await tempDir();
    // A file whose name is the byte 0xff: Node hands the CLI "\ufffd.md" for it, which names no file.
    fs.writeFileSync(Buffer.from(`${dir}/\xff.md`, "latin1"), "x");
    const got = await readBounded(streams(dir), "\ufffd.md");
    expect(got._unsafeUnwrapErr()).toEqual({ kind: "unreadable", name: "\ufffd.md", reason: expect.stringMatching(/^no such file: .*not valid UTF-8/) });
    fs.writeFileSync(join(dir, "\ufffd.md"), "y");
    expect(new TextDecoder().decode((await readBounded(streams(dir), "\ufffd.md"))._unsafeUnwrap())).toBe("y");
    expect((await readBounded(streams(dir), "missing.md"))._unsafeUnwrapErr().reason).toBe("no such file or directory");
  });

  test("a file that is missing is unreadable, with the errno", async () => {
    const dir = await tempDir();
    const got = await readBounded(streams(dir), "nope");
    expect(got._unsafeUnwrapErr()).toEqual({ kind: "unreadable", name: "nope", reason: "no such file or directory" });
  });

  test("a file that grows after its fstat is still bounded", async () => {
    const dir = await tempDir();
    fs.writeFileSync(join(dir, "g"), "ab");
    let extra = 100;
    const growing = {
      ...fs,
      statSync: fs.statSync,
      fstatSync: fs.fstatSync,
      openSync: fs.openSync,
      closeSync: fs.closeSync,
      readSync: (fd: number, b: Uint8Array, off: number, len: number, pos: number | null) => {
        const n = fs.readSync(fd, b, off, len, pos);
        if (n > 0 || extra === 0) return n;
        const give = Math.min(len, extra);
        b.fill(120, off, off + give);
        extra -= give;
        return give;
      },
    };
    const got = await readBounded(streams(dir), "g", { maxBytes: 50, fs: growing });
    expect(got._unsafeUnwrapErr().kind).toBe("too-large");
  });
});
