// One directory's index: its entries listed once, looked up by NFC name, by case fold and by
// confusable skeleton.
import type { DirEntry, EntryType } from "../tree.js";
import { mayFoldToAscii, mayKeyToAscii } from "./unicode/ascii-reach.js";
import { caseFold, foldsToItself, isAscii, nfc } from "./unicode/fold.js";
import { scriptsOf } from "./unicode/scripts.js";
import { asciiOffKey, confusableKey } from "./unicode/skeleton.js";

/** What a path component found in one directory: one entry, or two spellings of one NFC name. */
export type ExactHit = { readonly entry: DirEntry } | { readonly ambiguous: readonly DirEntry[] } | undefined;

/** The entries under one case-fold key, and whether each is a file or other entry that is no directory, link or gitlink. */
export interface CaseGroup {
  readonly entries: readonly DirEntry[];
  readonly plain: boolean;
}

const NO_GROUP: CaseGroup = { entries: [], plain: true };

/**
 * A directory listed and normalised once: lookups by NFC name, by case fold, by confusable
 * skeleton. Every `name` asked about must already be NFC (parsed plan paths are).
 */
export interface DirIndex {
  exact(name: string): ExactHit;
  /** The entry spelled byte for byte as `raw` (how a link's target names it), if any. */
  named(raw: string): DirEntry | undefined;
  /** Entries equal to `name` after full case folding, excluding NFC-equal ones. */
  caseVariants(name: string): readonly DirEntry[];
  /**
   * For a `name` that `exact` misses: its case variants (then every entry under its fold key), made
   * once per key however many spellings of it are asked about.
   */
  caseGroup(name: string): CaseGroup;
  /**
   * Entries sharing `name`'s confusable skeleton but written in another script (both names hold
   * letters of some specific script, and the sets differ): `асе` vs `ace`, never `1` vs `l`. Made
   * once per skeleton and script set however many spellings of it are asked about.
   */
  confusableGroup(name: string): CaseGroup;
  /** The names as listed, byte for byte (in ascending order, unless a name is listed twice). */
  spellings(): readonly string[];
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

// The position of the name `name` in `names` (in ascending order), by binary search; -1 when
// there is none.
function search(names: readonly string[], name: string): number {
  let lo = 0;
  let hi = names.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const there = names[mid] as string;
    if (there === name) return mid;
    if (there < name) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

// The positions of names under their case-fold key: only the names whose key differs from
// themselves when the names are in order (the rest are found by binary search on the key), else
// all of them. Positions go in ascending order under each key. A key that is ASCII needs only the
// names whose fold may be ASCII (ASCII names, and a few such as `straße`); one that is not, only
// the names that are not ASCII (an ASCII name folds to ASCII).
function foldIndex(names: readonly string[], ordered: boolean, asciiKey: boolean): Keyed<number> {
  const map: Keyed<number> = new Map();
  for (let i = 0; i < names.length; i += 1) {
    const name = names[i] as string;
    if ((ordered && foldsToItself(name)) || (asciiKey ? !mayFoldToAscii(name) : isAscii(name))) continue;
    const key = caseFold(name);
    if (!ordered || key !== name) add(map, key, i);
  }
  return map;
}

// Whether the names come in strictly ascending order (JavaScript's `<`). Node's readdir returns
// them sorted: libuv sorts by bytes, the same order for all but a few rare characters.
function ascending(names: readonly string[]): boolean {
  for (let i = 1; i < names.length; i += 1) {
    if (!((names[i - 1] as string) < (names[i] as string))) return false;
  }
  return true;
}

// The positions of names under their NFC spelling: those whose NFC differs from the name, or
// every name when the names are out of order (`undefined` when there are none, as in most
// directories); and whether every name is ASCII.
function respell(names: readonly string[], ordered: boolean): { respelled?: Keyed<number>; allAscii: boolean } {
  let respelled: Keyed<number> | undefined;
  let allAscii = true;
  for (let i = 0; i < names.length; i += 1) {
    const name = names[i] as string;
    const ascii = isAscii(name);
    if (!ascii) allAscii = false;
    const composed = ascii ? name : nfc(name);
    if (!ordered || composed !== name) add((respelled ??= new Map()), composed, i);
  }
  return respelled === undefined ? { allAscii } : { respelled, allAscii };
}

// The classes of names a skeleton index holds. An ASCII name's letters are Latin (or it has none,
// and matches nothing), so it can match only a name in some other script: not an ASCII one, nor
// one in Latin alone (an accented name); and when its key is ASCII, only a name whose key may be
// (OTHER_SCRIPT, OTHER_SCRIPT_ASCII_KEY). A name in another script can match any name: one that is
// not ASCII (NOT_ASCII), or an ASCII one, whose key is ASCII unless it holds a character whose key
// is not (`%`, see `asciiOffKey`): all of them for a key that is ASCII (ASCII), only those for one
// that is not (ASCII_OFF_KEY). The classes a lookup unites never overlap, so no key is made twice.
const OTHER_SCRIPT = 0;
const OTHER_SCRIPT_ASCII_KEY = 1;
const NOT_ASCII = 2;
const ASCII = 3;
const ASCII_OFF_KEY = 4;
function heldBy(kind: number, name: string): boolean {
  if (kind === NOT_ASCII) return !isAscii(name);
  if (kind === ASCII) return isAscii(name);
  if (kind === ASCII_OFF_KEY) return isAscii(name) && asciiOffKey().test(name);
  return !isAscii(name) && (kind === OTHER_SCRIPT || mayKeyToAscii(name)) && inOtherScript(name);
}

// Positions from two indexes, in ascending order.
function merged(a: readonly number[], b: readonly number[]): readonly number[] {
  if (a.length === 0) return b;
  return b.length === 0 ? a : [...a, ...b].sort((x, y) => x - y);
}

function skeletonIndex(names: readonly string[], kind: number): Keyed<number> {
  const map: Keyed<number> = new Map();
  for (let i = 0; i < names.length; i += 1) {
    const name = names[i] as string;
    if (heldBy(kind, name)) add(map, confusableKey(nfc(name)), i);
  }
  return map;
}

// A class rather than a closure per method: a check keeps one index per directory it meets, tens
// of thousands of them, and each closure would be an object of its own. Names and types are kept
// in two arrays, not as an object per entry: an entry object is made only for an entry a lookup
// answers with, so a directory of 100 names that two rows name keeps 100 strings and two arrays,
// where it kept 100 objects more for every scavenge to copy.
class Index implements DirIndex {
  private readonly names: readonly string[];
  private readonly types: readonly EntryType[];
  private readonly ordered: boolean;
  private readonly respelled: Keyed<number> | undefined;
  private readonly allAscii: boolean;
  // Built on first use, by whether the key looked up is ASCII (and, for skeletons, the name).
  private byAsciiFold: Keyed<number> | undefined;
  private byOtherFold: Keyed<number> | undefined;
  private bySkeleton: (Keyed<number> | undefined)[] | undefined;
  private groups: Map<string, CaseGroup> | undefined;
  private confusableGroups: Map<string, CaseGroup> | undefined;

  constructor(entries: readonly DirEntry[]) {
    let names: string[] = new Array(entries.length);
    let types: EntryType[] = new Array(entries.length);
    for (let i = 0; i < entries.length; i += 1) {
      const entry = entries[i] as DirEntry;
      names[i] = entry.name;
      types[i] = entry.type;
    }
    let ordered = ascending(names);
    if (!ordered) {
      // Adapters list in their own order (memfs as the names were made): sorted here, so which
      // spelling an answer names never depends on the adapter. Node's listing comes sorted.
      const order = names.map((_, i) => i).sort((a, b) => ((names[a] as string) < (names[b] as string) ? -1 : 1));
      names = order.map((i) => names[i] as string);
      types = order.map((i) => types[i] as EntryType);
      // Still out of order only when a name is listed twice (a malformed git tree): lookups then go through the maps.
      ordered = ascending(names);
    }
    this.names = names;
    this.types = types;
    this.ordered = ordered;
    const { respelled, allAscii } = respell(names, this.ordered);
    this.respelled = respelled;
    this.allAscii = allAscii;
  }

  spellings(): readonly string[] {
    return this.names;
  }

  private entry(i: number): DirEntry {
    return { name: this.names[i] as string, type: this.types[i] as EntryType };
  }

  exact(name: string): ExactHit {
    const spelled = this.ordered ? search(this.names, name) : -1;
    const keyed = this.respelled?.get(name);
    if (keyed === undefined) return spelled === -1 ? undefined : { entry: this.entry(spelled) };
    if (spelled === -1 && !Array.isArray(keyed)) return { entry: this.entry(keyed) };
    // Two spellings of one NFC name (rare, and a fault): named in the names' order.
    const ambiguous: DirEntry[] = [];
    for (let i = 0; i < this.names.length; i += 1) if (nfc(this.names[i] as string) === name) ambiguous.push(this.entry(i));
    return { ambiguous };
  }

  named(raw: string): DirEntry | undefined {
    const at = this.ordered
      ? search(this.names, raw)
      : this.respelled === undefined
        ? -1
        : (under(this.respelled, nfc(raw)).find((i) => this.names[i] === raw) ?? -1);
    return at === -1 ? undefined : this.entry(at);
  }

  caseVariants(name: string): readonly DirEntry[] {
    const found: DirEntry[] = [];
    for (const i of this.folded(caseFold(name))) if (nfc(this.names[i] as string) !== name) found.push(this.entry(i));
    return found;
  }

  caseGroup(name: string): CaseGroup {
    const key = caseFold(name);
    let group = this.groups?.get(key);
    if (group !== undefined) return group;
    const positions = this.folded(key);
    // Only keys the directory holds are kept: rows naming thousands of new files make none.
    if (positions.length === 0) return NO_GROUP;
    group = this.groupOf(positions);
    (this.groups ??= new Map()).set(key, group);
    return group;
  }

  // The positions of the names whose case fold is `key`, in ascending order.
  private folded(key: string): readonly number[] {
    const { names } = this;
    const asciiKey = isAscii(key);
    // An ASCII name folds to ASCII: a key that is not ASCII is no fold of theirs.
    if (!asciiKey && this.allAscii) return [];
    const byFold = asciiKey ? (this.byAsciiFold ??= foldIndex(names, this.ordered, true)) : (this.byOtherFold ??= foldIndex(names, this.ordered, false));
    const keyed = under(byFold, key);
    // In order, a name that is its own key is not in the map: it is the one spelled as the key.
    const own = this.ordered ? search(names, key) : -1;
    return own === -1 || caseFold(names[own] as string) !== key ? keyed : [...keyed, own].sort((a, b) => a - b);
  }

  confusableGroup(name: string): CaseGroup {
    const ascii = isAscii(name);
    // Most directories hold no non-ASCII name at all: then an ASCII name has nothing to match.
    if (ascii && this.allAscii) return NO_GROUP;
    const scripts = scriptsOf(name);
    if (scripts === "") return NO_GROUP;
    const key = confusableKey(name);
    const memo = `${scripts}\u0000${key}`;
    let group = this.confusableGroups?.get(memo);
    if (group !== undefined) return group;
    const positions = this.confusablePositions(key, ascii);
    // Only skeletons the directory holds are kept: rows naming thousands of new files make none.
    if (positions.length === 0) return NO_GROUP;
    const found: number[] = [];
    for (const i of positions) {
      const theirs = scriptsOf(this.names[i] as string);
      if (theirs !== "" && theirs !== scripts) found.push(i);
    }
    group = this.groupOf(found);
    (this.confusableGroups ??= new Map()).set(memo, group);
    return group;
  }

  // The entries at `positions`, and whether each is a plain file (nothing there can fault or lead on).
  private groupOf(positions: readonly number[]): CaseGroup {
    return { entries: positions.map((i) => this.entry(i)), plain: positions.every((i) => this.types[i] === "file" || this.types[i] === "other") };
  }

  // The positions of the names whose confusable skeleton is `key`, in ascending order.
  private confusablePositions(key: string, ascii: boolean): readonly number[] {
    const asciiKey = isAscii(key);
    let positions: readonly number[];
    if (ascii) positions = under(this.skeletons(asciiKey ? OTHER_SCRIPT_ASCII_KEY : OTHER_SCRIPT), key);
    else {
      // Every ASCII name's key, where one was made already: a superset of those holding `%`.
      const asciiNames = asciiKey ? this.skeletons(ASCII) : (this.bySkeleton?.[ASCII] ?? this.skeletons(ASCII_OFF_KEY));
      positions = merged(this.allAscii ? [] : under(this.skeletons(NOT_ASCII), key), under(asciiNames, key));
    }
    return positions;
  }

  private skeletons(kind: number): Keyed<number> {
    // Most directories are never asked: no array for them.
    const built = (this.bySkeleton ??= []);
    let index = built[kind];
    if (index === undefined) built[kind] = index = skeletonIndex(this.names, kind);
    return index;
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
