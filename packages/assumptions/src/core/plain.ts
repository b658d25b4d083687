// Plain directories: a plan directory reached by its exact spelling, level by level, resolved once
// a run from its nearest resolved ancestor, and the per-run locator that holds them.
import type { TreeReader } from "../tree.js";
import { child } from "./tree-path.js";
import { resolveLinkCounted } from "./links.js";
import type { DirIndex } from "./dir-index.js";
import { createListings, isRepository, type Listings } from "./listing.js";
import type { Start, VariantHow } from "./locate.js";
import { TextMap } from "./text-map.js";
import type { LeafScan } from "./walk.js";

/**
 * A plan directory reached by its exact spelling, level by level, through directories and links to
 * directories (no gitlink, no nested repository on the way).
 */
export interface Plain {
  /** Where the directory really is in the tree: every link on the way followed. */
  readonly dir: string;
  /** The tree's spelling of the path as the plan walks it, through any links. */
  readonly spelled: string;
  /** Links followed on the way (the kernel's count: more than 40 is a loop). */
  readonly hops: number;
  readonly index: DirIndex;
}

/**
 * The per-run state of locating paths: the listing cache, and every plan directory a row sits in,
 * resolved once by its exact spelling from its nearest resolved ancestor. Rows that share a
 * directory share that work; a row not found as written is looked for from its nearest plain
 * ancestor that no variant spelling leads around.
 */
export interface Locator {
  readonly listings: Listings;
  /**
   * Plan directory (NFC, `""` for the root) to where it leads, or `null` when it is not plain; of
   * the levels below one that is not plain, none is kept.
   */
  readonly plain: TextMap<Plain | null>;
  /** The `levelsOf` hash of every key of `plain`: which prefixes of a path it may hold. */
  readonly heldHashes: Set<number>;
  /** Plain plan directory to where a walk for a path below it starts (see `startIn`). */
  readonly starts: TextMap<Start>;
  /**
   * The plan directory `resolvePlain` resolved last, and the deepest level of it `plain` holds
   * from then on (levels are never taken back, and none is kept below one that is not plain):
   * `startIn` asks about the same directory right after, for a row not found as written.
   */
  reached: { readonly planDir: string; readonly at: string } | undefined;
  /** Plan directory to the scan of its spellings (`scanLeaves`), for rows a walk must look for. */
  readonly scans: TextMap<Promise<LeafScan>>;
}

/**
 * Lets go of everything located so far (listings, plain directories, walk starts, links): for a
 * caller that has located all it will, so that the memory serves the reads that follow. The
 * locator still works after, listing again what it is asked about.
 */
export function forgetLocated(loc: Locator): void {
  loc.plain.clear();
  loc.heldHashes.clear();
  loc.starts.clear();
  loc.reached = undefined;
  loc.scans.clear();
  loc.listings.forget();
}

/** Creates the per-run locator over a tree. */
export function createLocator(tree: TreeReader): Locator {
  return { listings: createListings(tree), plain: new TextMap(), heldHashes: new Set(), starts: new TextMap(), reached: undefined, scans: new TextMap() };
}

/** One turn of a walk: the directory it stands in, and the component it looks for there. */
export interface Step {
  readonly dir: string;
  readonly spelled: string;
  readonly index: number;
  readonly how: VariantHow | undefined;
  /** Links followed so far on this path (the kernel's count: more than 40 is a loop). */
  readonly hops: number;
}

/**
 * Where a plan directory leads when every component is spelled exactly and names a directory or a
 * link that leads to one (no gitlink), and no directory on the way is a nested repository; else
 * `undefined`.
 * Resolved downwards from the nearest ancestor already resolved, in a loop: a path thousands of
 * directories deep takes no stack, and only a directory not listed yet is waited for.
 */
export function plainDir(loc: Locator, planDir: string): Plain | undefined | Promise<Plain | undefined> {
  // Asked again for a directory already resolved (most rows): answered at once, no promise.
  const known = loc.plain.get(planDir);
  return known !== undefined ? (known ?? undefined) : resolvePlain(loc, planDir);
}

/** Where each level of a plan directory ends, and a hash of the prefix up to each (see `knownAbove`). */
interface Levels {
  readonly ends: readonly number[];
  readonly hashes: readonly number[];
}

/**
 * One pass over a plan directory: where each level ends, and two 32-bit hashes of the prefix up to
 * each (FNV-1a and a polynomial one) joined into one 53-bit integer. Exported for tests.
 */
export function levelsOf(planDir: string): Levels {
  const ends: number[] = [];
  const hashes: number[] = [];
  if (planDir === "") return { ends, hashes };
  let a = 0x811c9dc5;
  let b = 0;
  for (let i = 0; i <= planDir.length; i += 1) {
    const c = i === planDir.length ? 47 : planDir.charCodeAt(i);
    if (c === 47) {
      ends.push(i);
      hashes.push((a >>> 0) * 0x200000 + ((b >>> 0) & 0x1fffff));
    }
    a = Math.imul(a ^ c, 0x01000193);
    b = (Math.imul(b, 31) + c) | 0;
  }
  return { ends, hashes };
}

