import * as crypto from "node:crypto";
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readlinkSync, readSync } from "node:fs";
import type { TreeReader } from "../tree.js";
import type { TreeFs } from "../adapters/fs-calls.js";
import { type FsTreeOptions, fsTree } from "../adapters/fs.js";

// The calls the adapter makes, in a plain object: a bundled `import * as fs` puts a getter in
// front of every call.
const NODE_FS: TreeFs = { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readlinkSync, readSync };

// The one-shot `crypto.hash` (Node 20.12 on) skips a Hash object per file; older Node 20 has only `createHash`.
const oneShot: typeof crypto.hash | undefined = crypto.hash;
const sha256Hex: (bytes: Uint8Array) => string =
  typeof oneShot === "function" ? (bytes) => oneShot("sha256", bytes, "hex") : (bytes) => crypto.createHash("sha256").update(bytes).digest("hex");

/** A TreeReader over the real filesystem, rooted at the directory `root`; it hashes with `node:crypto`. */
export function nodeTree(root: string, opts: FsTreeOptions = {}): TreeReader {
  return { ...fsTree(NODE_FS, root, opts), sha256Hex };
}
