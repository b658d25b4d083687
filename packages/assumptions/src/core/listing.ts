import { err, ok, type Result } from "neverthrow";
import type { DirEntry, TreeError, TreeReader } from "../tree.js";
import type { CheckFault } from "./faults.js";
import type { Resolved } from "./links.js";
import { mayFoldToAscii, mayKeyToAscii } from "./unicode/ascii-reach.js";
import { caseFold, foldsToItself, isAscii, nfc } from "./unicode/fold.js";
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
// all of them. Positions go in ascending order under each key. An ASCII name needs only the
// entries whose fold may be ASCII (ASCII entries, and a few such as `straße`).
function foldIndex(entries: readonly DirEntry[], ordered: boolean, asciiOnly: boolean): Keyed<number> {
  const map: Keyed<number> = new Map();
  for (let i = 0; i < entries.length; i += 1) {
    const { name } = entries[i] as DirEntry;
    if ((ordered && foldsToItself(name)) || (asciiOnly && !mayFoldToAscii(name))) continue;
    const key = caseFold(name);
    if (!ordered || key !== name) add(map, key, i);
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

// Entries under their NFC spelling: those whose NFC differs from their name, or every entry when
// the names are out of order (`undefined` when there are none, as in most directories); and
// whether every name is ASCII.
function respell(entries: readonly DirEntry[], ordered: boolean): { respelled?: Keyed<DirEntry>; allAscii: boolean } {
  let respelled: Keyed<DirEntry> | undefined;
  let allAscii = true;
  for (let i = 0; i < entries.length; i += 1) {
    const entry = entries[i] as DirEntry;
    const { name } = entry;
    const ascii = isAscii(name);
    if (!ascii) allAscii = false;
    const composed = ascii ? name : nfc(name);
    if (!ordered || composed !== name) add((respelled ??= new Map()), composed, entry);
  }
  return respelled === undefined ? { allAscii } : { respelled, allAscii };
}

// Which entries a skeleton index holds. An ASCII name's letters are Latin (or it has none, and
// matches nothing), so it can match only an entry in some other script: not an ASCII one, nor one
// in Latin alone (an accented name); and when its key is ASCII, only an entry whose key may be.
const ANY = 0;
const OTHER_SCRIPT = 1;
const ASCII_KEY = 2;
function skeletonIndex(entries: readonly DirEntry[], kind: number): Keyed<DirEntry> {
  const map: Keyed<DirEntry> = new Map();
  for (let i = 0; i < entries.length; i += 1) {
    const entry = entries[i] as DirEntry;
    const { name } = entry;
    if (kind !== ANY && (isAscii(name) || (kind === ASCII_KEY && !mayKeyToAscii(name)) || !inOtherScript(name))) continue;
    add(map, confusableKey(nfcName(entry)), entry);
  }
  return map;
}

// A class rather than a closure per method: a check keeps one index per directory it meets, tens
// of thousands of them, and each closure would be an object of its own.
class Index implements DirIndex {
  private readonly ordered: boolean;
  private readonly respelled: Keyed<DirEntry> | undefined;
  private readonly allAscii: boolean;
  // Built on first use; the ASCII ones for ASCII names (byAsciiKey: those whose key is ASCII).
  private byFold: Keyed<number> | undefined;
  private byAsciiFold: Keyed<number> | undefined;
  private bySkeleton: Keyed<DirEntry> | undefined;
  private byOtherScript: Keyed<DirEntry> | undefined;
  private byAsciiKey: Keyed<DirEntry> | undefined;

  constructor(readonly entries: readonly DirEntry[]) {
    this.ordered = ascending(entries);
    const { respelled, allAscii } = respell(entries, this.ordered);
    this.respelled = respelled;
    this.allAscii = allAscii;
  }

  exact(name: string): ExactHit {
    const spelled = this.ordered ? entryNamed(this.entries, name) : undefined;
    const keyed = this.respelled?.get(name);
    if (keyed === undefined) return spelled === undefined ? undefined : { entry: spelled };
    if (spelled === undefined && !Array.isArray(keyed)) return { entry: keyed };
    // Two spellings of one NFC name (rare, and a fault): named in the order they were listed.
    return { ambiguous: this.entries.filter((e) => nfcName(e) === name) };
  }

  named(raw: string): DirEntry | undefined {
    if (this.ordered) return entryNamed(this.entries, raw);
    return this.respelled === undefined ? undefined : under(this.respelled, nfc(raw)).find((e) => e.name === raw);
  }

  caseVariants(name: string): readonly DirEntry[] {
    const { entries } = this;
    const key = caseFold(name);
    const byFold = isAscii(name) ? (this.byAsciiFold ??= foldIndex(entries, this.ordered, true)) : (this.byFold ??= foldIndex(entries, this.ordered, false));
    const keyed = under(byFold, key);
    // In order, an entry that is its own key is not in the map: it is the one spelled as the key.
    const own = this.ordered ? search(entries, key) : -1;
    const positions = own === -1 || caseFold((entries[own] as DirEntry).name) !== key ? keyed : [...keyed, own].sort((a, b) => a - b);
    const found: DirEntry[] = [];
    for (let k = 0; k < positions.length; k += 1) {
      const entry = entries[positions[k] as number] as DirEntry;
      if (nfcName(entry) !== name) found.push(entry);
    }
    return found;
  }

  confusables(name: string): readonly DirEntry[] {
    const ascii = isAscii(name);
    // Most directories hold no non-ASCII name at all: then an ASCII name has nothing to match.
    if (ascii && this.allAscii) return [];
    const key = confusableKey(name);
    const index = this.skeletons(ascii ? (isAscii(key) ? ASCII_KEY : OTHER_SCRIPT) : ANY);
    if (index.size === 0) return [];
    const scripts = scriptsOf(name);
    if (scripts === "") return [];
    return under(index, key).filter((e) => {
      const theirs = scriptsOf(e.name);
      return theirs !== "" && theirs !== scripts;
    });
  }

  private skeletons(kind: number): Keyed<DirEntry> {
    if (kind === ASCII_KEY) return (this.byAsciiKey ??= skeletonIndex(this.entries, kind));
    if (kind === OTHER_SCRIPT) return (this.byOtherScript ??= skeletonIndex(this.entries, kind));
    return (this.bySkeleton ??= skeletonIndex(this.entries, kind));
  }
}

/**
 * Indexes one directory's entries. Node lists names in order, so exact lookups are a binary
 * search on the spelling, plus a map of only the entries whose NFC differs from their name (or of
 * every entry when the names come out of order). The case-fold and confusable-skeleton maps are
 * built on the first lookup that needs them.
 */
export function buildIndex(entries: readonly DirEntry[]): DirIndex {
  return new Index(entries);
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
