import { err, ok, type Result } from "neverthrow";
import type { DirEntry, TreeError, TreeReader } from "../tree.js";
import type { CheckFault } from "./faults.js";
import { caseFold, isAscii, nfc } from "./unicode/fold.js";
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
  /** The directory's index, listing it on first use; later calls answer from the cache at once. */
  index(dir: string): Result<DirIndex, CheckFault> | Promise<Result<DirIndex, CheckFault>>;
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
  const byName = new Map<string, DirEntry>();
  let ambiguous: Map<string, DirEntry[]> | undefined;
  for (const entry of entries) {
    const key = nfc(entry.name);
    const first = byName.get(key);
    if (first === undefined) byName.set(key, entry);
    else {
      ambiguous ??= new Map();
      ambiguous.set(key, [...(ambiguous.get(key) ?? [first]), entry]);
    }
  }
  let byFold: Map<string, DirEntry[]> | undefined;
  let bySkeleton: Map<string, DirEntry[]> | undefined;
  let byNonAsciiSkeleton: Map<string, DirEntry[]> | undefined;
  return {
    entries,
    exact(name) {
      const key = nfc(name);
      const clash = ambiguous?.get(key);
      if (clash) return { ambiguous: clash };
      const entry = byName.get(key);
      return entry && { entry };
    },
    caseVariants(name) {
      byFold ??= group(entries, caseFold);
      const key = nfc(name);
      return (byFold.get(caseFold(name)) ?? []).filter((e) => nfc(e.name) !== key);
    },
    confusables(name) {
      const scripts = scriptsOf(name);
      if (scripts === "") return [];
      // An ASCII name's letters are Latin, so only a name holding non-ASCII can be in another script.
      const ascii = isAscii(name);
      const index = ascii
        ? (byNonAsciiSkeleton ??= group(entries.filter((e) => !isAscii(e.name)), confusableKey))
        : (bySkeleton ??= group(entries, confusableKey));
      return (index.get(confusableKey(name)) ?? []).filter((e) => {
        const theirs = scriptsOf(e.name);
        return theirs !== "" && theirs !== scripts;
      });
    },
  };
}

/** Creates the per-run listing cache over a tree. */
export function createListings(tree: TreeReader): Listings {
  const done = new Map<string, Result<DirIndex, CheckFault>>();
  const pending = new Map<string, Promise<Result<DirIndex, CheckFault>>>();
  const load = async (dir: string): Promise<Result<DirIndex, CheckFault>> => {
    const listed = await tree.list(dir);
    const result = listed.isOk() ? ok(buildIndex(listed.value)) : err(treeFault(listed.error));
    done.set(dir, result);
    pending.delete(dir);
    return result;
  };
  return {
    tree,
    index(dir) {
      const hit = done.get(dir) ?? pending.get(dir);
      if (hit) return hit;
      const made = load(dir);
      pending.set(dir, made);
      return made;
    },
  };
}
