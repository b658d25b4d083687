import { err, ok, type Result } from "neverthrow";
import type { DirEntry } from "../tree.js";
import type { CheckFault } from "./faults.js";
import { resolveLinkCounted, type Resolved } from "./links.js";
import { type DirIndex, isRepository, type Listings } from "./listing.js";
import { chain, type Maybe } from "./maybe.js";

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

type Candidate = readonly [DirEntry, VariantHow | undefined];
type Locating = Result<Located, CheckFault>;

interface Step {
  readonly dir: string;
  readonly spelled: string;
  readonly index: number;
  readonly how: VariantHow | undefined;
  /** Links followed so far on this path (the kernel's count: more than 40 is a loop). */
  readonly hops: number;
}

const RANK = { missing: 0, variant: 1, found: 2 } as const;
const MISSING: Located = { state: "missing" };

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

function child(dir: string, name: string): string {
  return dir === "" ? name : `${dir}/${name}`;
}

/**
 * A nested repository is a `submodule` fault when named or reached into (unless the tree
 * descends into them). A listing that fails here leaves the answer as it was (the row's own
 * reads report their failures).
 */
function unlessRepository(listings: Listings, dir: string, spelled: string, then: () => Maybe<Locating>): Maybe<Locating> {
  return chain(listings.index(dir), (index) => (index.isOk() && isRepository(listings, dir, index.value) ? err({ code: "submodule", path: spelled }) : then()));
}

function arrive(listings: Listings, path: string, spelled: string, entry: DirEntry, hops: number): Maybe<Locating> {
  if (entry.type === "submodule") return err({ code: "submodule", path: spelled });
  if (entry.type === "directory") {
    return unlessRepository(listings, path, spelled, () => ok({ state: "found", spelled, entry, resolved: { path, type: "directory" } }));
  }
  if (entry.type !== "symlink") return ok({ state: "found", spelled, entry, resolved: { path, type: entry.type } });
  return resolveLinkCounted(listings, path, hops).then((r) => r.map(({ resolved }): Located => ({ state: "found", spelled, entry, resolved })));
}

function descend(listings: Listings, comps: readonly string[], at: Step, [entry, how]: Candidate): Maybe<Locating> {
  const path = child(at.dir, entry.name);
  const spelled = child(at.spelled, entry.name);
  const variant = at.how ?? how;
  if (entry.type === "submodule") return err({ code: "submodule", path: spelled });
  if (at.index === comps.length - 1) {
    return variant ? ok({ state: "variant", spelled, how: variant }) : arrive(listings, path, spelled, entry, at.hops);
  }
  const below = beneath(listings, comps, { dir: path, spelled, index: at.index + 1, how: variant, hops: at.hops }, entry);
  // Under a variant spelling of a parent, a missing rest is still that variant: on a
  // case-insensitive checkout the plan's path would land in it.
  if (variant === undefined) return below;
  return chain(below, (r) => (r.isOk() && r.value.state === "missing" ? ok({ state: "variant", spelled, how: variant }) : r));
}

/** The walk's next turn below `entry` (a directory, or a link to one); anything else leads nowhere. */
function beneath(listings: Listings, comps: readonly string[], next: Step, entry: DirEntry): Maybe<Locating> {
  if (entry.type === "directory") return walk(listings, comps, next);
  if (entry.type !== "symlink") return ok(MISSING);
  return resolveLinkCounted(listings, next.dir, next.hops).then((to) => {
    if (to.isErr()) return err(to.error);
    const { resolved, hops } = to.value;
    return resolved?.type === "directory" ? walk(listings, comps, { ...next, dir: resolved.path, hops }) : ok(MISSING);
  });
}

/** One directory's turn of a walk: its candidates for the component, tried in order. */
interface Turn {
  readonly listings: Listings;
  readonly comps: readonly string[];
  readonly at: Step;
  readonly index: DirIndex;
}

