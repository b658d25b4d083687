import { err, ok, type Result } from "neverthrow";
import type { DirEntry, TreeError, TreeReader } from "../tree.js";
import type { CheckFault } from "./faults.js";
import type { Maybe } from "./maybe.js";
import { caseFold, isAscii, nfc } from "./unicode/fold.js";
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
  /**
   * Says the rows that name `dir` (spelled as a plan spells it: NFC, so a directory stored NFD is
   * found too) are judged: its index is dropped and only a packed copy of its entries is kept,
   * from which `index` rebuilds it (never listing it again) if a link or a variant spelling leads
   * back to it. A large check so keeps few listings alive at once.
   */
  release(dir: string): void;
}

/**
 * Whether a directory's listing makes it a nested repository (a working tree's submodule): it is
 * not the root, it holds `.git`, and the tree does not ask to descend into such directories.
 */
export function isRepository(listings: Listings, dir: string, index: DirIndex): boolean {
  return dir !== "" && listings.tree.descendsSubmodules !== true && index.named(".git") !== undefined;
}

/** A TreeError as a fault, carrying its code, path and message. */
export function treeFault(e: TreeError): CheckFault {
  return { code: e.code, path: e.path, message: e.message };
}

// The NFC spelling of an entry's name; ASCII names (most) are their own NFC.
function nfcName(entry: DirEntry): string {
  return nfc(entry.name);
}

// Whether a name is written, at least in part, in a script other than Latin (its specific scripts
// are neither none nor Latin alone).
function inOtherScript(name: string): boolean {
  const scripts = scriptsOf(name);
  return scripts !== "" && scripts !== "Latn";
}

type Keyed<T> = Map<string, T | T[]>;

// Files a value under a key; most keys hold one value, stored bare to spare an array per value.
function add<T>(map: Keyed<T>, key: string, value: T): void {
  const there = map.get(key);
  if (there === undefined) map.set(key, value);
  else if (Array.isArray(there)) there.push(value);
  else map.set(key, [there, value]);
}

function under<T>(map: Keyed<T>, key: string): readonly T[] {
  const there = map.get(key);
  if (there === undefined) return [];
  return Array.isArray(there) ? there : [there];
}