// The deepest level `held` says yes to, -1 for none (the root), by bisection: what is held of one
// path runs from the top down without a gap. The parent and the level itself are looked at first,
// where most new directories sit.
function deepestHeld(count: number, held: (level: number) => boolean): number {
  if (count === 0) return -1;
  if (held(count - 1)) return count - 1;
  let lo = -1;
  let hi = count - 1;
  if (count > 1 && held(count - 2)) lo = count - 2;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (held(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * The deepest ancestor-or-self of `planDir` that `plain` holds (`level` -1: the root, which may
 * not be held yet), with `planDir`'s levels. What `plain` holds of one path runs from the top down
 * without a gap, so the bisection asks `heldHashes` about each level's hash (a number; asking
 * `plain` hashes a new prefix string at every step). A level whose hash is missing is not held;
 * the level found is checked in `plain`, and only a hash shared by two prefixes sends the
 * bisection to `plain` itself.
 */
export function knownAbove(loc: Locator, planDir: string): { readonly at: string; readonly level: number; readonly levels: Levels } {
  const levels = levelsOf(planDir);
  const { ends, hashes } = levels;
  const prefix = (level: number): string => (level === -1 ? "" : planDir.slice(0, ends[level]));
  let level = deepestHeld(ends.length, (k) => loc.heldHashes.has(hashes[k] as number));
  let at = prefix(level);
  if (level !== -1 && !loc.plain.has(at)) {
    level = deepestHeld(ends.length, (k) => loc.plain.has(prefix(k)));
    at = prefix(level);
  }
  return { at, level, levels };
}

// Remembers where plan directory `path` (at `hash`, its `levelsOf` hash) leads.
function remember(loc: Locator, path: string, hash: number, here: Plain | null): void {
  loc.plain.set(path, here);
  loc.heldHashes.add(hash);
}

async function resolvePlain(loc: Locator, planDir: string): Promise<Plain | undefined> {
  const { listings, plain } = loc;
  const { at, level, levels } = knownAbove(loc, planDir);
  const { ends, hashes } = levels;
  let here = plain.get(at);
  if (here === undefined) {
    // Only the root can be unknown here: listed on first use. Its key has no hash: the root is
    // never a level of a path.
    here = await listedPlain(listings, "", "", 0);
    plain.set("", here);
  }
  // Below a directory that is not plain nothing is: only the first such level is remembered (the
  // levels under it are most often one row's missing parents, never asked about again).
  let deepest = at;
  for (let k = level + 1; k < ends.length && here !== null; k += 1) {
    const path = planDir.slice(0, ends[k]);
    here = await childDir(listings, here, path.slice(k === 0 ? 0 : (ends[k - 1] as number) + 1));
    remember(loc, path, hashes[k] as number, here);
    deepest = path;
  }
  loc.reached = { planDir, at: deepest };
  return here ?? undefined;
}

// The spelling of `name` in plain directory `at` whose real path is `path`: the same string when
// no link lies on the way (most often), so that paths thousands of characters long are not built
// twice, nor compared character by character.
export function spelledBelow(at: Plain, name: string, path: string): string {
  return at.spelled === at.dir ? path : child(at.spelled, name);
}

async function listedPlain(listings: Listings, dir: string, spelled: string, hops: number): Promise<Plain | null> {
  const index = await listings.index(dir);
  return index.isOk() && !isRepository(listings, dir, index.value) ? { dir, spelled, hops, index: index.value } : null;
}

// A directory named exactly in `parent`, or a link there that leads to one (followed as the walk
// would, from the links already followed); a link that fails (a loop, out of the root) is not
// plain, and the rows below it walk to meet the fault.
function childDir(listings: Listings, parent: Plain, name: string): Promise<Plain | null> | null {
  const hit = parent.index.exact(name);
  if (!hit || !("entry" in hit)) return null;
  const { entry } = hit;
  const path = child(parent.dir, entry.name);
  const spelled = spelledBelow(parent, entry.name, path);
  if (entry.type === "directory") return listedPlain(listings, path, spelled, parent.hops);
  return entry.type === "symlink" ? throughLink(listings, path, spelled, parent.hops) : null;
}

async function throughLink(listings: Listings, path: string, spelled: string, hops: number): Promise<Plain | null> {
  const to = await resolveLinkCounted(listings, path, hops);
  if (to.isErr() || to.value.resolved?.type !== "directory") return null;
  return listedPlain(listings, to.value.resolved.path, spelled, to.value.hops);
}
