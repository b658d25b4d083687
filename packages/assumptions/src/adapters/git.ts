import type { TreeEntry } from "isomorphic-git";
import { errAsync, ok, okAsync, type Result, ResultAsync } from "neverthrow";
import type { DirEntry, EntryType, TreeError, TreeReader } from "../tree.js";
import { type GitFs, gitCall, locateRepository, objectProblem } from "./git-repo.js";

import { resolveCommit } from "./git-resolve.js";
import { type Found, type GitObjects, linkText, MODE_LINK, MODE_TREE, walk } from "./git-walk.js";
import { guardedFs } from "./git-guard.js";
import { DEFAULT_LIMITS, gitError, type ObjectReader, type ObjectType, openStore } from "./git-store.js";
import type { Inflate, Sha1Hex } from "./git-natives.js";
import { blobMemo, keepBlob } from "./git-blobs.js";
import { parseTree } from "./git-tree.js";
import { escapesTree, joinTree, treeError } from "./tree-error.js";
import { isByteBound } from "../core/read.js";

/** The git mode of a gitlink (a submodule's commit). */
const MODE_GITLINK = "160000";

/** Options of `gitTree`: the filesystem, the repository's working directory, the ref to read. */
export interface GitTreeOptions {
  readonly fs: GitFs;
  /** The worktree directory (holding `.git`: a directory, or a linked worktree's file) or a bare repository. */
  readonly dir: string;
  /**
   * `HEAD`, a branch or tag name, a full ref, or a commit id of 4 to 40 hex digits, optionally
   * followed by a chain of `~N`, `~`, `^`, `^N` (see docs/tree-reader.md); other syntax is refused.
   */
  readonly ref: string;
  /** How the tree names itself in reports; defaults to `<ref> in <dir>`. */
  readonly describe?: string;
  /** The largest git object read, by the size its header declares (default 64 MiB); checked before inflating. */
  readonly maxObjectBytes?: number;
  /**
   * The largest repository file read whole (a pack index, a ref, a loose object; default 2 GiB - 1).
   * A pack over it, or over 128 MiB, is read an entry at a time where `fs` has synchronous calls.
   */
  readonly maxFileBytes?: number;
  /**
   * How each object read is checked against its id: the SHA-1 of the parts, in lowercase hex.
   * Absent: the portable implementation. In Node, `nodeSha1Hex` from `@decay/assumptions/node`
   * (node:crypto) does the same several times faster.
   */
  readonly sha1Hex?: Sha1Hex;
  /**
   * A faster zlib inflater, tried first on each object (see `Inflate`); the portable one decides
   * whenever it gives no answer. In Node, `nodeInflate` from `@decay/assumptions/node` (node:zlib).
   */
  readonly inflate?: Inflate;
  /** The reader's `sha256Hex` face (see `TreeReader`); in Node, `nodeSha256Hex` from `@decay/assumptions/node`. */
  readonly sha256Hex?: (bytes: Uint8Array) => string;
}

/** Default `maxObjectBytes`: 64 MiB, the gate's own bound on one file. */
export const DEFAULT_MAX_OBJECT_BYTES = DEFAULT_LIMITS.maxObjectBytes;
/** Default `maxFileBytes`: the largest file isomorphic-git reads whole. */
export const DEFAULT_MAX_FILE_BYTES = DEFAULT_LIMITS.maxFileBytes;

function typeOfMode(mode: string): EntryType {
  if (mode === MODE_TREE) return "directory";
  if (mode === MODE_LINK) return "symlink";
  if (mode === MODE_GITLINK) return "submodule";
  return mode.startsWith("100") ? "file" : "other";
}

/** The id of the empty tree. A checkout makes no directory for it (git checks out files, not trees). */
const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

const isEmptyTree = (e: TreeEntry): boolean => e.mode === MODE_TREE && e.oid === EMPTY_TREE;

/** A tree's entries as a checkout has them: an empty subtree is nothing there. Most trees hold none: no copy. */
function checkedOut(entries: readonly TreeEntry[]): readonly TreeEntry[] {
  return entries.some(isEmptyTree) ? entries.filter((e) => !isEmptyTree(e)) : entries;
}

/** One isomorphic-git object read on behalf of `path`; any failure is `tree-io` there, naming the object. */
function call<T>(path: string, oid: string, gitdir: string, run: () => Promise<T>): ResultAsync<T, TreeError> {
  return gitCall(run, (e) => treeError("tree-io", path, objectProblem(e, oid, gitdir)));
}

/** Up to this many entries a tree is searched in place; a larger one is indexed by name once. */
const FEW = 16;