// Tries candidates from the `i`th on: the first that leads to the path wins, else the best
// (variant over missing) of those tried. The exact spelling's list comes first; variant
// spellings are looked up only when it does not lead to the path. A loop while the answers come
// at once, so thousands of variant spellings take no stack; a promise resumes it afresh.
function tryFrom(turn: Turn, list: readonly Candidate[], i: number, best: Located, exactList: boolean): Maybe<Locating> {
  for (;;) {
    if (i === list.length) {
      if (!exactList) return ok(best);
      list = variants(turn.index, turn.comps[turn.at.index] ?? "");
      i = 0;
      exactList = false;
      continue;
    }
    const got = descend(turn.listings, turn.comps, turn.at, list[i] as Candidate);
    if (got instanceof Promise) {
      const from = list;
      const next = i + 1;
      const exact = exactList;
      return got.then((r) => (r.isErr() || r.value.state === "found" ? r : tryFrom(turn, from, next, better(best, r.value), exact)));
    }
    if (got.isErr() || got.value.state === "found") return got;
    best = better(best, got.value);
    i += 1;
  }
}

function better(best: Located, got: Located): Located {
  return RANK[got.state] > RANK[best.state] ? got : best;
}

// Directories descended at once before the walk goes on through a promise, whose callback starts
// on an empty stack: a path thousands of components deep never runs out of stack.
const DEPTH_PER_TURN = 256;

function walk(listings: Listings, comps: readonly string[], at: Step): Maybe<Locating> {
  if (at.index > 0 && at.index % DEPTH_PER_TURN === 0) return Promise.resolve().then(() => walkHere(listings, comps, at));
  return walkHere(listings, comps, at);
}

function walkHere(listings: Listings, comps: readonly string[], at: Step): Maybe<Locating> {
  return chain(listings.index(at.dir), (index) => {
    if (index.isErr()) return err(index.error);
    if (isRepository(listings, at.dir, index.value)) return err({ code: "submodule", path: at.spelled });
    const exact = candidates(index.value, at.dir, comps[at.index] ?? "");
    if (exact.isErr()) return err(exact.error);
    return tryFrom({ listings, comps, at, index: index.value }, exact.value, 0, MISSING, true);
  });
}

// The common case with nothing to choose: every directory on the path listed already or at once
// (a tree's `now` face), every component spelled exactly, no link, no nested repository. Anything else (a miss, a
// variant, a link, a listing that fails or must be waited for) takes `walk`, which also answers
// without a promise when the tree has a `now` face and no link is on the way.
function exactlyAtOnce(listings: Listings, comps: readonly string[]): Located | undefined {
  let dir = "";
  for (let i = 0; i < comps.length; i += 1) {
    const index = listings.index(dir);
    // A nested repository on the way: `walk` names it.
    if (index instanceof Promise || index.isErr() || isRepository(listings, dir, index.value)) return undefined;
    const hit = index.value.exact(comps[i] as string);
    if (!hit || !("entry" in hit)) return undefined;
    const { entry } = hit;
    const { type } = entry;
    if (type === "symlink" || type === "submodule") return undefined;
    const path = child(dir, entry.name);
    // A directory named last may be a nested repository: `walk` asks.
    if (i === comps.length - 1) return type === "directory" ? undefined : { state: "found", spelled: path, entry, resolved: { path, type } };
    if (type !== "directory") return undefined;
    dir = path;
  }
  return undefined;
}

/**
 * Finds a plan path's components (NFC, as parsed) among the tree's real entries: NFC-equal is
 * the entry; equal after case folding, or a confusable skeleton in another script, is a
 * variant; else missing. Every variant spelling is explored, so a variant anywhere is found.
 */
export function locate(listings: Listings, components: readonly string[]): Maybe<Locating> {
  const fast = exactlyAtOnce(listings, components);
  return fast ? ok(fast) : walk(listings, components, { dir: "", spelled: "", index: 0, how: undefined, hops: 0 });
}
