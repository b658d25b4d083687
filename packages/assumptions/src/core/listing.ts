import { err, ok, type Result } from "neverthrow";
import type { DirEntry, TreeError, TreeReader } from "../tree.js";
import type { CheckFault } from "./faults.js";
import type { Maybe } from "./maybe.js";
import { caseFold, isAscii } from "./unicode/fold.js";
import { scriptsOf } from "./unicode/scripts.js";
import { confusableKey } from "./unicode/skeleton.js";

/** What a path component found in one directory: one entry, or two spellings of one NFC name. */
export type ExactHit = { readonly entry: DirEntry } | { readonly ambiguous: readonly DirEntry[] } | undefined;

/**
 * A directory listed and normalised once: lookups by NFC name, by case fold, by confusable
 * skeleton. Every `name` asked about must already be NFC (parsed plan paths are).
 */
export interface DirIndex {
  readonly entries: readonly DirEntry[];
  exact(name: string): ExactHit;
  /** The entry spelled byte for byte as `raw` (how a link's target names it), if any. */
  named(raw: string): DirEntry | undefined;
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
  /**
   * The directory's index, listing it on first use (at once through the tree's `now` face, when
   * it has one); later calls answer from the cache at once.
   */
  index(dir: string): Maybe<Result<DirIndex, CheckFault>>;
}

/** A TreeError as a fault, carrying its code, path and message. */
export function treeFault(e: TreeError): CheckFault {
  return { code: e.code, path: e.path, message: e.message };
}

// The NFC spelling of an entry's name; ASCII names (most) are their own NFC.
function nfcName(entry: DirEntry): string {
  return isAscii(entry.name) ? entry.name : entry.name.normalize("NFC");
}

// One map per directory, keyed by the case-folded NFC name: an exact lookup and a case-variant
// lookup are the same probe. Most keys hold one entry, stored bare to spare an array per entry.
function indexByFold(entries: readonly DirEntry[]): Map<string, DirEntry | DirEntry[]> {
  const map = new Map<string, DirEntry | DirEntry[]>();
  for (const entry of entries) {
    const { name } = entry;
    const fold = caseFold(name);
    const there = map.get(fold);
    if (there === undefined) map.set(fold, entry);
    else if (Array.isArray(there)) there.push(entry);
    else map.set(fold, [there as DirEntry, entry]);
  }
  return map;
}

function foldedAs(map: Map<string, DirEntry | DirEntry[]>, name: string): readonly DirEntry[] {
  const there = map.get(caseFold(name));
  if (there === undefined) return [];
  return Array.isArray(there) ? there : [there as DirEntry];
}

function buildIndex(entries: readonly DirEntry[]): DirIndex {
  const byFold = indexByFold(entries);
  const skeletons = new Map<boolean, Map<string, DirEntry[]>>();
  // An ASCII name's letters are Latin, so only a name holding non-ASCII can be in another script.
  const skeletonIndex = (nonAsciiOnly: boolean) => {
    const map = new Map<string, DirEntry[]>();
    for (const entry of entries) {
      if (nonAsciiOnly && isAscii(entry.name)) continue;
      const key = confusableKey(entry.name.normalize("NFC"));
      const list = map.get(key);
      if (list) list.push(entry);
      else map.set(key, [entry]);
    }
    return map;
  };
  return {
    entries,
    exact(name) {
      const there = byFold.get(caseFold(name));
      if (there === undefined) return undefined;
      // The common case, one entry under the key, needs no array.
      if (!Array.isArray(there)) return nfcName(there) === name ? { entry: there } : undefined;
      const same = there.filter((e) => nfcName(e) === name);
      if (same.length === 0) return undefined;
      return same.length === 1 && same[0] ? { entry: same[0] } : { ambiguous: same };
    },
    named(raw) {
      return foldedAs(byFold, raw).find((e) => e.name === raw);
    },
    caseVariants(name) {
      return foldedAs(byFold, name).filter((e) => nfcName(e) !== name);
    },
    confusables(name) {
      const nonAsciiOnly = isAscii(name);
      let index = skeletons.get(nonAsciiOnly);
      if (!index) {
        index = skeletonIndex(nonAsciiOnly);
        skeletons.set(nonAsciiOnly, index);
      }
      // Most directories hold no non-ASCII name at all: then an ASCII name has nothing to match.
      if (index.size === 0) return [];
      const scripts = scriptsOf(name);
      if (scripts === "") return [];
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
  const indexed = (dir: string, listed: Result<readonly DirEntry[], TreeError>): Result<DirIndex, CheckFault> => {
    const result = listed.isOk() ? ok(buildIndex(listed.value)) : err(treeFault(listed.error));
    done.set(dir, result);
    return result;
  };
  const load = async (dir: string): Promise<Result<DirIndex, CheckFault>> => {
    const result = indexed(dir, await tree.list(dir));
    pending.delete(dir);
    return result;
  };
  return {
    tree,
    index(dir) {
      const hit = done.get(dir) ?? pending.get(dir);
      if (hit) return hit;
      if (tree.now) return indexed(dir, tree.now.list(dir));
      const made = load(dir);
      pending.set(dir, made);
      return made;
    },
  };
}
