import { err, ok, type Result } from "neverthrow";
import type { DirEntry, TreeReader } from "../tree.js";
import type { CheckFault } from "./faults.js";
import { MAX_HOPS, resolveLinkCounted, type Resolved } from "./links.js";
import { createListings, type DirIndex, type ExactHit, isRepository, type Listings, repositoryFault } from "./listing.js";

/** How a path's spelling differs from the plan's when it is a variant. */
export type VariantHow = "case" | "confusable";

/** Where a plan path leads in the tree. */
export type Located =
  | {
      readonly state: "found";
      /** The path as the tree spells it (may differ from the plan's in normalisation only). */
      readonly spelled: string;
      /** The entry itself, judged by lstat. */
      readonly entry: DirEntry;
      /** Where the entry leads after following links; `undefined` for a dangling link. */
      readonly resolved: Resolved;
    }
  | { readonly state: "variant"; readonly spelled: string; readonly how: VariantHow }
  | { readonly state: "missing" };

/** A path that leads to an entry of the tree. */
export type Found = Extract<Located, { state: "found" }>;

type Candidate = readonly [DirEntry, VariantHow | undefined];
type Locating = Result<Located, CheckFault>;

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
  readonly plain: Map<string, Plain | null>;
  /** The `levelsOf` hash of every key of `plain`: which prefixes of a path it may hold. */
  readonly heldHashes: Set<number>;
  /** Plain plan directory to where a walk for a path below it starts (see `startIn`). */
  readonly starts: Map<string, Start>;
  /**
   * The plan directory `resolvePlain` resolved last, and the deepest level of it `plain` holds
   * from then on (levels are never taken back, and none is kept below one that is not plain):
   * `startIn` asks about the same directory right after, for a row not found as written.
   */
  reached: { readonly planDir: string; readonly at: string } | undefined;
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
  loc.listings.forget();
}

/** Creates the per-run locator over a tree. */
export function createLocator(tree: TreeReader): Locator {
  return { listings: createListings(tree), plain: new Map(), heldHashes: new Set(), starts: new Map(), reached: undefined };
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

const RANK = { missing: 0, variant: 1, found: 2 } as const;
const MISSING: Located = { state: "missing" };

function child(dir: string, name: string): string {
  return dir === "" ? name : `${dir}/${name}`;
}

/** The plan directory a plan path lies in: all but its last component (`""` for the root). */
export function parentOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash === -1 ? "" : path.slice(0, slash);
}

