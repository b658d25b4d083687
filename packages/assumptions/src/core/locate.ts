import type { DirEntry } from "../tree.js";
import type { Resolved } from "./links.js";
import type { ExactHit } from "./dir-index.js";
import { knownAbove, type Locator, type Plain, plainDir, type Step, spelledBelow } from "./plain.js";
import { child, nameOf, parentOf } from "./tree-path.js";
import { arrive, type Locating, scanLeaves, variants, viaLeaves, walk } from "./walk.js";

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
 * `shared` as for `locateIn` (false: walked in full, the reference the shared scan is tested against).
 */
export async function locate(loc: Locator, path: string, shared = true): Promise<Locating> {
  const dir = parentOf(path);
  const at = await plainDir(loc, dir);
  return locateIn(loc, dir, at, path, exactIn(at, path), shared);
}

/**
 * `locate` for a path whose plan directory `dir` the caller has already resolved: `at` is what
 * `plainDir` answered for it, `hit` what `exactIn` found there. `shared`: other rows under `dir`
 * may follow, so a walk's directories are scanned once for them all (`viaScan`); false for a lone
 * row, which is walked at once.
 */
export function locateIn(loc: Locator, dir: string, at: Plain | undefined, path: string, hit: ExactHit, shared = true): Promise<Locating> {
  if (at && hit && "entry" in hit) {
    // Named exactly in a plain directory: no walk. A directory may be a nested repository and a
    // link leads elsewhere: `arrive` asks.
    const entryPath = child(at.dir, hit.entry.name);
    return arrive(loc.listings, entryPath, spelledBelow(at, hit.entry.name, entryPath), hit.entry, at.hops);
  }
  const start = startIn(loc, dir);
  const comps = componentsFrom(path, start.index);
  return comps.length < 2 || !shared ? walkFrom(loc, comps, start) : viaScan(loc, dir, comps, start);
}

// The components of `path` from the `index`-th down: only the levels from a walk's start are
// split, so a row thousands of levels deep does not make a string of every component above it.
function componentsFrom(path: string, index: number): string[] {
  let from = 0;
  for (let i = 0, k = 0; k < index; i += 1) {
    if (path.charCodeAt(i) === 47) {
      k += 1;
      from = i + 1;
    }
  }
  return path.slice(from).split("/");
}

function walkFrom(loc: Locator, comps: readonly string[], start: Step): Promise<Locating> {
  return walk({ listings: loc.listings, comps, base: start.index, turns: new Map(), anyHops: new Map(), reach: start.hops }, start);
}

// A path with directories between its start and its last component: those are scanned once for
// every row of its plan directory (`scanLeaves`), and only its last level is looked at per row; a
// row whose last component is a link somewhere is walked in full.
async function viaScan(loc: Locator, dir: string, comps: readonly string[], start: Step): Promise<Locating> {
  let scan = loc.scans.get(dir);
  if (scan === undefined) loc.scans.set(dir, (scan = scanLeaves(loc.listings, comps, start)));
  return (await viaLeaves(loc.listings, await scan, comps[comps.length - 1] as string)) ?? walkFrom(loc, comps, start);
}
