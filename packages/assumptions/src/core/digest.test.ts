import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import { digestPath, digestText } from "./digest.js";
import { fixtureTree } from "../../test/support/fixture-tree.js";

const utf8 = (text: string) => new TextEncoder().encode(text);
const sha = (text: string) => createHash("sha256").update(text).digest("hex");

describe("digestText", () => {
  test("plain ASCII is the SHA-256 of its bytes", () => {
    expect(digestText(utf8("def charge(x):\n"))._unsafeUnwrap()).toBe(sha("def charge(x):\n"));
  });
  test("CRLF, lone CR, a BOM and NFD all digest as the normalised text", () => {
    const want = sha("caf\u00e9\nline\n");
    for (const variant of ["caf\u00e9\r\nline\r\n", "caf\u00e9\rline\r", "\uFEFFcaf\u00e9\nline\n", "cafe\u0301\nline\n"]) {
      expect(digestText(utf8(variant))._unsafeUnwrap()).toBe(want);
    }
  });
  test("ASCII with CR takes the normalising path too", () => {
    expect(digestText(utf8("a\r\nb"))._unsafeUnwrap()).toBe(sha("a\nb"));
  });
  test("bytes that are not UTF-8 are a fault", () => {
    expect(digestText(new Uint8Array([0x61, 0xc3]))._unsafeUnwrapErr()).toMatchObject({ code: "file-not-utf8" });
  });
});

describe("digestPath", () => {
  const { tree } = fixtureTree({ "src/a.py": "x = 1\r\n", "src/b/c.txt": "" }, { "src/link.py": "a.py" });
  test("digests the file's normalised text, through an in-root link too", async () => {
    expect((await digestPath({ tree, path: "./src/a.py" }))._unsafeUnwrap()).toBe(sha("x = 1\n"));
    expect((await digestPath({ tree, path: "src/link.py" }))._unsafeUnwrap()).toBe(sha("x = 1\n"));
  });
  test("a missing path, a variant spelling, a directory and a bad path are faults", async () => {
    expect((await digestPath({ tree, path: "src/z.py" }))._unsafeUnwrapErr()).toMatchObject({ code: "tree-not-found", path: "src/z.py" });
    const variant = (await digestPath({ tree, path: "SRC/a.py" }))._unsafeUnwrapErr();
    expect(variant).toMatchObject({ code: "tree-not-found", message: expect.stringContaining("src/a.py") });
    expect((await digestPath({ tree, path: "src/b" }))._unsafeUnwrapErr()).toMatchObject({ code: "not-a-file", entry: "directory" });
    expect((await digestPath({ tree, path: "src/b/" }))._unsafeUnwrapErr()).toMatchObject({ code: "path-directory-for-file" });
    expect((await digestPath({ tree, path: "../x" }))._unsafeUnwrapErr()).toMatchObject({ code: "path-dotdot" });
  });
  test("a file over maxBytes is refused", async () => {
    expect((await digestPath({ tree, path: "src/a.py", maxBytes: 2 }))._unsafeUnwrapErr()).toMatchObject({ code: "tree-too-large" });
  });
});
