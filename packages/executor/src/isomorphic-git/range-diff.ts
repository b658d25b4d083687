// The difference between two commits, as `git diff --numstat` counts it and `git diff` prints it
// (no rename detection, no textconv, no attributes). Runtime-neutral.
import { readBlob } from "isomorphic-git";
import type { DiffStats } from "../ports.js";
import { diffTrees, type Leaf, mustCommit, type Repo } from "./objects.js";
import { countFile, type FileSide, patchFile, splitTypeChange } from "./patch.js";

const encoder = new TextEncoder();

/** A leaf's bytes: a blob's, or for a gitlink (a submodule's commit) the line git diffs in its place. */
async function sideOf(r: Repo, leaf: Leaf | undefined): Promise<FileSide | undefined> {
  if (leaf === undefined) return undefined;
  const bytes = leaf.mode === "160000" ? encoder.encode(`Subproject commit ${leaf.oid}\n`) : (await readBlob({ ...r, oid: leaf.oid })).blob;
  return { ...leaf, bytes };
}

/** The counts of `from..to`; with `onPatch`, instead, the patch, handed out file by file. */
export async function diffRange(r: Repo, from: string, to: string, onPatch?: (patch: Uint8Array) => void): Promise<DiffStats> {
  const [a, b] = await Promise.all([mustCommit(r, from), mustCommit(r, to)]);
  let insertions = 0;
  let deletions = 0;
  const paths: string[] = [];
  for (const change of await diffTrees(r, a.tree, b.tree)) {
    const [before, after] = await Promise.all([sideOf(r, change.before), sideOf(r, change.after)]);
    if (onPatch) {
      // The patch of a type change is a deletion and an addition; its count is one file's.
      for (const [x, y] of splitTypeChange(before, after)) onPatch(patchFile(change.path, x, y));
      continue;
    }
    const count = countFile(change.path, before, after);
    insertions += count.lines?.insertions ?? 0;
    deletions += count.lines?.deletions ?? 0;
    paths.push(change.path);
  }
  return { files: paths.length, insertions, deletions, paths };
}
