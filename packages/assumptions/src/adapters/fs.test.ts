import { mkdtemp, rm } from "node:fs/promises";
import * as nodeFs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { memfs } from "memfs";
import { afterAll, describe, expect, test } from "vitest";
import { escapesTree } from "./tree-error.js";
import { memfsTree } from "./memfs.js";
import { nodeTree } from "../node/tree.js";
import { treeContract, writeSpec } from "../testing/tree-contract.js";

const made: string[] = [];
afterAll(() => Promise.all(made.map((d) => rm(d, { recursive: true, force: true }))));

treeContract("nodeTree (real temp dir)", async (spec) => {
  const dir = await mkdtemp(join(tmpdir(), "decay-tree-"));
  made.push(dir);
  writeSpec(nodeFs, dir, spec);
  return nodeTree(dir);
});

treeContract("memfsTree (memfs volume)", async (spec) => {
  const { fs } = memfs();
  writeSpec(fs, "/repo", spec);
  return memfsTree(fs, "/repo");
});

test("a directory the reader may not open is tree-io naming it, never not-found", async () => {
  const { fs } = memfs({ "/t/locked/a.txt": "hi" });
  fs.chmodSync("/t/locked", 0);
  const err = (await memfsTree(fs, "/t").list("locked"))._unsafeUnwrapErr();
  expect(err).toMatchObject({ code: "tree-io", path: "locked" });
  expect(err.message).toContain("EACCES");
  expect(err.message).toContain("locked");
});

test("after the root is listed, a link in it is still refused as a directory, and a real directory is listed", async () => {
  const { fs } = memfs({ "/t/dir/a.txt": "hi", "/t/elsewhere/b.txt": "x" });
  fs.symlinkSync("elsewhere", "/t/link");
  const tree = memfsTree(fs, "/t");
  const root = (await tree.list(""))._unsafeUnwrap();
  expect(root.map((e) => [e.name, e.type]).sort()).toEqual([
    ["dir", "directory"],
    ["elsewhere", "directory"],
    ["link", "symlink"],
  ]);
  expect((await tree.list("link"))._unsafeUnwrapErr()).toMatchObject({ code: "tree-not-a-directory", path: "link" });
  expect((await tree.list("dir"))._unsafeUnwrap().map((e) => e.name)).toEqual(["a.txt"]);
});

test("a tree message quotes a path as every message does: at most 80 characters, invisible ones shown", async () => {
  const { fs } = memfs({ "/t/a.txt": "hi" });
  const long = `${"deep/".repeat(60)}gone.txt`;
  const missing = (await memfsTree(fs, "/t").read(long, 100))._unsafeUnwrapErr();
  expect(missing).toMatchObject({ code: "tree-not-found", path: long });
  expect(missing.message).toMatch(new RegExp(`^"${"deep/".repeat(16)}"… \\(${long.length} characters\\) does not exist`));
  const hidden = (await memfsTree(fs, "/t").read("a\u200b.txt", 100))._unsafeUnwrapErr();
  expect(hidden.message).toMatch(/^"a<U\+200B>\.txt" does not exist/);
});

describe("escapesTree", () => {
  test("property: a path leaves the tree exactly when it is absolute or has a `..` component", () => {
    const part = fc.constantFrom("", ".", "..", "...", "a", "..a", "a..", ".a.", "b/c");
    fc.assert(
      fc.property(fc.array(part, { minLength: 1, maxLength: 6 }), (parts) => {
        const path = parts.join("/");
        expect(escapesTree(path)).toBe(path.startsWith("/") || path.split("/").includes(".."));
      }),
      { numRuns: 3000 },
    );
  });
});
