import { err, ok, type Result } from "neverthrow";
import type { EntryType } from "../tree.js";
import type { CheckFault } from "./faults.js";
import { isRepository, type LinkWalk, type Listings, repositoryFault, treeFault } from "./listing.js";
import { child, parentOf } from "./tree-path.js";

/** Where a chain of links ends inside the root: a real tree path and its entry type, or nowhere. */
export type Resolved = { readonly path: string; readonly type: Exclude<EntryType, "symlink"> } | undefined;

type Resolution = Result<Resolved, CheckFault>;

/** Where a link led, and how many links the whole walk has now followed. */
export type Counted = Result<{ readonly resolved: Resolved; readonly hops: number }, CheckFault>;

/** How many links one resolution may pass through before it is called a loop (Linux's limit). */
export const MAX_HOPS = 40;

interface Walk {
  readonly listings: Listings;
  /** The link being resolved, named in any fault. */
  readonly link: string;
  /** The first link's target text, named in an outside-the-root fault. */
  target: string | undefined;
  hops: number;
}

function outside(walk: Walk, target: string): Resolution {
  return err({ code: "link-outside-root", path: walk.link, target: walk.target ?? target });
}

// The directory is carried as one path string: a component costs its own length, never a join
// of every component above it (a target of hundreds of `../` and names would cost their square).
async function step(walk: Walk, start: string, parts: readonly string[]): Promise<Resolution> {
  let dir = start;
  for (let i = 0; i < parts.length; i += 1) {
    const part = parts[i] as string;
    if (part === "" || part === ".") continue;
    if (part === "..") {
      if (dir === "") return outside(walk, parts.join("/"));
      dir = parentOf(dir);
      continue;
    }
    const index = await walk.listings.index(dir);
    if (index.isErr()) return err(index.error);
    if (isRepository(walk.listings, dir, index.value)) return err({ code: "submodule", path: dir });
    const entry = index.value.named(part);
    if (!entry) return ok(undefined);
    const here = child(dir, part);
    if (entry.type === "submodule") return err({ code: "submodule", path: here });
    let type: EntryType = entry.type;
    let real = here;
    if (entry.type === "symlink") {
      const to = await through(walk, here);
      if (to.isErr() || !to.value) return to;
      type = to.value.type;
      real = to.value.path;
    }
    if (i === parts.length - 1) return landed(walk, real, type as Exclude<EntryType, "symlink">);
    if (type !== "directory") return ok(undefined);
    dir = real;
  }
  // The parts ran out after ".", ".." or a trailing "/": where the walk stands is a directory.
  return landed(walk, dir, "directory");
}

/**
 * Where a link's walk ends; a directory that is a nested repository is a `submodule` fault (a
 * link naming it names it), and one that cannot be listed is its listing's fault.
 */
async function landed(walk: Walk, path: string, type: Exclude<EntryType, "symlink">): Promise<Resolution> {
  if (type !== "directory") return ok({ path, type });
  const fault = await repositoryFault(walk.listings, path, path);
  return fault === undefined ? ok({ path, type }) : err(fault);
}

/**
 * A link met inside a chain: where it led the last time a chain passed through it, when this walk
 * can take that many more links; else followed, and its answer kept. A link leads where it led
 * before whenever the whole walk stays within the limit, and a fault is never kept: it is met
 * again by following, so that it names this walk's own link.
 */
async function through(walk: Walk, linkPath: string): Promise<Resolution> {
  const known = walk.listings.linkEnds.get(linkPath);
  if (known !== undefined && walk.hops + known.hops <= MAX_HOPS) {
    walk.hops += known.hops;
    return ok(known.resolved);
  }
  const before = walk.hops;
  const to = await follow(walk, linkPath);
  if (to.isOk()) walk.listings.linkEnds.set(linkPath, { resolved: to.value, hops: walk.hops - before });
  return to;
}

async function follow(walk: Walk, linkPath: string): Promise<Resolution> {
  walk.hops += 1;
  if (walk.hops > MAX_HOPS) return err({ code: "link-loop", path: walk.link });
  const read = await walk.listings.readLink(linkPath);
  if (read.isErr()) return err(treeFault(read.error));
  walk.target ??= read.value;
  if (read.value.startsWith("/")) return outside(walk, read.value);
  // An empty target leads nowhere: the kernel answers ENOENT for it (git stores one, a checkout
  // cannot make it), never the link's own directory.
  if (read.value === "") return ok(undefined);
  return step(walk, parentOf(linkPath), read.value.split("/"));
}

/**
 * Follows the symbolic link at `linkPath` (a real tree path) to where it ends, inside a walk that
 * has already followed `hops` links. A target outside the root is a fault naming the link; a
 * dangling link (an empty target included) resolves to `undefined`. As the kernel counts every
 * link one path lookup follows (those to `.` included), more than 40 in all is `link-loop`.
 * Each link is followed once a run from no hops; a walk that arrives with `hops` reuses that
 * answer whenever `hops` plus the links it took stays within the limit (then the walk would go
 * exactly the same way), and follows the chain again otherwise, to meet the limit where it lies.
 */
export async function resolveLinkCounted(listings: Listings, linkPath: string, hops: number): Promise<Counted> {
  let once = listings.links.get(linkPath);
  if (once === undefined) {
    once = followFrom(listings, linkPath, 0);
    listings.links.set(linkPath, once);
  }
  const first = await once;
  if (hops + first.hops <= MAX_HOPS) return first.result.map((resolved) => ({ resolved, hops: hops + first.hops }));
  const again = await followFrom(listings, linkPath, hops);
  return again.result.map((resolved) => ({ resolved, hops: again.hops }));
}

// A link's walk from `hops` links, taking (and leaving) its known end as a chain would.
async function followFrom(listings: Listings, linkPath: string, hops: number): Promise<LinkWalk> {
  const walk: Walk = { listings, link: linkPath, target: undefined, hops };
  const result = await through(walk, linkPath);
  return { result, hops: walk.hops };
}