/** The last component of a plan path: the name its directory is asked for. */
export function nameOf(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
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
function knownAbove(loc: Locator, planDir: string): { readonly at: string; readonly level: number; readonly levels: Levels } {
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
function spelledBelow(at: Plain, name: string, path: string): string {
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

function candidates(index: DirIndex, dir: string, name: string): Result<readonly Candidate[], CheckFault> {
  const exact = index.exact(name);
  if (exact && "ambiguous" in exact) {
    return err({ code: "ambiguous-name", path: dir, names: exact.ambiguous.map((e) => e.name) });
  }
  return ok(exact ? [[exact.entry, undefined]] : []);
}

function variants(index: DirIndex, name: string): readonly Candidate[] {
  const list: Candidate[] = index.caseVariants(name).map((entry) => [entry, "case"] as const);
  if (list.length === 0) for (const entry of index.confusables(name)) list.push([entry, "confusable"]);
  return list;
}

/** A nested repository is a `submodule` fault when named (unless the tree descends into them); an unlistable directory is its listing's fault. */
async function unlessRepository(listings: Listings, dir: string, spelled: string, then: Locating): Promise<Locating> {
  const fault = await repositoryFault(listings, dir, spelled);
  return fault === undefined ? then : err(fault);
}

// `reached` hears how many links the path has followed once it arrives (a link named last adds its chain).
async function arrive(listings: Listings, path: string, spelled: string, entry: DirEntry, hops: number, reached?: (hops: number) => void): Promise<Locating> {
  if (entry.type === "submodule") return err({ code: "submodule", path: spelled });
  if (entry.type === "directory")
    return unlessRepository(listings, path, spelled, ok({ state: "found", spelled, entry, resolved: { path, type: "directory" } }));
  if (entry.type !== "symlink") return ok({ state: "found", spelled, entry, resolved: { path, type: entry.type } });
  const to = await resolveLinkCounted(listings, path, hops);
  if (to.isOk()) reached?.(to.value.hops);
  return to.map(({ resolved }): Located => ({ state: "found", spelled, entry, resolved }));
}

/**
 * One path's walk: the listings, the plan's components, and what each turn under a variant
 * spelling found, by where it stood (real directory, component, kind of variant, links followed).
 * Two spellings that lead to one directory (`s -> .` beside `S -> .`) reach the same turn, and
 * without the memo each level would double the walk. A turn reached again always yields what it
 * yielded first, and that first answer already stands at every level above, so the answer is as
 * if walked again.
 */
interface Walking {
  readonly listings: Listings;
  /** The plan's components from the walk's first level down: component `k` is `comps[k - base]`. */
  readonly comps: readonly string[];
  readonly base: number;
  /** Turns by where they stood and the links followed before them. */
  readonly turns: Map<string, Turned>;
  /** The first turn made from each place, whatever the links before it: see `walk`. */
  readonly anyHops: Map<string, Turned>;
  /** The most links any path of the turn under way has followed so far. */
  reach: number;
}

/** What a turn yielded, and the most links any path below it had followed (`reach`). */
interface Turned {
  readonly result: Locating;
  readonly reach: number;
  readonly hops: number;
}

async function descend(w: Walking, at: Step, [entry, how]: Candidate): Promise<Locating> {
  const { listings, comps, base } = w;
  const path = child(at.dir, entry.name);
  const spelled = child(at.spelled, entry.name);
  const variant = at.how ?? how;
  if (entry.type === "submodule") return err({ code: "submodule", path: spelled });
  if (at.index - base === comps.length - 1) {
    return variant ? ok({ state: "variant", spelled, how: variant }) : arrive(listings, path, spelled, entry, at.hops, (hops) => reaching(w, hops));
  }
  const below = await beneath(w, { dir: path, spelled, index: at.index + 1, how: variant, hops: at.hops }, entry);
  // Under a variant spelling of a parent, a missing rest is still that variant: on a
  // case-insensitive checkout the plan's path would land in it.
  return variant !== undefined && below.isOk() && below.value.state === "missing" ? ok({ state: "variant", spelled, how: variant }) : below;
}

/** The walk's next turn below `entry` (a directory, or a link to one); anything else leads nowhere. */
async function beneath(w: Walking, next: Step, entry: DirEntry): Promise<Locating> {
  if (entry.type === "directory") return walk(w, next);
  if (entry.type !== "symlink") return ok(MISSING);
  const to = await resolveLinkCounted(w.listings, next.dir, next.hops);
  if (to.isErr()) return err(to.error);
  const { resolved, hops } = to.value;
  reaching(w, hops);
  return resolved?.type === "directory" ? walk(w, { ...next, dir: resolved.path, hops }) : ok(MISSING);
}

function better(best: Located, got: Located): Located {
  return RANK[got.state] > RANK[best.state] ? got : best;
}

function reaching(w: Walking, hops: number): void {
  w.reach = Math.max(w.reach, hops);
}

// A turn of the walk, the one made before when a variant spelling has led there already.
// Reached again after other links (twin links `A -> a` beside `a` at every level put each level
// behind 0, 1, 2, ... links), it yields what it yielded first when that held no fault and the
// links it went on to follow, added to the links before it now, stay within the limit: every
// link on its paths then resolves as it did, so the answer is the same, and each place is
// turned once, not once per count of links before it. Otherwise it is turned again for that
// count, once. (A walk is one chain of awaits and a turn's index only grows below it, so a turn
// met again has finished.)
async function walk(w: Walking, at: Step): Promise<Locating> {
  // Only a variant spelling can lead two ways to one turn: the exact one is a single path.
  if (at.how === undefined) return turn(w, at);
  const place = `${at.index}/${at.how}/${at.dir}`;
  const first = w.anyHops.get(place);
  const reuse = first?.result.isOk() && at.hops + (first.reach - first.hops) <= MAX_HOPS;
  const again = reuse ? first : w.turns.get(`${at.hops}/${place}`);
  if (again !== undefined) {
    reaching(w, at.hops + (again.reach - again.hops));
    return again.result;
  }
  const outer = w.reach;
  w.reach = at.hops;
  const result = await turn(w, at);
  const turned = { result, reach: w.reach, hops: at.hops };
  w.reach = Math.max(outer, turned.reach);
  w.turns.set(`${at.hops}/${place}`, turned);
  if (first === undefined) w.anyHops.set(place, turned);
  return result;
}

// One directory's turn: the exact spelling's candidate first, then (only when it does not lead to
// the path) every case or confusable spelling; the first that leads to the path wins, else the
// best (variant over missing) of those tried. Each level awaits its listing, so a path thousands
// of components deep resumes on a fresh stack at every level.
async function turn(w: Walking, at: Step): Promise<Locating> {
  const { listings, comps, base } = w;
  const index = await listings.index(at.dir);
  if (index.isErr()) return err(index.error);
  if (isRepository(listings, at.dir, index.value)) return err({ code: "submodule", path: at.spelled });
  const name = comps[at.index - base] ?? "";
  const exact = candidates(index.value, at.dir, name);
  if (exact.isErr()) return err(exact.error);
  let best = MISSING;
  for (const list of [exact.value, undefined]) {
    for (const candidate of list ?? variants(index.value, name)) {
      const got = await descend(w, at, candidate);
      if (got.isErr() || got.value.state === "found") return got;
      best = better(best, got.value);
    }
  }
  return ok(best);
}

/**
 * What plain directory `at` holds under a plan path's exact last name: looked up once, for
 * `foundIn` and then, when that is not the answer, for `locateIn`.
 */
export function exactIn(at: Plain | undefined, path: string): ExactHit {
  return at?.index.exact(nameOf(path));
}

/**
 * A file (or FIFO, socket, device) named exactly as written in plain directory `at` (`hit` is
 * `exactIn` of it): found, with no walk and nothing to wait for. `undefined` for anything else (a
 * miss, two spellings of the name, a directory, a link, a gitlink): `locateIn` walks those.
 */
export function foundIn(at: Plain, hit: ExactHit): Located | undefined {
  if (!hit || !("entry" in hit)) return undefined;
  const { entry } = hit;
  if (entry.type !== "file" && entry.type !== "other") return undefined;
  const path = child(at.dir, entry.name);
  return { state: "found", spelled: spelledBelow(at, entry.name, path), entry, resolved: { path, type: entry.type } };
}

/** Where a walk starts, and whether every directory above it, and it, is plain and sole. */
export interface Start {
  readonly step: Step;
  readonly unbroken: boolean;
}

const ROOT_STEP: Step = { dir: "", spelled: "", index: 0, how: undefined, hops: 0 };

// Where a walk may start for paths in plan directory `planDir` (each of its plain prefixes is in
// `plain` once `plainDir` has run): the deepest plain ancestor-or-self that only its exact spelling
// reaches from the root, no directory on the way holding a case or confusable spelling of the
// next component. Above it, the walk from the root would meet one candidate per level, the exact
// one, and come down to it anyway. Each plain directory's answer is worked out once a run, from
// its parent's, so a path thousands of directories deep costs no more per row than a short one.
function startIn(loc: Locator, planDir: string): Step {
  // Below the deepest plain prefix nothing is plain: the walk starts where that prefix's does.
  // What `plain` holds is plain from the root down, then at most one level that is not.
  const { reached } = loc;
  const known = reached !== undefined && reached.planDir === planDir ? reached.at : knownAbove(loc, planDir).at;
  let at = known === "" || loc.plain.get(known) ? known : parentOf(known);
  const todo: string[] = [];
  for (; at !== "" && !loc.starts.has(at); at = parentOf(at)) todo.push(at);
  let start = at === "" ? { step: ROOT_STEP, unbroken: Boolean(loc.plain.get("")) } : (loc.starts.get(at) as Start);
  for (let k = todo.length - 1; k >= 0; k -= 1) {
    const path = todo[k] as string;
    start = below(loc, start, path);
    loc.starts.set(path, start);
  }
  return start.step;
}

// The start for plain directory `path` from its parent's: `path` itself when the chain above is
// unbroken and its parent holds no variant spelling of its name; else where the parent starts.
function below(loc: Locator, parent: Start, path: string): Start {
  if (!parent.unbroken) return parent;
  const here = loc.plain.get(path) as Plain;
  const above = loc.plain.get(parentOf(path)) as Plain;
  if (variants(above.index, nameOf(path)).length > 0) return { step: parent.step, unbroken: false };
  return { step: { dir: here.dir, spelled: here.spelled, index: parent.step.index + 1, how: undefined, hops: here.hops }, unbroken: true };
}

/**
 * Finds a plan path's components (NFC, as parsed) among the tree's real entries: NFC-equal is
 * the entry; equal after case folding, or a confusable skeleton in another script, is a
 * variant; else missing. Every variant spelling is explored, so a variant anywhere is found;
 * a path not found as written is looked for from its nearest plain ancestor, not the root.
 */
export async function locate(loc: Locator, path: string): Promise<Locating> {
  const dir = parentOf(path);
  const at = await plainDir(loc, dir);
  return locateIn(loc, dir, at, path, exactIn(at, path));
}

/**
 * `locate` for a path whose plan directory `dir` the caller has already resolved: `at` is what
 * `plainDir` answered for it, `hit` what `exactIn` found there.
 */
export function locateIn(loc: Locator, dir: string, at: Plain | undefined, path: string, hit: ExactHit): Promise<Locating> {
  if (at && hit && "entry" in hit) {
    // Named exactly in a plain directory: no walk. A directory may be a nested repository and a
    // link leads elsewhere: `arrive` asks.
    const entryPath = child(at.dir, hit.entry.name);
    return arrive(loc.listings, entryPath, spelledBelow(at, hit.entry.name, entryPath), hit.entry, at.hops);
  }
  const start = startIn(loc, dir);
  // Only the levels from the start down are walked: the path is split from there, so a row
  // thousands of levels deep does not make a string of every component above it.
  let from = 0;
  for (let i = 0, k = 0; k < start.index; i += 1) {
    if (path.charCodeAt(i) === 47) {
      k += 1;
      from = i + 1;
    }
  }
  const comps = path.slice(from).split("/");
  return walk({ listings: loc.listings, comps, base: start.index, turns: new Map(), anyHops: new Map(), reach: start.hops }, start);
}
