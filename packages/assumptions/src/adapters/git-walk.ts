// Walking a tree-relative path through a commit's trees. Intermediate links are followed inside
// the commit (as the OS follows them on disk); a link leading out of the commit is refused.
import type { TreeEntry } from "isomorphic-git";
import { err, ok, type Result, type ResultAsync } from "neverthrow";
import type { TreeError } from "../tree.js";
import { decodeName, treeError } from "./tree-error.js";

/** The object reads a walk needs, bound to one repository. */
export interface GitObjects {
  entries(oid: string, path: string): ResultAsync<readonly TreeEntry[], TreeError>;
  /** The entry named `name` in a tree `entries` has read; `undefined` when there is none (or the tree is not read yet). */
  named(oid: string, name: string): TreeEntry | undefined;
  blob(oid: string, path: string): ResultAsync<Uint8Array, TreeError>;
  /**
   * The tree of each directory a walk has passed through by its real path (reached through trees
   * alone, no link on the way), so that a later walk below it starts there, not at the root.
   */
  readonly dirs: Map<string, string>;
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

/**
 * A walk in progress: components `next[from..]` still to follow from the directory whose real
 * path is `done` (tree `tree`), `hops` links followed so far.
 */
type Going = { readonly next: readonly string[]; readonly from: number; readonly done: string; readonly tree: string; readonly hops: number };
type Step = Going | { found: Found } | { fail: TreeError };

// One component's step. A directory some walk has already passed through is taken from `dirs` at
// once; otherwise its tree is read (the only wait) and looked up by name.
function step(objects: GitObjects, root: string, path: string, at: Going): Step | Promise<Step> {
  const name = at.next[at.from] as string;
  const last = at.from === at.next.length - 1;
  const here = at.done === "" ? name : `${at.done}/${name}`;
  const passed = last ? undefined : objects.dirs.get(here);
  if (passed !== undefined) return { next: at.next, from: at.from + 1, done: here, tree: passed, hops: at.hops };
  const entry = objects.named(at.tree, name);
  if (entry !== undefined) return stepTo(objects, root, path, at, entry, here, last);
  return afterReading(objects, root, path, at, name, here, last);
}

// The step once the tree of `at` is read.
async function afterReading(objects: GitObjects, root: string, path: string, at: Going, name: string, here: string, last: boolean): Promise<Step> {
  const listed = await objects.entries(at.tree, at.done);
  if (listed.isErr()) return { fail: listed.error };
  const found = objects.named(at.tree, name);
  return found === undefined ? { fail: treeError("tree-not-found", path) } : stepTo(objects, root, path, at, found, here, last);
}

// The step onto `entry`, the component `here` names: the answer when it is the last, else into
// its tree, or through it when it is a link.
function stepTo(objects: GitObjects, root: string, path: string, at: Going, entry: TreeEntry, here: string, last: boolean): Step | Promise<Step> {
  if (entry.mode === MODE_TREE) {
    objects.dirs.set(here, entry.oid);
    if (!last) return { next: at.next, from: at.from + 1, done: here, tree: entry.oid, hops: at.hops };
  }
  if (last) return { found: { kind: "entry", entry } };
  if (entry.mode !== MODE_LINK) return { fail: treeError("tree-not-found", path, `"${here}" is not a directory`) };
  return through(objects, root, path, at, entry, here);
}

// Through the link `entry` (named by `here`): the walk starts again at the root, at its target.
async function through(objects: GitObjects, root: string, path: string, at: Going, entry: TreeEntry, here: string): Promise<Step> {
  const target = (await objects.blob(entry.oid, here)).andThen((b) => linkText(b, here));
  if (target.isErr()) return { fail: target.error };
  // An empty target leads nowhere (the kernel answers ENOENT), never to the link's own directory.
  if (target.value === "") return { fail: treeError("tree-not-found", path, `the link "${here}" has an empty target`) };
  const resolved = resolveLink(at.done === "" ? [] : at.done.split("/"), target.value);
  if (resolved === undefined) return { fail: treeError("tree-io", path, `the link "${here}" leads out of the tree`) };
  return { next: [...resolved, ...at.next.slice(at.from + 1)], from: 0, done: "", tree: root, hops: at.hops + 1 };
}

// Where a walk for `path` starts: the deepest directory above its last component that some walk
// has passed through (tried from the path's parent up: a checker lists a directory's parent
// first, so the first try mostly answers), else the root.
function start(objects: GitObjects, root: string, path: string): Going {
  const next = path === "" ? [] : path.split("/");
  for (let end = path.lastIndexOf("/"), from = next.length - 1; end > 0; end = path.lastIndexOf("/", end - 1), from -= 1) {
    const tree = objects.dirs.get(path.slice(0, end));
    if (tree !== undefined) return { next, from, done: path.slice(0, end), tree, hops: 0 };
  }
  return { next, from: 0, done: "", tree: root, hops: 0 };
}

/** Follows `path` from the root tree `root`; every component must exist under its exact spelling. */
export async function walk(objects: GitObjects, root: string, path: string): Promise<Result<Found, TreeError>> {
  let at: Step = start(objects, root, path);
  while ("next" in at) {
    if (at.from === at.next.length) return ok({ kind: "root", oid: at.tree });
    if (at.hops > MAX_LINK_HOPS) {
      return err(treeError("tree-io", path, "too many levels of symbolic links"));
    }
    const next: Step | Promise<Step> = step(objects, root, path, at);
    at = next instanceof Promise ? await next : next;
  }
  return "found" in at ? ok(at.found) : err(at.fail);
}
