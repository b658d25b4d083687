// Walking history with isomorphic-git: the commits of a range in `git log`'s order, the paths they
// changed, and the commits that touch given paths. Runtime-neutral.
import type { CommitInfo } from "../ports.js";
import { type CommitNode, commitAt, diffTrees, entryAt, leaves, mustCommit, type Repo } from "./objects.js";

/**
 * Which parents of a listed commit the walk goes on to. `irrelevant` tells the parents below the
 * start (the start itself stays relevant, as git counts it).
 */
type Follow = (c: CommitNode, irrelevant: (oid: string) => boolean) => Promise<readonly string[]>;

/** Every commit reachable from `start`, itself included: the whole history below it is read, so that no committer date out of order can let one through. */
async function reachable(r: Repo, start: CommitNode): Promise<Set<string>> {
  const seen = new Set<string>([start.oid]);
  const stack = [...start.parents];
  for (let oid = stack.pop(); oid !== undefined; oid = stack.pop()) {
    if (seen.has(oid)) continue;
    seen.add(oid);
    stack.push(...(await commitAt(r, oid)).parents);
  }
  return seen;
}

/**
 * Commits reachable from `to` and not from `from` (all of `to`'s history when null), in `git log`'s
 * default order: newest committer date first, a commit after those of the same date found before
 * it. `follow` picks the parents a listed commit leads to (all of them by default).
 */
export async function walkRange(r: Repo, from: string | null, to: string, follow?: Follow): Promise<CommitNode[]> {
  const bottom = from === null ? null : await mustCommit(r, from);
  const excluded = bottom === null ? new Set<string>() : await reachable(r, bottom);
  const seen = new Set<string>();
  const queue: CommitNode[] = [];
  const visit = (node: CommitNode) => {
    if (seen.has(node.oid) || excluded.has(node.oid)) return;
    seen.add(node.oid);
    let at = queue.findIndex((other) => other.time < node.time);
    if (at === -1) at = queue.length;
    queue.splice(at, 0, node);
  };
  const irrelevant = (oid: string) => oid !== bottom?.oid && excluded.has(oid);
  visit(await mustCommit(r, to));
  const listed: CommitNode[] = [];
  for (let c = queue.shift(); c !== undefined; c = queue.shift()) {
    listed.push(c);
    for (const oid of follow === undefined ? c.parents : await follow(c, irrelevant)) {
      if (!seen.has(oid) && !excluded.has(oid)) visit(await commitAt(r, oid));
    }
  }
  return listed;
}

const info = (c: CommitNode): CommitInfo => ({ id: c.oid, message: c.message.trimEnd() });

const sameLeaf = (x: { mode: string; oid: string } | undefined, y: { mode: string; oid: string } | undefined) => x?.oid === y?.oid && x?.mode === y?.mode;

/**
 * `Git.log`. With `paths`, git's default history simplification: a commit is listed when it changes
 * one of them against its parent (a root commit, when it holds one); a merge that leaves them as one
 * of its parents had them is not listed, and the walk follows that parent alone.
 */
export async function logRange(r: Repo, from: string | null, to: string, paths?: readonly string[]): Promise<CommitInfo[]> {
  if (paths === undefined) return (await walkRange(r, from, to)).map(info);
  if (paths.length === 0) return [];
  const treeSame = async (tree: string, parent: string) => {
    const other = (await commitAt(r, parent)).tree;
    for (const p of paths) if (!sameLeaf(await entryAt(r, tree, p), await entryAt(r, other, p))) return false;
    return true;
  };
  const shown = new Set<string>();
  const follow: Follow = async (c, irrelevant) => {
    if (c.parents.length === 0) {
      for (const p of paths) if ((await entryAt(r, c.tree, p)) !== undefined) shown.add(c.oid);
      return [];
    }
    const same: boolean[] = [];
    for (const p of c.parents) same.push(await treeSame(c.tree, p));
    const kept = c.parents.find((p, i) => same[i] && !irrelevant(p));
    if (kept !== undefined) return [kept];
    // Only irrelevant parents: listed when it differs from one of them.
    if (c.parents.some((p) => !irrelevant(p)) || same.includes(false)) shown.add(c.oid);
    return c.parents;
  };
  return (await walkRange(r, from, to, follow)).filter((c) => shown.has(c.oid)).map(info);
}

/** `Git.changedPaths`: what each commit of the range changed (see the port), each path once. */
export async function changedInRange(r: Repo, from: string, to: string): Promise<string[]> {
  const paths = new Set<string>();
  for (const c of await walkRange(r, from, to)) {
    const [first, ...others] = await Promise.all(c.parents.map((p) => commitAt(r, p)));
    if (first === undefined) {
      for (const leaf of await leaves(r, c.tree)) paths.add(leaf.path);
      continue;
    }
    for (const change of await diffTrees(r, first.tree, c.tree)) {
      let fromAll = true;
      for (const o of others) if (sameLeaf(await entryAt(r, o.tree, change.path), change.after)) fromAll = false;
      if (fromAll) paths.add(change.path);
    }
  }
  return [...paths];
}