/** Object reads bound to one repository, with trees cached by object id (each as a checkout has it: see `checkedOut`). */
function objectsOf(load: ObjectReader, gitdir: string): GitObjects {
  const trees = new Map<string, ResultAsync<readonly TreeEntry[], TreeError>>();
  const read = new Map<string, readonly TreeEntry[]>();
  // Each tree's entries by name, made on the first lookup in a tree of more than a few: a walk
  // through a directory of 100,000 entries must not compare them all for every row.
  const byName = new Map<string, ReadonlyMap<string, TreeEntry>>();
  const blobs = blobMemo();
  const typed = (oid: string, type: ObjectType) =>
    load(oid).then((o) => {
      if (o.type !== type) throw gitError("InternalError", `Object ${oid} was anticipated to be a ${type} but it is a ${o.type}.`);
      return o.content;
    });
  return {
    entries: (oid, path) => {
      const known = trees.get(oid);
      if (known !== undefined) return known;
      const got = call(path, oid, gitdir, () => typed(oid, "tree").then((content) => parseTree(content, oid, path))).map((parsed) => {
        const entries = checkedOut(parsed);
        read.set(oid, entries);
        return entries;
      });
      trees.set(oid, got);
      return got;
    },
    named: (oid, name) => {
      const entries = read.get(oid);
      if (entries === undefined || entries.length <= FEW) return entries?.find((e) => e.path === name);
      let index = byName.get(oid);
      if (index === undefined) byName.set(oid, (index = new Map(entries.map((e) => [e.path, e]))));
      return index.get(name);
    },
    blob: (oid, path) => {
      const kept = blobs.bytes.get(oid);
      if (kept !== undefined) return okAsync(new Uint8Array(kept));
      return call(path, oid, gitdir, () => typed(oid, "blob")).map((bytes) => keepBlob(blobs, oid, bytes));
    },
    dirs: new Map(),
  };
}

function notA(code: "tree-not-a-file" | "tree-not-a-directory", path: string, found: Found): TreeError {
  if (found.kind === "root" || found.entry.mode === MODE_TREE) return treeError(code, path, "a directory");
  if (found.entry.mode === MODE_LINK) return treeError(code, path, "a symbolic link");
  return treeError(code, path, found.entry.mode.startsWith("100") ? "a file" : "a submodule (gitlink)");
}

/**
 * Whether a checkout makes no directory for a tree: all it holds, at any depth, is trees (an empty
 * subtree is dropped as read, so one holding only those holds nothing). A tree holding a file, a
 * link or a gitlink answers at once; only one of trees alone is read further, until a tree below
 * holds something.
 */
async function hollow(
  objects: GitObjects,
  oid: string,
  path: string,
  judged: Map<string, Promise<Result<boolean, TreeError>>>,
): Promise<Result<boolean, TreeError>> {
  const known = judged.get(oid);
  if (known !== undefined) return known;
  const answer = (async (): Promise<Result<boolean, TreeError>> => {
    const listed = await objects.entries(oid, path);
    if (listed.isErr() || listed.value.some((e) => e.mode !== MODE_TREE)) return listed.map(() => false);
    for (const e of listed.value) {
      const below = await hollow(objects, e.oid, joinTree(path, e.path), judged);
      if (below.isErr() || !below.value) return below;
    }
    return ok(true);
  })();
  // Each tree is judged once: a chain of trees alone, listed level by level, is walked once in all.
  judged.set(oid, answer);
  return answer;
}

function listFound(
  objects: GitObjects,
  found: Found,
  path: string,
  judged: Map<string, Promise<Result<boolean, TreeError>>>,
): ResultAsync<readonly DirEntry[], TreeError> {
  const oid = found.kind === "root" ? found.oid : found.entry.mode === MODE_TREE ? found.entry.oid : undefined;
  if (oid === undefined) return errAsync(notA("tree-not-a-directory", path, found));
  const listed = objects.entries(oid, path).map((entries) => entries.map((e): DirEntry => ({ name: e.path, type: typeOfMode(e.mode) })));
  if (found.kind === "root") return listed;
  // A subtree a checkout would not make (trees of empty trees, made by hand) was listed by its
  // parent as a directory; the parent cannot tell without reading it, so it is refused here, where
  // the gate always looks before taking a directory as there.
  return listed.andThen((entries) =>
    entries.some((e) => e.type !== "directory")
      ? okAsync(entries)
      : new ResultAsync(hollow(objects, oid, path, judged)).andThen((none) =>
          none ? errAsync(treeError("tree-io", path, `it holds only empty trees (${oid}): a checkout makes no directory there`)) : okAsync(entries),
        ),
  );
}

