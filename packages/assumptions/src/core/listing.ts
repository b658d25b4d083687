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

/** A TreeError as a fault, carrying its code, path and message. */
export function treeFault(e: TreeError): CheckFault {
  return { code: e.code, path: e.path, message: e.message };
}

// The NFC spelling of an entry's name; ASCII names (most) are their own NFC.
function nfcName(entry: DirEntry): string {
  return nfc(entry.name);
}

// Equal but for the case of ASCII letters, compared in place (no lower-case copy of either).
function asciiCaseEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const lower = x | 0x20;
    if ((x ^ y) !== 0x20 || lower < 0x61 || lower > 0x7a) return false;
  }
  return true;
}

type Keyed = Map<string, DirEntry | DirEntry[]>;

/** Directories up to this many entries are scanned for case variants rather than indexed. */
const SCAN_MAX = 64;

// Entries under a key; most keys hold one entry, stored bare to spare an array per entry.
function indexBy(entries: readonly DirEntry[], keyOf: (entry: DirEntry) => string): Keyed {
  const map: Keyed = new Map();
  // An indexed loop: it runs 100,000 times in a large check, before it is optimised too.
  for (let i = 0; i < entries.length; i += 1) {
    const entry = entries[i] as DirEntry;
    const key = keyOf(entry);
    const there = map.get(key);
    if (there === undefined) map.set(key, entry);
    else if (Array.isArray(there)) there.push(entry);
    else map.set(key, [there, entry]);
  }
  return map;
}

function under(map: Keyed, key: string): readonly DirEntry[] {
  const there = map.get(key);
  if (there === undefined) return [];
  return Array.isArray(there) ? there : [there];
}

const foldedName = (entry: DirEntry): string => caseFold(entry.name);

// The exact lookups (every row) probe a map keyed by NFC name, which for an ASCII name is the name
// itself: nothing is allocated per entry. The case-fold map is built only when a name misses.
function buildIndex(entries: readonly DirEntry[]): DirIndex {
  let nonAscii = 0;
  // nfcName, counting the non-ASCII names on the way (one ASCII test per entry, not two).
  const byNfc = indexBy(entries, (entry) => {
    if (isAscii(entry.name)) return entry.name;
    nonAscii += 1;
    return entry.name.normalize("NFC");
  });
  let byFold: Keyed | undefined;
  const skeletons = new Map<boolean, Map<string, DirEntry[]>>();
  // An ASCII name's letters are Latin, so only a name holding non-ASCII can be in another script.
  const skeletonIndex = (nonAsciiOnly: boolean) => {
    const map = new Map<string, DirEntry[]>();
    for (const entry of entries) {
      if (nonAsciiOnly && isAscii(entry.name)) continue;
      const key = confusableKey(nfcName(entry));
      const list = map.get(key);
      if (list) list.push(entry);
      else map.set(key, [entry]);
    }
    return map;
  };
  return {
    entries,
    exact(name) {
      const there = byNfc.get(name);
      if (there === undefined) return undefined;
      return Array.isArray(there) ? { ambiguous: there } : { entry: there };
    },
    named(raw) {
      return under(byNfc, nfc(raw)).find((e) => e.name === raw);
    },
    caseVariants(name) {
      // ASCII folds only to ASCII, so among ASCII names a scan finds the entries the map would; a
      // small directory is scanned instead of building the map.
      if (entries.length <= SCAN_MAX && nonAscii === 0 && isAscii(name)) {
        return entries.filter((e) => e.name !== name && asciiCaseEqual(e.name, name));
      }
      byFold ??= indexBy(entries, foldedName);
      return under(byFold, caseFold(name)).filter((e) => nfcName(e) !== name);
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
      return (index.get(confusableKey(name)) ?? []).filter((e) => {
        const theirs = scriptsOf(e.name);
        return theirs !== "" && theirs !== scripts;
      });
    },
  };
}

const TYPES: readonly DirEntry["type"][] = ["file", "directory", "symlink", "other"];

/** A released directory's entries: the names joined on NUL (no name holds one) and a type each. */
type Packed = { readonly names: string; readonly types: readonly number[] } | { readonly entries: readonly DirEntry[] };

function pack(entries: readonly DirEntry[]): Packed {
  const names: string[] = new Array(entries.length);
  const types: number[] = new Array(entries.length);
  for (let i = 0; i < entries.length; i += 1) {
    const { name, type } = entries[i] as DirEntry;
    // A tree that let a name hold NUL keeps its entries as they are.
    if (name.includes("\u0000")) return { entries };
    names[i] = name;
    types[i] = TYPES.indexOf(type);
  }
  return { names: names.join("\u0000"), types };
}

function unpack(packed: Packed): readonly DirEntry[] {
  if ("entries" in packed) return packed.entries;
  if (packed.types.length === 0) return [];
  return packed.names.split("\u0000").map((name, i) => ({ name, type: TYPES[packed.types[i] as number] as DirEntry["type"] }));
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
