import * as nodeFs from "node:fs";
import type { TreeReader } from "../tree.js";
import { type FsTreeOptions, fsTree } from "./fs.js";

/** A TreeReader over the real filesystem, rooted at the directory `root`. */
export function nodeTree(root: string, opts: FsTreeOptions = {}): TreeReader {
  return fsTree(nodeFs, root, opts);
}
