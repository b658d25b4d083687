import type { ResultAsync } from "neverthrow";
import type { DirEntry, TreeError, TreeReader } from "../tree.js";
import type { CheckFault } from "./faults.js";
import { caseFold, nfc } from "./unicode/fold.js";
import { scriptsOf } from "./unicode/scripts.js";
import { confusableKey } from "./unicode/skeleton.js";

/** What a path component found in one directory: one entry, or two spellings of one NFC name. */
export type ExactHit = { readonly entry: DirEntry } | { readonly ambiguous: readonly DirEntry[] } | undefined;

/** A directory listed and normalised once: lookups by NFC name, by case fold, by confusable skeleton. */
export interface DirIndex {
  readonly entries: readonly DirEntry[];
  exact(name: string): ExactHit;
  /** Entries equal to `name` after full case folding, excluding NFC-equal ones. */
  caseVariants(name: string): readonly DirEntry[];
  /**
   * Entries sharing `name`'s confusable skeleton but written in another script (both names hold
   * letters of some specific script, and the sets differ): `асе` vs `ace`, never `1` vs `l`.
   */
  confusables(name: string): readonly DirEntry[];
}

/** A per-run cache: each directory of the tree is listed and indexed at most once. */
export interface Listings {
  readonly tree: TreeReader;
  index(dir: string): ResultAsync<DirIndex, CheckFault>;
}

/** A TreeError as a fault, carrying its code, path and message. */
export function treeFault(e: TreeError): CheckFault {
  return { code: e.code, path: e.path, message: e.message };
}

function group(entries: readonly DirEntry[], key: (name: string) => string): Map<string, DirEntry[]> {
  const map = new Map<string, DirEntry[]>();
  for (const entry of entries) {
    const k = key(entry.name);
    const list = map.get(k);
    if (list) list.push(entry);
    else map.set(k, [entry]);
  }
  return map;
}

function buildIndex(entries: readonly DirEntry[]): DirIndex {
  const byName = group(entries, nfc);
  const byFold = group(entries, caseFold);
  let bySkeleton: Map<string, DirEntry[]> | undefined;
  return {
    entries,
    exact(name) {
      const hits = byName.get(nfc(name));
      if (!hits) return undefined;
      return hits.length === 1 && hits[0] ? { entry: hits[0] } : { ambiguous: hits };
    },
    caseVariants(name) {
      const key = nfc(name);
      return (byFold.get(caseFold(name)) ?? []).filter((e) => nfc(e.name) !== key);
    },
    confusables(name) {
      bySkeleton ??= group(entries, confusableKey);
      const scripts = scriptsOf(name);
      if (scripts === "") return [];
      return (bySkeleton.get(confusableKey(name)) ?? []).filter((e) => {
        const theirs = scriptsOf(e.name);
        return theirs !== "" && theirs !== scripts;
      });
    },
  };
}

/** Creates the per-run listing cache over a tree. */
export function createListings(tree: TreeReader): Listings {
  const cache = new Map<string, ResultAsync<DirIndex, CheckFault>>();
  return {
    tree,
    index(dir) {
      const hit = cache.get(dir);
      if (hit) return hit;
      const made = tree.list(dir).map(buildIndex).mapErr(treeFault);
      cache.set(dir, made);
      return made;
    },
  };
}
