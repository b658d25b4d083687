import type { TreeReader } from "../tree.js";
import { type TreeFs, type FsTreeOptions, fsTree } from "./fs.js";

/**
 * A TreeReader over any node:fs-shaped object, typically a memfs volume
 * (`memfs().fs` or `createFsFromVolume(vol)`), rooted at `root`. memfs is never imported here.
 */
export function memfsTree(fs: TreeFs, root: string, opts: FsTreeOptions = {}): TreeReader {
  return fsTree(fs, root, opts);
}