function readFound(objects: GitObjects, found: Found, path: string, maxBytes: number): ResultAsync<Uint8Array, TreeError> {
  if (found.kind === "root" || typeOfMode(found.entry.mode) !== "file") return errAsync(notA("tree-not-a-file", path, found));
  return objects
    .blob(found.entry.oid, path)
    .andThen((bytes) => (bytes.length > maxBytes ? errAsync(treeError("tree-too-large", path, `${maxBytes} bytes`)) : okAsync(bytes)));
}

function readLinkFound(objects: GitObjects, found: Found, path: string): ResultAsync<string, TreeError> {
  if (found.kind === "root" || found.entry.mode !== MODE_LINK) {
    return errAsync(treeError("tree-not-a-file", path, "not a symbolic link"));
  }
  return objects.blob(found.entry.oid, path).andThen((bytes) => linkText(bytes, path));
}

/**
 * Why a size limit option is no bound (`NaN`, `0`, a fraction, a string would turn a check off or
 * make every read fail), or null when it is left out or a positive integer.
 */
function limitIssue(option: string, value: unknown): string | null {
  if (value === undefined || isByteBound(value)) return null;
  return `gitTree option ${option} must be a positive integer number of bytes, not ${typeof value === "number" ? String(value) : typeof value}`;
}

/**
 * A TreeReader over one commit of a git repository, read from its object store without a
 * checkout (refs read by `git-refs.ts`, every object read and checked against its id by `git-store.ts`):
 * `HEAD` (of the worktree at `dir`, linked worktrees included) or a sibling's branch.
 * Modes give types: 040000 directory, 100644/100755 (and 100664, as git reads it) file, 120000 symlink, 160000 gitlink → submodule.
 * The ref (`HEAD~2^2`, `main~1`, an abbreviated id, …) is resolved once, on first use; a ref that
 * names no commit, or syntax outside what `resolveRev` reads, is a `tree-not-found` naming the ref.
 * A `maxObjectBytes` or `maxFileBytes` that is not a positive integer makes every call a
 * `tree-io` fault naming the option, never a read without its bound.
 */
export function gitTree(opts: GitTreeOptions): TreeReader {
  const { dir, ref } = opts;
  const maxObjectBytes = opts.maxObjectBytes ?? DEFAULT_MAX_OBJECT_BYTES;
  const limits = { maxObjectBytes, maxFileBytes: opts.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES };
  const fs = guardedFs(opts.fs, limits);
  const badLimit = limitIssue("maxObjectBytes", opts.maxObjectBytes) ?? limitIssue("maxFileBytes", opts.maxFileBytes);
  let start: ResultAsync<{ objects: GitObjects; root: string }, TreeError> | undefined;
  // Which trees a checkout makes no directory for (`hollow`), judged once each.
  const hollowTrees = new Map<string, Promise<Result<boolean, TreeError>>>();
  const begin = () =>
    (start ??= (badLimit === null ? okAsync<void, TreeError>(undefined) : errAsync<void, TreeError>(treeError("tree-io", "", badLimit)))
      .andThen(() => locateRepository(fs, dir))
      .andThen((layout) => {
        // One object store for the whole tree: the commits and tags the ref passes through (each
        // checked against its id, as git's parse_object checks it), and every tree and blob read after.
        const read = openStore(opts.fs, joinTree(layout.commondir, "objects"), limits, {
          ...(opts.sha1Hex && { sha1Hex: opts.sha1Hex }),
          ...(opts.inflate && { inflate: opts.inflate }),
        });
        const objects = objectsOf(read, layout.commondir);
        return resolveCommit({ fs, layout, ref, cache: {}, read }).map((commit) => ({ objects, root: commit.tree }));
      }));
  const at = <T>(path: string, then: (objects: GitObjects, found: Found) => ResultAsync<T, TreeError>) =>
    escapesTree(path)
      ? errAsync<T, TreeError>(treeError("tree-io", path, "the path leaves the tree"))
      : begin().andThen(({ objects, root }) => new ResultAsync(walk(objects, root, path)).andThen((found) => then(objects, found)));
  const tree: TreeReader = {
    describe: opts.describe ?? `${ref} in ${dir}`,
    list: (path) => at(path, (objects, found) => listFound(objects, found, path, hollowTrees)),
    read: (path, maxBytes) => at(path, (objects, found) => readFound(objects, found, path, maxBytes)),
    readLink: (path) => at(path, (objects, found) => readLinkFound(objects, found, path)),
  };
  return opts.sha256Hex === undefined ? tree : { ...tree, sha256Hex: opts.sha256Hex };
}
