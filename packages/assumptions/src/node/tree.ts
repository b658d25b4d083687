import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readlinkSync, readSync } from "node:fs";
import type { TreeReader } from "../tree.js";
import type { TreeFs } from "../adapters/fs-calls.js";
import { type FsTreeOptions, fsTree } from "../adapters/fs.js";
import { nodeSha256Hex } from "./hashes.js";

// The calls the adapter makes, in a plain object: a bundled `import * as fs` puts a getter in
// front of every call.
const NODE_FS: TreeFs = { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readlinkSync, readSync };

/** A TreeReader over the real filesystem, rooted at the directory `root`; it hashes with `node:crypto`. */
export function nodeTree(root: string, opts: FsTreeOptions = {}): TreeReader {
  return { ...fsTree(NODE_FS, root, opts), sha256Hex: nodeSha256Hex };
}
