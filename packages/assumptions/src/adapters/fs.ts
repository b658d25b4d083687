import { err, ok, type Result, ResultAsync } from "neverthrow";
import type { DirEntry, EntryType, TreeError, TreeReader } from "../tree.js";
import { attempt, type DirentLike, type TreeFs, statKind } from "./fs-calls.js";
import { readFile } from "./fs-read.js";
import { decodeName, escapesTree, joinTree, quotedBytes, treeError } from "./tree-error.js";

export type { DirentLike, StatsLike, TreeFs } from "./fs-calls.js";

/** Options shared by `nodeTree` and `memfsTree`. */
export interface FsTreeOptions {
  /** How the tree names itself in reports; defaults to the root as given. */
  readonly describe?: string;
  /**
   * Read a checked-out submodule (a nested repository: a directory other than the root that
   * holds `.git`) as ordinary directories instead of refusing it as a `submodule` fault.
   * Default `false`.
   */
  readonly descendSubmodules?: boolean;
}

// The answer is already known: one settled promise, not a chain of them.
function later<T>(result: Result<T, TreeError>): ResultAsync<T, TreeError> {
  return new ResultAsync(Promise.resolve(result));
}

function entryType(d: DirentLike): EntryType {
  if (d.isSymbolicLink()) return "symlink";
  if (d.isDirectory()) return "directory";
  return d.isFile() ? "file" : "other";
}

function nameOf(raw: Uint8Array | string): string | undefined {
  return typeof raw === "string" ? raw : decodeName(raw);
}

/** U+FFFD: what a lenient UTF-8 decoding puts where a name's bytes are not UTF-8. */
const REPLACEMENT = "\uFFFD";

/** Entries as listed; `suspect` when a name holds U+FFFD (a lenient decoding may have put it there). */
type Listed = { readonly entries: readonly DirEntry[]; readonly suspect: boolean };

function toEntries(path: string, dirents: readonly (DirentLike | string | Uint8Array)[]): Result<Listed, TreeError> {
  const entries: DirEntry[] = new Array(dirents.length);
  let suspect = false;
  for (let i = 0; i < dirents.length; i += 1) {
    const d = dirents[i] as DirentLike | string | Uint8Array;
    if (typeof d === "string" || d instanceof Uint8Array) {
      return err(treeError("tree-io", path, "the filesystem listed names without their types"));
    }
    const name = nameOf(d.name);
    // Only bytes fail to decode; the name is shown as git quotes one, so it can be found.
    if (name === undefined) return err(treeError("tree-io", path, `an entry's name is not UTF-8: "${quotedBytes(d.name as Uint8Array)}"`));
    if (name.includes(REPLACEMENT)) suspect = true;
    entries[i] = { name, type: entryType(d) };
  }
  return ok({ entries, suspect });
}

/** Lists a directory; a path naming a link (other than the root itself) is not listed through. */
function listDir(fs: TreeFs, abs: string, path: string): Result<readonly DirEntry[], TreeError> {
  const checked: Result<unknown, TreeError> =
    path === ""
      ? ok(undefined)
      : attempt("list", path, () => fs.lstatSync(abs)).andThen((stat) =>
          stat.isDirectory() ? ok(undefined) : err(treeError("tree-not-a-directory", path, statKind(stat))),
        );
  return checked
    .andThen(() => attempt("list", path, () => fs.readdirSync(abs, { withFileTypes: true })))
    .andThen((dirents) => toEntries(path, dirents).andThen((listed) => (listed.suspect ? listStrictly(fs, abs, path) : ok(listed.entries))));
}

/**
 * Lists again with names as bytes, decoded strictly: taken only when a leniently decoded name
 * holds U+FFFD, which is either a real U+FFFD or bytes that are not UTF-8 (refused). Decoding
 * 100,000 names as bytes costs more than the listing itself, so it is never the first try.
 */
function listStrictly(fs: TreeFs, abs: string, path: string): Result<readonly DirEntry[], TreeError> {
  return attempt("list", path, () => fs.readdirSync(abs, { encoding: "buffer", withFileTypes: true })).andThen((dirents) =>
    toEntries(path, dirents).map((listed) => listed.entries),
  );
}

function readLink(fs: TreeFs, abs: string, path: string): Result<string, TreeError> {
  return attempt("readLink", path, () => fs.readlinkSync(abs, { encoding: "buffer" })).andThen((raw) => {
    const target = nameOf(raw);
    return target === undefined ? err(treeError("tree-io", path, "the link target is not UTF-8")) : ok(target);
  });
}

function guarded<T>(path: string, run: () => Result<T, TreeError>): Result<T, TreeError> {
  return escapesTree(path) ? err(treeError("tree-io", path, "the path leaves the tree")) : run();
}

/**
 * A TreeReader over any node:fs-shaped object rooted at `root` (the one body behind
 * `nodeTree` and `memfsTree`). Lists by lstat type, never reads a non-regular file, never
 * reads more than `maxBytes + 1` bytes. Every call is synchronous underneath, answered through an
 * already settled promise: one call at a time is all it can use (`inFlight: 1`).
 */
export function fsTree(fs: TreeFs, root: string, opts: FsTreeOptions = {}): TreeReader {
  const abs = (path: string): string => joinTree(root, path);
  const tree: TreeReader = {
    describe: opts.describe ?? root,
    inFlight: 1,
    list: (path) => later(guarded(path, () => listDir(fs, abs(path), path))),
    read: (path, maxBytes) => later(guarded(path, () => readFile(fs, { abs: abs(path), path, maxBytes }))),
    readLink: (path) => later(guarded(path, () => readLink(fs, abs(path), path))),
  };
  return opts.descendSubmodules === true ? { ...tree, descendsSubmodules: true } : tree;
}
