// Walking a tree-relative path through a commit's trees. Intermediate links are followed inside
// the commit (as the OS follows them on disk); a link leading out of the commit is refused.
import type { TreeEntry } from "isomorphic-git";
import { err, ok, type Result, type ResultAsync } from "neverthrow";
import type { TreeError } from "../tree.js";
import { decodeName, treeError } from "./tree-error.js";

/** The object reads a walk needs, bound to one repository. */
export interface GitObjects {
  entries(oid: string, path: string): ResultAsync<readonly TreeEntry[], TreeError>;
  /** The entries of a tree already read, without waiting; `undefined` when not read yet. */
  known(oid: string): readonly TreeEntry[] | undefined;
  blob(oid: string, path: string): ResultAsync<Uint8Array, TreeError>;
}

/** Where a path led: the root tree, or one entry of some tree. */
export type Found = { readonly kind: "root"; readonly oid: string } | { readonly kind: "entry"; readonly entry: TreeEntry };

/** The git mode of a directory entry and of a symbolic link. */
export const MODE_TREE = "040000";
export const MODE_LINK = "120000";

const MAX_LINK_HOPS = 40;

/** Resolves a link's target against the directory holding it; `undefined` when it leaves the root. */
export function resolveLink(dir: readonly string[], target: string): string[] | undefined {
  if (target.startsWith("/")) return undefined;
  const out = [...dir];
  for (const c of target.split("/")) {
    if (c === "" || c === ".") continue;
    if (c !== "..") out.push(c);
    else if (out.pop() === undefined) return undefined;
  }
  return out;
}

/** Decodes a link blob strictly; a target that is not UTF-8 is a tree-io failure. */
export function linkText(bytes: Uint8Array, path: string): Result<string, TreeError> {
  const text = decodeName(bytes);
  return text === undefined ? err(treeError("tree-io", path, "the link target is not UTF-8")) : ok(text);
}

/** A walk in progress: components still to follow from the directory `done` (tree `tree`). */
type Going = { next: string[]; done: string[]; tree: string; hops: number };
type Step = Going | { found: Found } | { fail: TreeError };

async function step(objects: GitObjects, root: string, path: string, at: Going): Promise<Step> {
  const [name, ...rest] = at.next;
  let entries = objects.known(at.tree);
  if (entries === undefined) {
    const listed = await objects.entries(at.tree, at.done.join("/"));
    if (listed.isErr()) return { fail: listed.error };
    entries = listed.value;
  }
  const entry = entries.find((e) => e.path === name);
  if (name === undefined || entry === undefined) return { fail: treeError("tree-not-found", path) };
  if (rest.length === 0) return { found: { kind: "entry", entry } };
  const here = [...at.done, name];
  if (entry.mode === MODE_TREE) return { next: rest, done: here, tree: entry.oid, hops: at.hops };
  if (entry.mode !== MODE_LINK) return { fail: treeError("tree-not-found", path, `"${here.join("/")}" is not a directory`) };
  const target = (await objects.blob(entry.oid, here.join("/"))).andThen((b) => linkText(b, here.join("/")));
  if (target.isErr()) return { fail: target.error };
  // An empty target leads nowhere (the kernel answers ENOENT), never to the link's own directory.
  if (target.value === "") return { fail: treeError("tree-not-found", path, `the link "${here.join("/")}" has an empty target`) };
  const resolved = resolveLink(at.done, target.value);
  if (resolved === undefined) return { fail: treeError("tree-io", path, `the link "${here.join("/")}" leads out of the tree`) };
  return { next: [...resolved, ...rest], done: [], tree: root, hops: at.hops + 1 };
}

/** Follows `path` from the root tree `root`; every component must exist under its exact spelling. */
export async function walk(objects: GitObjects, root: string, path: string): Promise<Result<Found, TreeError>> {
  let at: Step = { next: path === "" ? [] : path.split("/"), done: [], tree: root, hops: 0 };
  while ("next" in at) {
    if (at.next.length === 0) return ok({ kind: "root", oid: at.tree });
    if (at.hops > MAX_LINK_HOPS) {
      return err(treeError("tree-io", path, "too many levels of symbolic links"));
    }
    at = await step(objects, root, path, at);
  }
  return "found" in at ? ok(at.found) : err(at.fail);
}
