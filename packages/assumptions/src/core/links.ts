import { errAsync, okAsync, ResultAsync } from "neverthrow";
import type { EntryType } from "../tree.js";
import type { CheckFault } from "./faults.js";
import { type Listings, treeFault } from "./listing.js";

/** Where a chain of links ends inside the root: a real tree path and its entry type, or nowhere. */
export type Resolved = { readonly path: string; readonly type: Exclude<EntryType, "symlink"> } | undefined;

/** How many links one resolution may pass through before it is called a loop (Linux's limit). */
const MAX_HOPS = 40;

interface Walk {
  readonly listings: Listings;
  /** The link being resolved, named in any fault. */
  readonly link: string;
  hops: number;
}

function join(dir: readonly string[]): string {
  return dir.join("/");
}

function step(walk: Walk, dir: readonly string[], parts: readonly string[]): ResultAsync<Resolved, CheckFault> {
  const [part, ...rest] = parts;
  // The parts ran out right after ".." or "." or a trailing "/": where the walk stands is a directory.
  if (part === undefined) return okAsync({ path: join(dir), type: "directory" });
  if (part === "" || part === ".") return step(walk, dir, rest);
  if (part === "..") {
    if (dir.length === 0) return errAsync(outside(walk));
    return step(walk, dir.slice(0, -1), rest);
  }
  return walk.listings.index(join(dir)).andThen((index) => {
    const entry = index.entries.find((e) => e.name === part);
    if (!entry) return okAsync(undefined);
    const here = [...dir, part];
    if (entry.type === "symlink") {
      return follow(walk, here).andThen((to) => continueFrom(walk, to, rest));
    }
    if (rest.length === 0) return okAsync({ path: join(here), type: entry.type });
    return entry.type === "directory" ? step(walk, here, rest) : okAsync(undefined);
  });
}

function continueFrom(walk: Walk, to: Resolved, rest: readonly string[]): ResultAsync<Resolved, CheckFault> {
  if (!to) return okAsync(undefined);
  if (rest.length === 0) return okAsync(to);
  if (to.type !== "directory") return okAsync(undefined);
  return step(walk, to.path === "" ? [] : to.path.split("/"), rest);
}

function outside(walk: Walk, target?: string): CheckFault {
  return { code: "link-outside-root", path: walk.link, target: target ?? "" };
}

function follow(walk: Walk, linkPath: readonly string[]): ResultAsync<Resolved, CheckFault> {
  walk.hops += 1;
  if (walk.hops > MAX_HOPS) return errAsync({ code: "link-loop", path: walk.link });
  return walk.listings.tree
    .readLink(join(linkPath))
    .mapErr(treeFault)
    .andThen((target) => {
      if (target.startsWith("/")) return errAsync({ code: "link-outside-root" as const, path: walk.link, target });
      return step(walk, linkPath.slice(0, -1), target.split("/")).mapErr((f) =>
        f.code === "link-outside-root" && f.target === "" ? { ...f, target } : f,
      );
    });
}

/**
 * Follows the symbolic link at `linkPath` (a real tree path) to where it ends. A target outside
 * the root or a loop is a fault naming the link; a dangling link resolves to `undefined`.
 */
export function resolveLink(listings: Listings, linkPath: string): ResultAsync<Resolved, CheckFault> {
  return follow({ listings, link: linkPath, hops: 0 }, linkPath.split("/"));
}
