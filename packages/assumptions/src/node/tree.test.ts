import { execFileSync } from "node:child_process";
import { symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { sha256Hex } from "@decay/portable";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { digestPath } from "../core/digest.js";
import { nodeTree } from "./tree.js";
import { scratchDir } from "../../test/support/test-fixtures.js";

describe("nodeTree beyond the contract: what only a real filesystem holds", () => {
  test("a FIFO lists as other and is refused without a blocking read", async () => {
    const dir = await scratchDir();
    execFileSync("mkfifo", [join(dir, "pipe")]);
    const tree = nodeTree(dir);
    expect((await tree.list(""))._unsafeUnwrap()).toEqual([{ name: "pipe", type: "other" }]);
    // No writer ever opens the FIFO: a blocking open or read would hang this test forever.
    expect((await tree.read("pipe", 100))._unsafeUnwrapErr()).toMatchObject({ code: "tree-not-a-file", path: "pipe" });
  });

  test("a socket lists as other and is refused", async () => {
    const dir = await scratchDir();
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(join(dir, "sock"), resolve));
    try {
      const tree = nodeTree(dir);
      expect((await tree.list(""))._unsafeUnwrap()).toEqual([{ name: "sock", type: "other" }]);
      expect((await tree.read("sock", 100))._unsafeUnwrapErr().code).toBe("tree-not-a-file");
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test("a name whose bytes are not UTF-8 is a tree-io failure, never a guessed spelling", async () => {
    const dir = await scratchDir();
    writeFileSync(Buffer.concat([Buffer.from(`${dir}/bad-`), Buffer.from([0xff, 0xfe])]), "x");
    const err = (await nodeTree(dir).list(""))._unsafeUnwrapErr();
    expect(err).toMatchObject({ code: "tree-io", path: "" });
    expect(err.message).toContain("not UTF-8");
  });

  test("a name that really holds U+FFFD is listed as spelled; only undecodable bytes are refused", async () => {
    const dir = await scratchDir();
    writeFileSync(join(dir, "odd-\uFFFD.txt"), "x");
    writeFileSync(join(dir, "plain.txt"), "y");
    const names = (await nodeTree(dir).list(""))._unsafeUnwrap().map((e) => e.name);
    expect(names.sort()).toEqual(["odd-\uFFFD.txt", "plain.txt"]);
    expect((await nodeTree(dir).read("odd-\uFFFD.txt", 10))._unsafeUnwrap()).toEqual(new Uint8Array([120]));
  });

  test("a link loop in the middle of a path is an I/O failure, not a claim about the last entry", async () => {
    const dir = await scratchDir();
    symlinkSync("loop", join(dir, "loop"));
    const err = (await nodeTree(dir).read("loop/a.txt", 100))._unsafeUnwrapErr();
    expect(err).toMatchObject({ code: "tree-io", path: "loop/a.txt" });
    expect(err.message).toContain("ELOOP");
  });

  test("a link to a directory outside the root is reported as a link, not listed through", async () => {
    const dir = await scratchDir();
    symlinkSync("/etc", join(dir, "out"));
    const tree = nodeTree(dir, { describe: "the checkout" });
    expect(tree.describe).toBe("the checkout");
    expect((await tree.list(""))._unsafeUnwrap()).toEqual([{ name: "out", type: "symlink" }]);
    expect((await tree.readLink("out"))._unsafeUnwrap()).toBe("/etc");
    expect((await tree.read("out", 100))._unsafeUnwrapErr().code).toBe("tree-not-a-file");
  });

  test("describe defaults to the root exactly as given", async () => {
    const dir = await scratchDir();
    expect(nodeTree(`${dir}/`).describe).toBe(`${dir}/`);
    expect((await nodeTree(`${dir}/`).list(""))._unsafeUnwrap()).toEqual([]);
  });
});

describe("nodeTree hashes with node:crypto", () => {
  test("property: its SHA-256 equals the portable one the core falls back to, so a digest never depends on the adapter", () => {
    const tree = nodeTree(".");
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 4096 }), (bytes) => {
        expect(tree.sha256Hex?.(bytes)).toBe(sha256Hex(bytes));
      }),
    );
  });

  test("an unchanged row digested through nodeTree and through memfs holds on the same digest", async () => {
    const dir = await scratchDir();
    writeFileSync(join(dir, "a.txt"), "é\r\nline\n");
    const viaNode = await digestPath({ tree: nodeTree(dir), path: "a.txt" });
    const viaPortable = await digestPath({ tree: { ...nodeTree(dir), sha256Hex: undefined }, path: "a.txt" });
    expect(viaNode._unsafeUnwrap()).toEqual(viaPortable._unsafeUnwrap());
  });
});
