import { err, ok, type Result } from "neverthrow";
import type { TreeError, TreeReader } from "../tree.js";
import { buildIndex, type DirIndex } from "./dir-index.js";
import type { CheckFault } from "./faults.js";
import type { Resolved } from "./links.js";

/** A link followed from no hops: where it led (or the fault it met) and how many links that took. */
export interface LinkWalk {
  readonly result: Result<Resolved, CheckFault>;
  readonly hops: number;
}

/** A per-run cache: each directory of the tree is listed and indexed at most once. */
export interface Listings {
  readonly tree: TreeReader;
  /** The directory's index, listing it on first use; later calls share that one listing. */
  index(dir: string): PromiseLike<Result<DirIndex, CheckFault>>;
  /** Each symbolic link (real tree path) followed once a run, shared by every path through it. */
  readonly links: Map<string, Promise<LinkWalk>>;
  /**
   * Where each link followed without a fault led, and how many links that took from it, whether
   * a path named it or another link's chain met it: a later chain through it takes that answer
   * instead of following the rest of the chain again.
   */
  readonly linkEnds: Map<string, { readonly resolved: Resolved; readonly hops: number }>;
  /** A link's target text (real tree path), read once a run however many chains pass through it. */
  readLink(path: string): PromiseLike<Result<string, TreeError>>;
  /** Drops every listing, link and link text held so far; later asks read them again. */
  forget(): void;
}

/**
 * Whether a directory's listing makes it a nested repository (a working tree's submodule): it is
 * not the root, it holds `.git`, and the tree does not ask to descend into such directories.
 */
export function isRepository(listings: Listings, dir: string, index: DirIndex): boolean {
  return dir !== "" && listings.tree.descendsSubmodules !== true && index.named(".git") !== undefined;
}

/**
 * Why a path that arrives at directory `dir` may not be taken as found: a nested repository there
 * (a `submodule` fault naming `spelled`), or the listing that would tell failing (its own fault:
 * a directory that cannot be listed may be a repository, so it is never taken as found).
 * Undefined when `dir` is a plain directory, the root, or the tree descends into repositories.
 */
export async function repositoryFault(listings: Listings, dir: string, spelled: string): Promise<CheckFault | undefined> {
  if (dir === "" || listings.tree.descendsSubmodules === true) return undefined;
  const index = await listings.index(dir);
  if (index.isErr()) return index.error;
  return isRepository(listings, dir, index.value) ? { code: "submodule", path: spelled } : undefined;
}

/** A TreeError as a fault, carrying its code, path and message. */
export function treeFault(e: TreeError): CheckFault {
  return { code: e.code, path: e.path, message: e.message };
}

/** Creates the per-run listing cache over a tree. */
export function createListings(tree: TreeReader): Listings {
  // One promise per directory, settled or not: every later ask shares the one listing.
  const cache = new Map<string, PromiseLike<Result<DirIndex, CheckFault>>>();
  const texts = new Map<string, PromiseLike<Result<string, TreeError>>>();
  const links = new Map<string, Promise<LinkWalk>>();
  const linkEnds = new Map<string, { readonly resolved: Resolved; readonly hops: number }>();
  return {
    tree,
    links,
    linkEnds,
    forget() {
      cache.clear();
      texts.clear();
      links.clear();
      linkEnds.clear();
    },
    readLink(path) {
      let read = texts.get(path);
      if (read === undefined) {
        read = tree.readLink(path);
        texts.set(path, read);
      }
      return read;
    },
    index(dir) {
      let made = cache.get(dir);
      if (made === undefined) {
        // The reader's own promise, chained once.
        made = tree.list(dir).then((listed) => (listed.isOk() ? ok(buildIndex(listed.value)) : err(treeFault(listed.error))));
        cache.set(dir, made);
      }
      return made;
    },
  };
}
