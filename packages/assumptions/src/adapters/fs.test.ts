import { mkdtemp, rm } from "node:fs/promises";
import * as nodeFs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memfs } from "memfs";
import { afterAll, expect, test } from "vitest";
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