// The position of the entry spelled `name` in `entries` (names in ascending order), by binary
// search; -1 when there is none.
function search(entries: readonly DirEntry[], name: string): number {
  let lo = 0;
  let hi = entries.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const there = (entries[mid] as DirEntry).name;
    if (there === name) return mid;
    if (there < name) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

// The entry spelled `name` in `entries` (names in ascending order), if any.
function entryNamed(entries: readonly DirEntry[], name: string): DirEntry | undefined {
  const at = search(entries, name);
  return at === -1 ? undefined : entries[at];
}

// The positions of entries under their case-fold key: only the entries whose key differs from
// their name when the names are in order (the rest are found by binary search on the key), else
// all of them. Positions go in ascending order under each key.
function foldIndex(entries: readonly DirEntry[], ordered: boolean): Keyed<number> {
  const map: Keyed<number> = new Map();
  for (let i = 0; i < entries.length; i += 1) {
    const entry = entries[i] as DirEntry;
    const key = caseFold(entry.name);
    if (!ordered || key !== entry.name) add(map, key, i);
  }
  return map;
}

// Whether the names come in strictly ascending order (JavaScript's `<`). Node's readdir returns
// them sorted: libuv sorts by bytes, the same order for all but a few rare characters.
function ascending(entries: readonly DirEntry[]): boolean {
  for (let i = 1; i < entries.length; i += 1) {
    if (!((entries[i - 1] as DirEntry).name < (entries[i] as DirEntry).name)) return false;
  }
  return true;
}

// Exact lookups (every row). When the names come in order, as Node lists them, an entry stored
// in NFC is found by binary search on its own spelling; only the entries stored otherwise (NFD,
// or a singleton such as the Kelvin sign, whose NFC may even be ASCII) go into a map keyed by
// their NFC, and a name found both ways is ambiguous. Nothing is built per ASCII entry. Names out
// of order (another reader) are all keyed by NFC. Case variants work the same way with the
// case-fold key (a name without capitals, the usual case, is its own key), and their map is
// built only when a name misses.
function buildIndex(entries: readonly DirEntry[]): DirIndex {
  let nonAscii = 0;
  const ordered = ascending(entries);
  // Entries under their NFC spelling: those whose NFC differs from their name, or every entry
  // when the names are out of order. Non-ASCII names are counted on the way.
  const respelled: Keyed<DirEntry> = new Map();
  for (let i = 0; i < entries.length; i += 1) {
    const entry = entries[i] as DirEntry;
    const { name } = entry;
    if (isAscii(name)) {
      if (!ordered) add(respelled, name, entry);
      continue;
    }
    nonAscii += 1;
    const composed = name.normalize("NFC");
    if (!ordered || composed !== name) add(respelled, composed, entry);
  }
  let byFold: Keyed<number> | undefined;
  const skeletons = new Map<boolean, Keyed<DirEntry>>();
  // An ASCII name's letters are Latin (or it has none, and matches nothing), so for an ASCII name
  // only an entry written in some other script can match: not an ASCII one, nor one in Latin
  // alone (an accented name, say), whose skeleton is then never needed.
  const skeletonIndex = (nonAsciiOnly: boolean) => {
    const map: Keyed<DirEntry> = new Map();
    for (let i = 0; i < entries.length; i += 1) {
      const entry = entries[i] as DirEntry;
      if (nonAsciiOnly && (isAscii(entry.name) || !inOtherScript(entry.name))) continue;
      add(map, confusableKey(nfcName(entry)), entry);
    }
    return map;
  };
  return {
    entries,
    exact(name) {
      const spelled = ordered ? entryNamed(entries, name) : undefined;
      const keyed = respelled.size === 0 ? undefined : respelled.get(name);
      if (keyed === undefined) return spelled === undefined ? undefined : { entry: spelled };
      if (spelled === undefined && !Array.isArray(keyed)) return { entry: keyed };
      // Two spellings of one NFC name (rare, and a fault): named in the order they were listed.
      return { ambiguous: entries.filter((e) => nfcName(e) === name) };
    },
    named(raw) {
      return ordered ? entryNamed(entries, raw) : under(respelled, nfc(raw)).find((e) => e.name === raw);
    },
    caseVariants(name) {
      const key = caseFold(name);
      byFold ??= foldIndex(entries, ordered);
      const keyed = under(byFold, key);
      // In order, an entry that is its own key is not in the map: it is the one spelled as the key.
      const own = ordered ? search(entries, key) : -1;
      const positions = own === -1 || caseFold((entries[own] as DirEntry).name) !== key ? keyed : [...keyed, own].sort((a, b) => a - b);
      const found: DirEntry[] = [];
      for (let k = 0; k < positions.length; k += 1) {
        const entry = entries[positions[k] as number] as DirEntry;
        if (nfcName(entry) !== name) found.push(entry);
      }
      return found;
    },
    confusables(name) {
      const nonAsciiOnly = isAscii(name);
      // Most directories hold no non-ASCII name at all: then an ASCII name has nothing to match.
      if (nonAsciiOnly && nonAscii === 0) return [];
      let index = skeletons.get(nonAsciiOnly);
      if (!index) {
        index = skeletonIndex(nonAsciiOnly);
        skeletons.set(nonAsciiOnly, index);
      }
      if (index.size === 0) return [];
      const scripts = scriptsOf(name);
      if (scripts === "") return [];
      return under(index, confusableKey(name)).filter((e) => {
        const theirs = scriptsOf(e.name);
        return theirs !== "" && theirs !== scripts;
      });
    },
  };
}

const TYPES: readonly DirEntry["type"][] = ["file", "directory", "symlink", "other", "submodule"];
// One character per type, in TYPES order: a released directory keeps a byte per entry for it.
const TYPE_CODES = "fdsom";

/** A released directory's entries: the names joined on NUL (no name holds one) and a type code each. */
type Packed = { readonly names: string; readonly types: string } | { readonly entries: readonly DirEntry[] };

function pack(entries: readonly DirEntry[]): Packed {
  const names: string[] = new Array(entries.length);
  const types: string[] = new Array(entries.length);
  for (let i = 0; i < entries.length; i += 1) {
    const { name, type } = entries[i] as DirEntry;
    // A tree that let a name hold NUL keeps its entries as they are.
    if (name.includes("\u0000")) return { entries };
    names[i] = name;
    types[i] = TYPE_CODES[TYPES.indexOf(type)] as string;
  }
  return { names: names.join("\u0000"), types: types.join("") };
}

function unpack(packed: Packed): readonly DirEntry[] {
  if ("entries" in packed) return packed.entries;
  if (packed.types.length === 0) return [];
  return packed.names.split("\u0000").map((name, i) => ({ name, type: TYPES[TYPE_CODES.indexOf(packed.types.charAt(i))] as DirEntry["type"] }));
}

/** Creates the per-run listing cache over a tree. */
export function createListings(tree: TreeReader): Listings {
  const done = new Map<string, Result<DirIndex, CheckFault>>();
  const pending = new Map<string, Promise<Result<DirIndex, CheckFault>>>();
  const released = new Map<string, Packed>();
  // The tree's spelling of a directory whose name is not its NFC (NFD on disk), under the NFC
  // spelling a plan uses, so that releasing the plan's spelling lets go of the tree's.
  const spelledAs = new Map<string, string>();
  const indexed = (dir: string, listed: Result<readonly DirEntry[], TreeError>): Result<DirIndex, CheckFault> => {
    const result = listed.isOk() ? ok(buildIndex(listed.value)) : err(treeFault(listed.error));
    done.set(dir, result);
    if (!isAscii(dir)) {
      const composed = nfc(dir);
      if (composed !== dir) spelledAs.set(composed, dir);
    }
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
      const packed = released.get(dir);
      if (packed) {
        released.delete(dir);
        return indexed(dir, ok(unpack(packed)));
      }
      if (tree.now) return indexed(dir, tree.now.list(dir));
      const made = load(dir);
      pending.set(dir, made);
      return made;
    },
    release(planned) {
      const dir = done.has(planned) ? planned : (spelledAs.get(planned) ?? planned);
      const hit = done.get(dir);
      // A directory that failed to list keeps its (small) fault; one never listed has nothing.
      if (hit === undefined || hit.isErr()) return;
      done.delete(dir);
      released.set(dir, pack(hit.value.entries));
    },
  };
}
