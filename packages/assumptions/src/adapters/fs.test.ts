import { mkdtemp, rm } from "node:fs/promises";
import * as nodeFs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memfs } from "memfs";
import { afterAll } from "vitest";
import { memfsTree } from "./memfs.js";
import { nodeTree } from "./node.js";
import { treeContract, writeSpec } from "./tree-contract.js";

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
